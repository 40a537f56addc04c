package ui

import (
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/view"
)

// clustersPanel lists, below the panes, the clusters of locations that
// analysisview.ClusterPanel found, in the colours the system pane's
// Clusters mode gives them; selecting one shows its members' sum or mean
// in the metric and call panes.
type clustersPanel struct {
	w       *Window
	m       analysisview.ClusterPanel
	shown   bool
	pending []func() // run when the clustering on its way is shown
	title   *widget.Label
	note    *widget.Label
	status  *widget.Label
	mean    *widget.RadioGroup
	list    *widget.List
	box     fyne.CanvasObject
}

func newClustersPanel(w *Window) *clustersPanel {
	p := &clustersPanel{w: w}
	p.m = analysisview.ClusterPanel{
		Run:     w.app.async,
		View:    func() *view.View { return w.view },
		Busy:    w.busy.start,
		Idle:    w.busy.stop,
		Show:    p.show,
		Message: p.message,
	}
	p.title = titleLabel("Clusters of locations")
	p.note = truncLabel("")
	p.note.Importance = widget.LowImportance
	p.status = truncLabel("")
	ks := []string{"auto"}
	for k := 1; k <= 8; k++ {
		ks = append(ks, strconv.Itoa(k))
	}
	k := widget.NewSelect(ks, func(s string) {
		n, _ := strconv.Atoi(s) // auto: 0
		if n != p.m.K {
			p.m.K = n
			p.m.Compute()
		}
	})
	k.SetSelected("auto")
	p.mean = widget.NewRadioGroup([]string{"Sum", "Mean"}, func(string) { p.selectRow(p.selectedRow()) })
	p.mean.Horizontal = true
	p.mean.SetSelected("Sum")
	again := widget.NewButton("Cluster by selected metric", p.m.Compute)
	all := widget.NewButton("All locations", func() { p.list.UnselectAll(); p.selectRow(-1) })
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowClusters(false) })
	p.list = widget.NewList(p.length, p.create, p.update)
	p.list.OnSelected = func(i widget.ListItemID) { p.selectRow(i) }
	controls := container.NewHBox(widget.NewLabel("k"), k, p.mean, all, again)
	head := container.NewBorder(nil, nil, nil, closeButton, container.NewVBox(p.title, controls))
	p.box = container.NewBorder(head, container.NewVBox(p.note, p.status), nil, nil, p.list)
	return p
}

func (p *clustersPanel) rows() []analysisview.ClusterRow {
	if rep := p.m.Report(); rep != nil {
		return rep.Rows
	}
	return nil
}

func (p *clustersPanel) length() int { return len(p.rows()) }

func (p *clustersPanel) create() fyne.CanvasObject {
	swatch := canvas.NewRectangle(view.ClusterColor(0))
	swatch.SetMinSize(fyne.NewSize(16, 16))
	label := widget.NewLabel("")
	label.TextStyle.Bold = true
	detail := truncLabel("")
	detail.Importance = widget.LowImportance
	return container.NewBorder(nil, nil, container.NewHBox(container.NewCenter(swatch), label), nil, detail)
}

func (p *clustersPanel) update(i widget.ListItemID, o fyne.CanvasObject) {
	rows := p.rows()
	if i >= len(rows) {
		return
	}
	c := o.(*fyne.Container)
	for _, obj := range c.Objects {
		switch x := obj.(type) {
		case *widget.Label:
			x.SetText(rows[i].Detail)
		case *fyne.Container: // swatch and label
			r := x.Objects[0].(*fyne.Container).Objects[0].(*canvas.Rectangle)
			r.FillColor = rows[i].Color
			r.Refresh()
			x.Objects[1].(*widget.Label).SetText(rows[i].Label)
		}
	}
}

// selectedRow returns the row of the cluster selected as a whole, -1
// for none.
func (p *clustersPanel) selectedRow() int {
	if p.w.view == nil {
		return -1
	}
	j, _ := p.w.view.Clusters().Selected()
	for i, r := range p.rows() {
		if j >= -1 && r.Cluster == j {
			return i
		}
	}
	return -1
}

// selectRow selects row i as a whole (-1: all locations) and refreshes
// the panes.
func (p *clustersPanel) selectRow(i int) {
	if err := p.m.Select(i, p.mean.Selected == "Mean"); err != nil {
		p.w.showError(err)
	}
	p.status.SetText(p.m.Status())
	p.w.refresh()
}

func (p *clustersPanel) show(rep *analysisview.ClusterReport) {
	p.title.SetText(rep.Title)
	p.note.SetText(rep.Note)
	p.status.SetText(p.m.Status())
	p.list.UnselectAll()
	p.list.Refresh()
	if p.w.view != nil && p.w.modes[view.SystemPane].Selected != view.ClusterMode.String() {
		p.w.modes[view.SystemPane].SetSelected(view.ClusterMode.String())
	}
	p.w.refresh()
	for _, f := range p.pending {
		f()
	}
	p.pending = nil
}

func (p *clustersPanel) message(text string) {
	p.note.SetText(text)
	for _, f := range p.pending {
		f()
	}
	p.pending = nil
}

// ClustersShown reports whether the clusters panel is shown.
func (pl *panels) ClustersShown() bool {
	return pl.clusters != nil && pl.clusters.shown && pl.shows(pl.clusters.box)
}

// ShowClusters shows (and computes, the first time or when the
// locations are not clustered) or hides the clusters panel.
func (pl *panels) ShowClusters(on bool) {
	w := pl.w
	if on == pl.ClustersShown() {
		return
	}
	if pl.clusters == nil {
		pl.clusters = newClustersPanel(w)
	}
	p := pl.clusters
	p.shown = on
	if !on {
		p.m.Drop()
		// The panes show all locations again, as nothing says otherwise.
		if err := p.m.Select(-1, false); err == nil {
			w.refresh()
		}
		pl.set(nil)
		w.menus.rebuild()
		return
	}
	pl.show(p.box, 0.55)
	if _, ok := w.view.Clusters().Clustered(); !ok || p.m.Report() == nil {
		p.m.Compute()
	}
}

// whenClustersIdle runs f once a clustering on its way is shown (at once
// when none is).
func (pl *panels) whenClustersIdle(f func()) {
	if pl.clusters == nil || !pl.clusters.shown || pl.clusters.m.Report() != nil {
		f()
		return
	}
	pl.clusters.pending = append(pl.clusters.pending, f)
}

// selectCluster selects cluster n (1, 2, …) as a whole in the clusters
// panel, for a snapshot; 0 selects none.
func (pl *panels) selectCluster(n int) error {
	p := pl.clusters
	if n == 0 || p == nil {
		return nil
	}
	for i, r := range p.rows() {
		if r.Cluster == n-1 {
			p.list.Select(i)
			return nil
		}
	}
	return fmt.Errorf("--select-cluster %d: the locations form %s", n, view.Count(len(p.rows()), "cluster"))
}
