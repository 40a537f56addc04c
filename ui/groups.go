package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/dialogform"
	"cubeview/document"
)

// showGroupsDialog opens Algebra › Compare groups of runs… over the open
// experiments, this window's ticked in group A.
func (dl *dialogs) showGroupsDialog() {
	w := dl.w
	if w.doc == nil {
		return
	}
	showForm(w.win, dl.newGroupsForm().Form, w.showError)
}

// newGroupsForm returns Algebra › Compare groups of runs… over the open
// experiments; submitting compares in this window.
func (dl *dialogs) newGroupsForm() *analysisview.GroupsForm {
	w := dl.w
	run := func(r analysisview.GroupsRequest) { w.compareGroups(r) }
	f := analysisview.NewGroupsForm(w.app.Documents(), w.doc, dialogform.SelectedMetric(w.view), run)
	f.OfferOpen(w.dialogs.openDialogThen, func(then func(*document.Doc)) {
		w.dialogs.chooseFolder(func(path string) { w.app.openFile(path, w, then) })
	})
	return f
}

// compareGroups compares the groups of r in the background and shows the
// result list below this window's panes.
func (w *Window) compareGroups(r analysisview.GroupsRequest) {
	j := &analysisview.GroupsJob{GroupsRequest: r}
	j.Run(w.app.async, w.busy.with, w.view.Appearance().NumberFormat(), func(err error) {
		if err != nil {
			w.showError(err)
			return
		}
		w.panels.showGroups(j.Report)
	})
}

// groupsWidths are the widths of the columns of a comparison of groups.
var groupsWidths = [analysisview.GroupsColumns]float32{44, 150, 150, 110, 190, 80, 80, 70, 520}

// groupsPanel is the result list of a comparison of groups of runs.
type groupsPanel struct {
	rep    *analysisview.GroupsReport
	sorted *sortedTable
	hide   *widget.Check
}

// showGroups shows rep below the panes: significant rows in the text's
// colour, the others muted, a check box hiding them, the legend saying so.
func (pl *panels) showGroups(rep *analysisview.GroupsReport) {
	w := pl.w
	sorted := newSortedTable(tableSource{
		rows: rep.Len, cols: analysisview.GroupsColumns,
		title: rep.Header, cell: rep.Cell, key: rep.SortKey, numeric: rep.Numeric, muted: rep.Muted,
		path:     func(c int) bool { return c == analysisview.GroupsCallPath },
		selected: func(i int) { w.selectNodes(analysisview.GroupsNode(w.view, rep, i)) },
	})
	for i, width := range groupsWidths {
		sorted.table.SetColumnWidth(i, width)
	}
	head := widget.NewLabel(rep.Headline)
	head.Wrapping = fyne.TextWrapWord
	hide := significantFilter(rep.SetHideNotSignificant, sorted)
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.set(nil) })
	top := container.NewVBox(container.NewBorder(nil, nil, nil, closeButton, head), hide, noteLabel(rep.Legend))
	pl.groups = &groupsPanel{rep: rep, sorted: sorted, hide: hide}
	pl.show(container.NewBorder(top, nil, nil, nil, sorted.view()), 0.5)
}

// significantFilter returns the check box that hides the rows of sorted
// where groups of runs do not differ significantly: set leaves them out
// of the report or shows them again.
func significantFilter(set func(hide bool), sorted *sortedTable) *widget.Check {
	return widget.NewCheck("Only significant differences", func(on bool) {
		set(on)
		sorted.Reset()
	})
}
