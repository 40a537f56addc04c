package view

// Runner runs work off the UI goroutine and then done on it, the way the
// GUI runs long work; tests pass one that runs both at once (or holds
// them back to check what happens meanwhile).
type Runner func(work, done func())
