// Package ui is cubeview's graphical interface, built with Fyne: one window
// per experiment with three linked tree panes (metrics, call paths or flat
// profile, system locations), value modes, a colour legend, find, hottest
// path and a status line that explains the selected value. It receives its
// fyne.App from the main package.
//
// The package only draws and routes events: the state packages hold
// everything a window shows without any widget, and the widgets ask them
// what to draw — view's View (selections, expanded nodes, value modes,
// the values of the three panes, their text, colour and relief),
// document's Doc (the experiment a window shows, original or derived,
// and the algebra operations over open ones), menu's menu bar and
// context menus (items and commands; ui binds a handler to each
// command), analysisview's reports and side views (performance
// difference, scaling, statistics, groups of runs, callers and callees,
// bottom-up, per-location chart, topology, clusters), sourcepanel's
// Panel, repoview's Controller (the repository window), dialogform's
// forms (what each dialog of a window asks) and form's Form (every
// dialog, shown by showForm). Main opens the windows the command line
// asks for (launch.Args).
// TreePane is the single tree widget used for all three panes; each row
// is a colour square whose relief shows the sign of the value, the value
// and the label. Window puts the panes, legend and status line together
// and composes its parts: the dialogs, the panel below the panes (source,
// statistics, callers and callees, differences), the find bar, the
// splits between the panes, the menus, the busy indicator and what the
// window remembers for the next (its modes, panel and size). App keeps
// the list of open experiments that windows offer as references and
// operands.
//
// The Algebra menu computes the difference, merge, mean or cut of open
// experiments in the background and opens the result in a window titled by
// its expression; rows of such derived windows carry markers naming the
// operands that had them, and File › Properties shows the provenance. The
// source panel shows the selected region's file, highlighted, with the
// selected metric's values at call sites and region beginnings.
//
// Fyne has no tooltips; the description a tooltip would show (a metric's
// unit and description, a region's file and lines, a location's rank)
// appears below the status line while the pointer is over a row, and in
// the status line for the selected row.
//
// Long work — reading files, loading metric data, writing — runs off the
// UI goroutine with a progress indicator and reports back through fyne.Do.
package ui
