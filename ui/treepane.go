package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/view"
)

// TreePane is the single tree widget used for all three panes: a Fyne tree
// whose rows show one dimension of a View. Opening a branch expands the
// node in the View (inclusive → exclusive value), selecting a row selects
// the node; the window recomputes and refreshes the panes.
type TreePane struct {
	widget.Tree
	dim  view.Dim
	view *view.View
	rows *view.PaneRows // the rows by id, children cached until Reload

	// OnSelect is called when the user selects a node.
	OnSelect func(n view.Node)
	// OnExpand is called when the user expands or collapses a node.
	OnExpand func(n view.Node, open bool)
	// OnHover is called when the pointer enters (in) or leaves a row.
	OnHover func(n view.Node, in bool)
	// OnMenu is called for a secondary tap on a row.
	OnMenu func(n view.Node, at fyne.Position)

	quiet      bool    // set while the pane follows the View, to mute callbacks
	digitWidth float32 // of the monospaced font, measured once
	// columnWidths are the widths of the value columns when the View
	// shows metric columns (the main value's first), set by the window.
	columnWidths []float32
}

// NewTreePane returns an empty pane for dimension d; SetView fills it.
func NewTreePane(d view.Dim) *TreePane {
	p := &TreePane{dim: d, rows: view.NewPaneRows(nil, d)}
	p.ChildUIDs = func(id string) []string { return p.rows.ChildIDs(id) }
	p.IsBranch = func(id string) bool {
		if p.view == nil {
			return id == ""
		}
		n := view.ParseNode(id)
		return !n.Valid() || p.view.IsBranch(p.dim, n)
	}
	p.CreateNode = func(bool) fyne.CanvasObject {
		r := newRowView()
		r.onHover = func(n view.Node, in bool) {
			if p.OnHover != nil {
				p.OnHover(n, in)
			}
		}
		r.onMenu = func(n view.Node, at fyne.Position) {
			if p.OnMenu != nil {
				p.OnMenu(n, at)
			}
		}
		r.onTap = p.tapped
		return r
	}
	p.UpdateNode = func(id string, _ bool, o fyne.CanvasObject) {
		if p.view == nil {
			return
		}
		w := p.valueWidth()
		o.(*rowView).colWidths = p.columnWidths
		o.(*rowView).set(p.view.Row(p.dim, view.ParseNode(id)), w, p.digitWidth)
	}
	p.OnSelected = func(id string) {
		if !p.quiet && p.OnSelect != nil {
			p.OnSelect(view.ParseNode(id))
		}
	}
	p.OnBranchOpened = func(id string) { p.expanded(id, true) }
	p.OnBranchClosed = func(id string) { p.expanded(id, false) }
	p.HideSeparators = true
	p.ExtendBaseWidget(p)
	return p
}

// valueWidth returns the width of the pane's value column: the widest
// value it can show, in the monospaced font.
func (p *TreePane) valueWidth() float32 {
	if p.digitWidth == 0 {
		p.digitWidth = fyne.MeasureText("0", theme.Size(theme.SizeNameText), fyne.TextStyle{Monospace: true}).Width
	}
	return float32(p.view.Values().ValueChars(p.dim)) * p.digitWidth
}

// contentWidth returns the width the pane's rows shown need: indentation,
// disclosure triangle, colour square, value column, badge and full label.
func (p *TreePane) contentWidth() float32 {
	if p.view == nil {
		return 0
	}
	pad, icon := theme.Size(theme.SizeNamePadding), theme.Size(theme.SizeNameInlineIcon)
	size := theme.Size(theme.SizeNameText)
	var widest float32
	for _, n := range p.VisibleRows() {
		r := p.view.Row(p.dim, n)
		w := float32(len(p.view.Ancestors(p.dim, n))+1)*(icon+pad) + swatchSize + rowGap + p.valueWidth() + rowGap +
			fyne.MeasureText(r.Label, size, fyne.TextStyle{}).Width
		if r.Marker != "" {
			w += fyne.MeasureText(r.Marker, size, fyne.TextStyle{Bold: true}).Width + 2*badgePad + rowGap
		}
		widest = max(widest, w)
	}
	return widest + 4*pad + theme.Size(theme.SizeNameScrollBar)
}

// contextRows is how many rows above and below a row scrolled to are
// brought into view with it.
const contextRows = 3

// Select selects the row id and scrolls it fully into view with
// contextRows rows of context above and below, where the pane is tall
// enough.
func (p *TreePane) Select(id string) {
	p.Tree.Select(id)
	p.ScrollTo(id)
}

// ScrollTo scrolls the row id into view with contextRows rows of context.
func (p *TreePane) ScrollTo(id string) {
	rows := p.VisibleRows()
	i := slices.IndexFunc(rows, func(n view.Node) bool { return n.ID() == id })
	if i < 0 {
		p.Tree.ScrollTo(id)
		return
	}
	// Each call scrolls as little as it can: below first, then above,
	// then the row itself wins if the pane is too short for both.
	p.Tree.ScrollTo(rows[min(i+contextRows, len(rows)-1)].ID())
	p.Tree.ScrollTo(rows[max(i-contextRows, 0)].ID())
	p.Tree.ScrollTo(id)
}

