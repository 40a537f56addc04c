package view

// PaneRows is the rows of one pane of a View as a tree widget asks for
// them, by id: the children of a row, cached until Reset because sorting
// them is not free, and the rows shown below open branches.
type PaneRows struct {
	v    *View
	d    Dim
	kids map[string][]string
}

// NewPaneRows returns the rows of pane d of v; a nil v has none.
func NewPaneRows(v *View, d Dim) *PaneRows {
	return &PaneRows{v: v, d: d, kids: map[string][]string{}}
}

// ChildIDs returns the ids of the rows below the row id ("" for the
// roots), in the pane's sort order.
func (r *PaneRows) ChildIDs(id string) []string {
	if r.v == nil {
		return nil
	}
	if c, ok := r.kids[id]; ok {
		return c
	}
	ns := r.v.Children(r.d, ParseNode(id))
	ids := make([]string, len(ns))
	for i, n := range ns {
		ids[i] = n.ID()
	}
	r.kids[id] = ids
	return ids
}

// Reset drops the cached children, after the sort order, the flat
// profile or the values sorted by changed.
func (r *PaneRows) Reset() { r.kids = map[string][]string{} }

// Visible returns the rows shown when open tells which branches are open,
// in order: each row, followed by the rows below it when it is open.
func (r *PaneRows) Visible(open func(id string) bool) []Node {
	var out []Node
	var walk func(id string)
	walk = func(id string) {
		for _, c := range r.ChildIDs(id) {
			out = append(out, ParseNode(c))
			if open(c) {
				walk(c)
			}
		}
	}
	walk("")
	return out
}

// WalkExpanded calls visit for each row that is a root or below rows
// expanded in the View, with whether the row itself is expanded, in
// order: what a tree widget opens and closes to follow the View.
func (r *PaneRows) WalkExpanded(visit func(id string, expanded bool)) {
	var walk func(id string)
	walk = func(id string) {
		for _, c := range r.ChildIDs(id) {
			expanded := r.v.Expanded(r.d, ParseNode(c))
			visit(c, expanded)
			if expanded {
				walk(c)
			}
		}
	}
	walk("")
}
