package view

// Runner runs work off the UI goroutine and then done on it, the way the
// GUI runs long work (App.async); tests pass one that runs both at once
// (or holds them back to check what happens meanwhile).
type Runner func(work, done func())

// Busy shows that work runs, saying what it does ("Computing before −
// after …"), and returns the function that stops showing it.
type Busy func(what string) (stop func())
