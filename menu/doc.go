// Package menu holds an experiment window's menus as data: the menu bar
// (Bar: File, View, Metric tree, Algebra, Help) and the context menu of a
// tree row (Row), each item with its label, shortcut, check mark and
// Command, for the window's view.View and the State besides it (the
// document shown, recent files, other open experiments, which panels are
// shown). The ui package turns the items into widgets and binds each
// Command to a handler; KeysHelp and About are the Help menu's texts.
package menu
