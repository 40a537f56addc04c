package view

// Runner runs work off the UI goroutine and then done on it (the
// application's App.async); a test's Runner runs both at once, so the
// code that takes one is tested without a window.
type Runner func(work, done func())

// Busy shows that work runs, saying what it does ("Computing before −
// after …"), and returns the function that stops showing it.
type Busy func(what string) (stop func())
