// Package view is the state of an experiment window without widgets, in
// the way google/pprof's report package sits between its graph and its
// driver: it decides what a window shows, and the ui package only draws
// it and routes events.
//
// A View holds the state of the three panes (metrics, call paths or flat
// profile, system locations) — selections, expanded nodes, value modes,
// the sort order — and composes the parts that do the rest: Values (the
// values shown, computed with the model's queries; a change of state
// marks them stale and Update recomputes only what changed), Appearance
// (number format and colour scale: the one place where a value becomes
// text, colour and relief), Finder (the search), Markers (badges of the
// operands a derived experiment's rows came from) and HotPath (View ›
// Expand hottest path). Row and Explain give what a tree row and the
// status line show.
//
// Beside the View the package holds the window's documents (Doc, an open
// experiment, original or derived) and the algebra operations over them
// (Operation), the colour-range form, what a tree pane's keys do
// (Navigate), the Properties text, export of a pane's rows (PaneCSV),
// names of derived experiments for people ("before − after") and the
// user's preferences (recent files, number format, pane split, window
// state). The dialogs' forms are in dialogform, the analyses' reports and
// the views beside the panes (bottom-up, topology, callers and callees)
// in analysisview, the source panel in sourcepanel, the form model of
// every dialog in form, the menus and their commands in menu, the GUI's
// command line in launch.
//
// It imports no user-interface toolkit; its tests run without one.
package view