// tapped selects a clicked row and gives the pane the keyboard focus, as a
// click on a plain tree row does.
func (p *TreePane) tapped(n view.Node) {
	p.Select(n.ID())
	if c := fyne.CurrentApp().Driver().CanvasForObject(p); c != nil {
		c.Focus(p)
	}
}

func (p *TreePane) expanded(id string, open bool) {
	if !p.quiet && p.OnExpand != nil {
		p.OnExpand(view.ParseNode(id), open)
	}
}

// Dim returns the pane's dimension.
func (p *TreePane) Dim() view.Dim { return p.dim }

// SetView shows v, with its expanded nodes open and its selection selected.
func (p *TreePane) SetView(v *view.View) {
	p.view, p.rows = v, view.NewPaneRows(v, p.dim)
	p.quiet = true
	defer func() { p.quiet = false }()
	p.CloseAllBranches()
	p.UnselectAll()
	p.Sync()
}

// Sync makes the tree's open branches and selection follow the View
// (after the View changed by itself: flat profile, hottest path, find).
func (p *TreePane) Sync() {
	if p.view == nil {
		return
	}
	wasQuiet := p.quiet
	p.quiet = true
	defer func() { p.quiet = wasQuiet }()
	p.rows.Reset()
	opening := false
	p.rows.WalkExpanded(func(id string, expanded bool) {
		if expanded && !p.IsBranchOpen(id) {
			opening = true
		} else if !expanded && p.IsBranchOpen(id) {
			p.CloseBranch(id)
		}
	})
	if opening {
		p.openExpanded()
	}
	if s := p.view.Selected(p.dim); s.Valid() {
		p.Select(s.ID())
	}
	p.Refresh()
}

// openExpanded opens, in one pass over the tree, every branch the View
// has expanded below open rows. Tree.OpenBranch lays out every open row
// each time, so opening a path n deep one branch at a time costs n² (a
// hottest path 100,000 deep froze the window); Tree.OpenAllBranches
// opens, in one walk, the rows IsBranch calls branches, which here are
// just the expanded rows.
func (p *TreePane) openExpanded() {
	isBranch := p.IsBranch
	p.IsBranch = func(id string) bool {
		n := view.ParseNode(id)
		return !n.Valid() || p.view.Expanded(p.dim, n)
	}
	defer func() { p.IsBranch = isBranch }()
	p.OpenAllBranches()
}

// Reload drops cached children (after the sort order, the flat-profile
// switch or sorted values changed) and redraws the visible rows.
func (p *TreePane) Reload() {
	p.rows.Reset()
	p.Refresh()
}

// Reveal opens the ancestors of n and selects it, scrolling it into view.
func (p *TreePane) Reveal(n view.Node) {
	if p.view == nil || !n.Valid() {
		return
	}
	for _, a := range p.view.Ancestors(p.dim, n) {
		if !p.IsBranchOpen(a.ID()) {
			p.OpenBranch(a.ID())
		}
	}
	p.Select(n.ID())
}

// VisibleRows returns the rows currently shown (open branches followed), in order.
func (p *TreePane) VisibleRows() []view.Node { return p.rows.Visible(p.IsBranchOpen) }

// treeKeys are the keys a pane handles itself (view.Navigate); others
// go to the tree.
var treeKeys = map[fyne.KeyName]view.TreeKey{
	fyne.KeyUp: view.KeyUp, fyne.KeyDown: view.KeyDown,
	fyne.KeyHome: view.KeyHome, fyne.KeyEnd: view.KeyEnd,
	fyne.KeyPageUp: view.KeyPageUp, fyne.KeyPageDown: view.KeyPageDown,
	fyne.KeyRight: view.KeyRight, fyne.KeyPlus: view.KeyPlus, fyne.KeyEqual: view.KeyPlus,
	fyne.KeyLeft: view.KeyLeft, fyne.KeyMinus: view.KeyMinus,
}

// TypedKey moves the selection with the arrow keys, Home, End, Page Up and
// Page Down, and expands (Right, +) or collapses (Left, −) the selected node.
func (p *TreePane) TypedKey(ev *fyne.KeyEvent) {
	if k, ok := treeKeys[ev.Name]; ok {
		p.navigate(k)
	} else if p.view != nil {
		p.Tree.TypedKey(ev)
	}
}

// TypedRune handles + and − typed as characters.
func (p *TreePane) TypedRune(r rune) {
	switch r {
	case '+':
		p.navigate(view.KeyPlus)
	case '-':
		p.navigate(view.KeyMinus)
	}
}

// navigate does what the view says key does.
func (p *TreePane) navigate(key view.TreeKey) {
	if p.view == nil {
		return
	}
	open := func(n view.Node) bool { return p.IsBranchOpen(n.ID()) }
	a := view.Navigate(p.view, p.dim, p.VisibleRows(), open, key)
	switch {
	case a.Open.Valid():
		p.OpenBranch(a.Open.ID())
	case a.Close.Valid():
		p.CloseBranch(a.Close.ID())
	case a.Select.Valid():
		p.Select(a.Select.ID())
	}
}
