// Package view is the presentation layer below the widgets, in the way
// google/pprof's report package sits between its graph and its driver: it
// decides what a window shows, and the ui package only draws it and routes
// events.
//
// A View holds the state of one window without any widget: selections,
// expanded nodes, value modes and display options of the three panes
// (metrics, call paths or flat profile, system locations), and the values
// they show, computed with the model's queries. A change of state marks
// values stale; Update recomputes only what changed, and the row accessors
// (Row, Value, Text) format only the rows a widget asks for. Appearance is
// the one place where a value becomes text, colour and relief, for the
// tree panes and the source panel alike.
//
// The package also finds rows (Find), follows the hottest path, marks rows
// of derived experiments with the operands that had them, and names
// derived experiments by their expression for people ("before − after").
//
// For the widgets it says what a tree pane's keys do (Navigate), which
// rows a pane has by id (PaneRows), how a result table is sorted
// (TableOrder) and where a long label is cut (ElideMiddle); for the
// application it reads documents (ReadDoc), writes the bundled example
// and keeps the recent files in the user's preferences.
//
// It imports no user-interface toolkit; its tests run without one.
package view
