package ui

import (
	"bytes"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/dialogform"
	"cubeview/view"
)

// bottomUpPanel shows, below the panes, the bottom-up view of the call
// tree for the selected metric (analysisview.BottomUp): every region, below it
// its callers with the region's values split by caller. Clicking a row
// selects its call path (or region) in the call pane.
type bottomUpPanel struct {
	w     *Window
	b     *analysisview.BottomUp
	title *widget.Label
	note  *widget.Label
	tree  *widget.Tree
	box   fyne.CanvasObject
	heads *fyne.Container // the value columns' titles
	colws columnWidths    // of the value columns, with metric columns
}

// bottomUpColumnWidth is the width of each value column.
const bottomUpColumnWidth = 120

func newBottomUpPanel(w *Window) *bottomUpPanel {
	p := &bottomUpPanel{w: w, title: truncLabel(""), note: noteLabel("")}
	p.title.TextStyle.Bold = true
	p.note.Hide()
	p.tree = widget.NewTree(p.childIDs, p.isBranch, p.newRow, p.updateRow)
	p.tree.OnSelected = func(id widget.TreeNodeID) {
		if p.b == nil {
			return
		}
		if n := p.b.Target(id); n.Valid() {
			w.selectNode(view.CallPane, n)
		}
	}
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowBottomUp(false) })
	export := widget.NewButtonWithIcon("Export CSV…", theme.DocumentSaveIcon(), p.exportCSV)
	buttons := container.NewHBox(export, closeButton)
	heads := container.New(fixedColumns{bottomUpColumnWidth})
	for _, c := range analysisview.BottomUpColumns {
		heads.Add(widget.NewLabelWithStyle(c, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
	}
	p.heads = heads
	columns := container.NewBorder(nil, nil, nil, heads, widget.NewLabelWithStyle("Region ← callers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	head := container.NewVBox(container.NewBorder(nil, nil, nil, buttons, p.title), p.note, columns)
	p.box = container.NewBorder(head, nil, nil, nil, p.tree)
	return p
}

func (p *bottomUpPanel) childIDs(id widget.TreeNodeID) []widget.TreeNodeID {
	if p.b == nil {
		return nil
	}
	return p.b.ChildIDs(id)
}

func (p *bottomUpPanel) isBranch(id widget.TreeNodeID) bool {
	return p.b != nil && p.b.IsBranch(id)
}

func (p *bottomUpPanel) newRow(bool) fyne.CanvasObject {
	values := container.New(fixedColumns{bottomUpColumnWidth})
	for range analysisview.BottomUpColumns {
		l := widget.NewLabel("")
		l.Alignment = fyne.TextAlignTrailing
		l.TextStyle.Monospace = true
		values.Add(l)
	}
	return container.NewBorder(nil, nil, newSwatch(), values, truncLabel(""))
}

func (p *bottomUpPanel) updateRow(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
	if p.b == nil {
		return
	}
	r := p.b.Row(id)
	c := o.(*fyne.Container)
	c.Objects[0].(*widget.Label).SetText(r.Label)
	c.Objects[1].(*swatch).set(r.Color, r.Relief)
	p.ensureValueLabels(c, len(r.Columns))
	for i, l := range c.Objects[2].(*fyne.Container).Objects {
		text := ""
		if i < len(r.Columns) {
			text = r.Columns[i]
		}
		l.(*widget.Label).SetText(text)
	}
}

// BottomUpShown reports whether the bottom-up view is shown.
func (pl *panels) BottomUpShown() bool {
	return pl.bottomUp != nil && pl.shows(pl.bottomUp.box)
}

// ShowBottomUp shows or hides the bottom-up view below the panes.
func (pl *panels) ShowBottomUp(on bool) {
	w := pl.w
	if on == pl.BottomUpShown() {
		return
	}
	if pl.bottomUp == nil {
		pl.bottomUp = newBottomUpPanel(w)
		w.OnRefresh(pl.bottomUp.follow)
	}
	if on {
		pl.show(pl.bottomUp.box, 0.5)
		pl.bottomUp.follow()
	} else {
		pl.set(nil)
	}
	w.menus.rebuild()
}

// follow shows the rows of the selected metric.
func (p *bottomUpPanel) follow() {
	w := p.w
	if w.view == nil || !w.panels.shows(p.box) {
		return
	}
	if p.b == nil || p.b.View() != w.view {
		p.b = analysisview.NewBottomUp(w.view)
	}
	changed := p.b.Sync()
	p.syncHeads()
	if !changed {
		p.tree.Refresh() // colours, number format and metric columns may have changed
		return
	}
	p.title.SetText(p.b.Title())
	p.note.SetText(p.b.Note())
	if p.b.Note() == "" {
		p.note.Hide()
	} else {
		p.note.Show()
	}
	p.tree.CloseAllBranches()
	p.tree.UnselectAll()
	p.tree.Refresh()
	p.tree.ScrollToTop()
}

// fixedColumns lays its objects out side by side, each the same width,
// so that the columns of a table's rows line up.
type fixedColumns struct{ width float32 }

func (l fixedColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(l.width*float32(len(objs)), h)
}

func (l fixedColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for i, o := range objs {
		o.Move(fyne.NewPos(float32(i)*l.width, 0))
		o.Resize(fyne.NewSize(l.width, size.Height))
	}
}

// visibleIDs returns the rows shown: the top rows and, below each open
// row, its callers, in order.
func (p *bottomUpPanel) visibleIDs() []string {
	var out []string
	var walk func(id string)
	walk = func(id string) {
		for _, c := range p.childIDs(id) {
			out = append(out, c)
			if p.tree.IsBranchOpen(c) {
				walk(c)
			}
		}
	}
	walk("")
	return out
}

// exportCSV asks where to write the rows shown as CSV.
func (p *bottomUpPanel) exportCSV() {
	w := p.w
	if p.b == nil || w.view == nil {
		return
	}
	ids := p.visibleIDs()
	b := p.b
	w.dialogs.export("the bottom-up view as CSV", dialogform.ExportName(w.doc, "bottom-up", ".csv"), []string{".csv"}, func(path string) {
		var buf bytes.Buffer
		if err := analysisview.BottomUpCSV(b, ids, &buf); err != nil {
			w.showError(err)
			return
		}
		w.dialogs.writeExport(path, buf.Bytes())
	})
}
