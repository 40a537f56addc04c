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
// operands a derived experiment's rows came from), HotPath (View ›
// Expand hottest path), Columns (metrics shown as columns beside the
// call tree), SmallRows (rows below a share of the pane's total folded
// into one "(n hidden)" row) and Clusters (clusters of locations). Row
// and Explain give what a tree row and the status line show; BlockRef,
// Read and ReadRows what the values still need from the files.
//
// Beside the View the package holds what a window does with it: the
// colour-range form, what a tree pane's keys do (Navigate), expanding
// subtrees, export of a pane's rows (PaneCSV), the line about what a
// derived experiment's values rest on (NoteLine, Coverage),
// derived metrics (WithDerived), the background-run types every window
// part uses (Runner, Busy), the bundled example a window opens without
// a file (WriteExample) and the user's preferences (recent files, number
// format, pane split, window size and state). Around it: the window's
// documents (an open experiment, original or derived), the algebra
// operations over them, their names and File › Properties are in
// document; the menus and their commands in menu; the GUI's command line
// in launch; the dialogs' forms in dialogform; the analyses' reports and
// the views beside the panes (bottom-up, topology, callers and callees)
// in analysisview; the source panel in sourcepanel; the form model of
// every dialog in form; shortening names to fit in internal/elide.
//
// It imports no user-interface toolkit; its tests run without one.
package view
