// Package sourcepanel is the state of a window's source panel without
// widgets: the Target the call pane's selection asks to show (a region's
// definition, else its call site), the file found through the user's
// source-path Settings (mappings of recorded paths and search folders,
// learnt when the user locates a file) and read and highlighted in the
// background, the Notes that annotate its lines with the selected
// metric's values, coloured as the call pane does, and the texts the
// panel shows (title, information line, messages). Panel follows a
// view.View; the ui package draws it.
//
// It imports no user-interface toolkit; its tests run without one.
package sourcepanel
