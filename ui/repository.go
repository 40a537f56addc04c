package ui

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/repo"
	"cubeview/repoview"
)

// repoWindow is File › Repository…: the experiment repository as an
// application → experiment → trial tree with attribute columns and a
// filter, the current trial's details and attributes, imports, searches
// and the marked trials as algebra operands. repoview computes what it
// shows and its Controller reads and writes the repository off the UI
// goroutine; the window draws and routes events.
type repoWindow struct {
	app *App
	win fyne.Window
	c   *repoview.Controller
	b   *repoview.Browser

	filter    *widget.Entry
	filterMsg *widget.Label
	readOnly  *widget.Label
	table     *widget.Table
	summary   *widget.Label
	marked    *widget.Label
	buttons   map[repoview.Action]*widget.Button

	fields    *fyne.Container
	title     *widget.Label
	attrList  *widget.List
	attrSel   int
	attrEntry *widget.Entry
	attrSet   *widget.Button
	attrRm    *widget.Button

	progress      *widget.ProgressBar
	busy          *widget.ProgressBarInfinite
	progressLabel *widget.Label
	progressBox   *fyne.Container
	cancel        *widget.Button
	status        *widget.Label

	hitTitle  *widget.Label
	hitTable  *widget.Table
	hitSorted *sortedTable
	hitsBox   *fyne.Container
	split     *container.Split

	scaling *scalingWindow // the last scaling study started here
}

// RepositoryLocation returns where the repository window reads: the
// --repo location the program was given, else $CUBEVIEW_REPO or the
// default (repo.DefaultLocation).
func (a *App) RepositoryLocation() (string, error) {
	if a.repoLocation != "" {
		return a.repoLocation, nil
	}
	return repo.DefaultLocation()
}

// ShowRepository opens the repository window, or raises it when it is
// open. The repository is opened (created when new) in the background.
func (a *App) ShowRepository() {
	if rw := a.repository; rw != nil {
		rw.win.RequestFocus()
		return
	}
	rw := a.newRepoWindow()
	a.repository = rw
	if loc, err := a.RepositoryLocation(); err != nil {
		rw.c.Fail(err)
	} else {
		rw.c.Open(loc, a.repo)
	}
}

func (a *App) newRepoWindow() *repoWindow {
	rw := &repoWindow{app: a, win: a.fy.NewWindow("cubeview — repository"), attrSel: -1,
		buttons: map[repoview.Action]*widget.Button{}}
	rw.c = repoview.NewController(func(work, done func()) { a.async(work, done) }, fyne.Do, repoview.Events{
		Status: rw.setStatus, Error: rw.showError, Opened: rw.opened, Listing: rw.listed,
		FilterProblem: rw.showFilterProblem, Details: rw.showDetails, Changed: rw.changed, Progress: rw.showProgress,
		Hits: rw.showHits, Doc: rw.openDoc, Show: func(d *document.Doc) { a.Show(d) },
		Imported: rw.imported, Format: a.numberFormat, Groups: rw.showGroups,
		Scaling: func(rep *analysisview.ScalingReport, img image.Image, docs []*document.Doc) {
			rw.scaling = a.showScaling(rep, img, docs)
		},
	})
	rw.b = rw.c.B
	rw.build()
	rw.win.SetOnClosed(func() {
		rw.c.CancelImport()
		if a.repository == rw {
			a.repository = nil
		}
	})
	rw.win.Resize(fyne.NewSize(1400, 850))
	rw.win.Show()
	return rw
}

// opened shows the open repository r, which stays open while the program
// runs: trials opened from it load their data lazily.
func (rw *repoWindow) opened(r *repo.Repo) {
	rw.app.repo = r
	if note := rw.c.ReadOnlyNote(); note != "" {
		rw.readOnly.SetText(note)
		rw.readOnly.Show()
	}
	rw.win.SetTitle(rw.c.Title())
}

func (rw *repoWindow) build() {
	rw.filter = widget.NewEntry()
	rw.filter.SetPlaceHolder(`Filter, as "cubeview repo ls --where": app = lulesh and procs >= 64`)
	rw.filter.OnChanged = rw.c.SetFilter
	rw.filter.OnSubmitted = func(string) {
		if _, col := rw.b.FilterProblem(); col > 0 {
			rw.filter.CursorColumn = col - 1
			rw.filter.Refresh()
		}
	}
	rw.filterMsg = widget.NewLabel("")
	rw.filterMsg.Importance = widget.DangerImportance
	rw.filterMsg.Hide()
	rw.readOnly = widget.NewLabel("")
	rw.readOnly.Importance = widget.WarningImportance
	rw.readOnly.Wrapping = fyne.TextWrapWord
	rw.readOnly.Hide()

	button := func(a repoview.Action, f func()) *widget.Button {
		b := widget.NewButton(a.String(), f)
		rw.buttons[a] = b
		return b
	}
	tools := container.NewHBox(
		button(repoview.Import, rw.showImportDialog),
		button(repoview.Search, rw.showSearchDialog),
		widget.NewSeparator(),
		button(repoview.Open, func() { rw.Open() }),
		button(repoview.Difference, func() { rw.c.Compute(repoview.Difference) }),
		button(repoview.Merge, func() { rw.c.Compute(repoview.Merge) }),
		button(repoview.Mean, func() { rw.c.Compute(repoview.Mean) }),
		button(repoview.Scaling, rw.showScalingDialog),
		button(repoview.CompareGroups, rw.showGroupsDialog),
		widget.NewSeparator(),
		button(repoview.Remove, rw.confirmRemove))
	top := container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Filter"), tools, rw.filter),
		rw.filterMsg, rw.readOnly)

	rw.table = widget.NewTableWithHeaders(rw.b.TableSize, rw.newCell, rw.updateCell)
	rw.table.ShowHeaderColumn = false
	rw.table.CreateHeader = func() fyne.CanvasObject {
		l := titleLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	rw.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText(rw.b.ColumnTitle(id.Col))
	}
	rw.table.OnSelected = func(id widget.TableCellID) { rw.clickRow(id.Row) }

	rw.title = titleLabel("No trial selected")
	rw.title.Wrapping = fyne.TextWrapWord
	rw.fields = container.New(layout.NewFormLayout())
	rw.attrList = widget.NewList(func() int { return len(rw.c.Details().Attrs) }, func() fyne.CanvasObject { return truncLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if as := rw.c.Details().Attrs; i < len(as) {
				o.(*widget.Label).SetText(as[i].Line())
			}
		})
	rw.attrList.OnSelected = func(i widget.ListItemID) { rw.attrSel = i; rw.changed() }
	rw.attrList.OnUnselected = func(widget.ListItemID) { rw.attrSel = -1; rw.changed() }
	rw.attrEntry = widget.NewEntry()
	rw.attrEntry.SetPlaceHolder("key=value (app=, experiment=, name= move or rename)")
	rw.attrEntry.OnSubmitted = func(string) { rw.submitAttr() }
	rw.attrSet = widget.NewButton("Set", rw.submitAttr)
	rw.attrRm = widget.NewButton("Remove attribute", func() {
		if d := rw.c.Details(); rw.attrSel >= 0 && rw.attrSel < len(d.Attrs) {
			rw.c.RemoveAttr(d.Trial.ID, d.Attrs[rw.attrSel].Key)
		}
	})
	attrHead := container.NewBorder(nil, nil, titleLabel("Attributes"), rw.attrRm)
	attrEdit := container.NewBorder(nil, nil, nil, rw.attrSet, rw.attrEntry)
	detailsSplit := container.NewVSplit(container.NewVScroll(container.NewVBox(rw.title, rw.fields)),
		container.NewBorder(attrHead, attrEdit, nil, nil, rw.attrList))
	detailsSplit.SetOffset(0.55)
	main := container.NewHSplit(rw.table, detailsSplit)
	main.SetOffset(0.66)
	rw.hitTitle = titleLabel("")
	rw.hitTitle.Wrapping = fyne.TextWrapWord
	rw.hitSorted = newSortedTable(tableSource{
		rows: func() int { r, _ := rw.hitSize(); return r }, cols: repoview.HitColumns,
		title:    func(c int) string { return rw.c.Hits().Column(c) },
		cell:     func(r, c int) string { return rw.c.Hits().Rows[r][c] },
		key:      func(r, c int) analysisview.SortKey { return rw.c.Hits().SortKey(r, c) },
		numeric:  func(c int) bool { return rw.c.Hits().Numeric(c) },
		selected: rw.OpenHit,
		path:     func(c int) bool { return c == 1 || c == 4 }, // trial names and call paths
	})
	rw.hitTable = rw.hitSorted.table
	for c, wd := range []float32{60, 330, 120, 80, 700} {
		rw.hitTable.SetColumnWidth(c, wd)
	}
	hint := widget.NewLabel("Click a hit to open its trial with the call path selected, a column's title to sort by it.")
	hint.Importance = widget.LowImportance
	rw.hitsBox = container.NewBorder(
		container.NewBorder(nil, nil, nil, widget.NewButton("Close", rw.closeHits), rw.hitTitle), hint, nil, nil, rw.hitSorted.view())
	rw.split = container.NewVSplit(main, rw.hitsBox)
	rw.split.SetOffset(1)
	rw.hitsBox.Hide()

	rw.summary = widget.NewLabel("")
	rw.marked = truncLabel("")
	rw.status = truncLabel("")
	rw.status.Importance = widget.LowImportance
	rw.progress = widget.NewProgressBar()
	rw.progressLabel = widget.NewLabel("")
	rw.busy = widget.NewProgressBarInfinite()
	rw.busy.Stop()
	rw.cancel = widget.NewButton("Cancel", rw.c.CancelImport)
	rw.progressBox = container.NewBorder(nil, nil, rw.progressLabel, rw.cancel, container.NewStack(rw.progress, rw.busy))
	rw.progressBox.Hide()
	bottom := container.NewVBox(rw.progressBox, container.NewBorder(nil, nil, rw.summary, nil, rw.marked), rw.status)
	rw.win.SetContent(container.NewBorder(top, bottom, nil, nil, rw.split))
	rw.changed()
}

// showProgress shows the progress line p: a bar that fills (an import,
// which can be cancelled) or one that only moves; or hides it.
func (rw *repoWindow) showProgress(p repoview.Progress) {
	switch {
	case !p.Shown:
		rw.busy.Stop()
		rw.progressBox.Hide()
		return
	case p.Fills:
		rw.busy.Hide()
		rw.progress.Show()
		rw.cancel.Show()
	default:
		rw.progress.Hide()
		rw.cancel.Hide()
		rw.busy.Show()
		rw.busy.Start()
	}
	rw.progress.SetValue(p.Fraction)
	rw.progressLabel.SetText(p.Text)
	rw.progressBox.Show()
}

func (rw *repoWindow) setStatus(s string) { rw.status.SetText(s) }

func (rw *repoWindow) showError(err error) {
	if rw.app.fatal != nil {
		rw.app.fatal(err)
		return
	}
	showErrorDialog(err, rw.win)
}

// showFilterProblem shows what is wrong with the filter, or hides it.
func (rw *repoWindow) showFilterProblem(msg string) {
	rw.filterMsg.SetText(msg)
	rw.filterMsg.Hidden = msg == ""
	rw.filterMsg.Refresh()
}

// listed shows a new listing.
func (rw *repoWindow) listed() {
	rw.table.UnselectAll()
	rw.layoutColumns()
	rw.table.Refresh()
	rw.summary.SetText(rw.b.Summary() + " ·")
}

// imported shows the summary of an import that ended.
func (rw *repoWindow) imported(summary string) {
	if rw.app.fatal == nil {
		dialog.ShowInformation("Import", summary, rw.win)
	}
}

func (rw *repoWindow) layoutColumns() {
	_, cols := rw.b.TableSize()
	for c := range cols {
		rw.table.SetColumnWidth(c, rw.b.ColumnWidth(c))
	}
}

// newCell is a table cell: a check box and an indent (tree column only)
// and a label.
func (rw *repoWindow) newCell() fyne.CanvasObject {
	indent := canvas.NewRectangle(color.Transparent)
	return container.NewBorder(nil, nil, container.NewHBox(widget.NewCheck("", nil), indent), nil, truncLabel(""))
}

// treeIndent is the indent of one tree level.
const treeIndent = 22

func (rw *repoWindow) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*fyne.Container)
	left := c.Objects[1].(*fyne.Container)
	label, check, indent := c.Objects[0].(*widget.Label), left.Objects[0].(*widget.Check), left.Objects[1].(*canvas.Rectangle)
	rows := rw.b.Rows()
	if id.Row < 0 || id.Row >= len(rows) {
		return
	}
	row := rows[id.Row]
	label.TextStyle.Bold = row.Kind != repoview.TrialRow
	label.SetText(rw.b.CellText(id.Row, id.Col))
	if id.Col > 0 {
		left.Hide()
		return
	}
	left.Show()
	indent.SetMinSize(fyne.NewSize(float32(row.Depth*treeIndent), 1))
	check.OnChanged = nil
	mark := rw.b.RowMark(id.Row)
	check.SetChecked(mark == repoview.Marked)
	if mark == repoview.PartlyMarked {
		check.Partial = true
		check.Refresh()
	}
	i := id.Row
	check.OnChanged = func(on bool) { rw.Mark(i, on) }
}

// Mark marks or unmarks row i's trials as operands.
func (rw *repoWindow) Mark(i int, on bool) {
	rw.b.MarkRow(i, on)
	rw.table.Refresh()
	rw.changed()
}

// clickRow opens or closes a group, or makes a trial current.
func (rw *repoWindow) clickRow(i int) {
	if rw.c.Click(i) {
		rw.table.UnselectAll()
		rw.table.Refresh()
	}
}

// SelectTrial makes trial id current, as a click on its row does.
func (rw *repoWindow) SelectTrial(id int64) bool {
	i := rw.b.RowOf(id)
	if i < 0 {
		return false
	}
	rw.table.Select(widget.TableCellID{Row: i, Col: 0})
	return rw.b.Current() == id
}

// showDetails shows the current trial's details.
func (rw *repoWindow) showDetails() {
	d := rw.c.Details()
	rw.attrSel = -1
	rw.attrList.UnselectAll()
	rw.title.SetText(d.Title())
	rw.fields.Objects = nil
	for _, f := range d.Fields {
		v := widget.NewLabel(f.Value)
		v.Wrapping = fyne.TextWrapBreak
		rw.fields.Add(widget.NewLabelWithStyle(f.Name, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		rw.fields.Add(v)
	}
	rw.fields.Refresh()
	rw.attrList.Refresh()
	rw.changed()
}

// changed shows what can run now; the marked line says why not.
func (rw *repoWindow) changed() {
	for a, b := range rw.buttons {
		enable(b, rw.c.Enabled(a))
	}
	enable(rw.attrSet, rw.c.CanEditAttrs())
	enable(rw.attrRm, rw.c.CanEditAttrs() && rw.attrSel >= 0)
	enable(rw.attrEntry, rw.b.ReadOnly() == "")
	rw.marked.SetText(rw.b.MarkedText())
}

// enable enables or disables w.
func enable(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

// submitAttr sets the attribute typed on the current trial.
func (rw *repoWindow) submitAttr() {
	rw.c.SubmitAttr(rw.attrEntry.Text, func() { rw.attrEntry.SetText("") })
}

// confirmRemove asks before it removes the target trials.
func (rw *repoWindow) confirmRemove() {
	ids, question := rw.c.RemoveQuestion()
	if len(ids) == 0 {
		return
	}
	dialog.ShowConfirm("Remove trials", question, func(ok bool) {
		if ok {
			rw.c.Remove(ids...)
		}
	}, rw.win)
}

// openDoc returns the open document of trial id, nil if none.
func (rw *repoWindow) openDoc(id int64) *document.Doc {
	d, _ := rw.openDocument(id)
	return d
}

// openDocument returns the open document of trial id and its window, if
// any.
func (rw *repoWindow) openDocument(id int64) (*document.Doc, *Window) {
	for _, w := range rw.app.windows {
		if w.doc != nil && w.doc.Path == repoview.TrialRef(id) {
			return w.doc, w
		}
	}
	return nil, nil
}

// Open opens each target trial in its own window (raising windows that
// show it already).
func (rw *repoWindow) Open() {
	for _, id := range rw.b.Targets() {
		rw.OpenTrial(id, nil)
	}
}

// OpenTrial shows trial id in a window, reading it in the background
// unless a window shows it, and then calls then with the window.
func (rw *repoWindow) OpenTrial(id int64, then func(*Window)) {
	if _, w := rw.openDocument(id); w != nil {
		w.win.RequestFocus()
		if then != nil {
			then(w)
		}
		return
	}
	rw.c.OpenTrial(id, func(doc *document.Doc) {
		w := rw.app.Show(doc)
		if then != nil {
			then(w)
		}
	})
}

// OpenHit opens the trial of search hit i with its metric and call path
// (or region) selected.
func (rw *repoWindow) OpenHit(i int) {
	t := rw.c.Hits()
	if t == nil || i < 0 || i >= len(t.Hits) {
		return
	}
	rw.OpenTrial(t.Hits[i].Trial, func(w *Window) {
		sel, err := t.Selection(i, w.doc.Exp)
		if err != nil {
			rw.showError(err)
			return
		}
		w.SetFlat(sel.Flat)
		w.selectNodes(sel.Nodes...)
	})
}

func (rw *repoWindow) hitSize() (int, int) {
	if h := rw.c.Hits(); h != nil {
		return len(h.Rows), len(h.Columns)
	}
	return 0, 0
}

func (rw *repoWindow) hitCell(id widget.TableCellID) string { return rw.hitSorted.Cell(id.Row, id.Col) }

// showHits lists a search's hits below the tree.
func (rw *repoWindow) showHits(h *repoview.HitTable) {
	rw.hitTitle.SetText(h.Title)
	rw.hitSorted.Reset()
	rw.hitTable.ScrollToTop()
	rw.hitsBox.Show()
	rw.split.SetOffset(0.5)
}

func (rw *repoWindow) closeHits() {
	rw.c.CloseHits()
	rw.hitsBox.Hide()
	rw.split.SetOffset(1)
}

// showImportDialog shows the Import… dialog (repoview.ImportForm).
func (rw *repoWindow) showImportDialog() {
	showForm(rw.win, rw.c.ImportForm(rw.pickPath).Form, rw.showError)
}

// pickPath asks for a file (or a folder) and passes its path to add.
func (rw *repoWindow) pickPath(folder bool, add func(path string)) {
	pickPath(rw.win, folder, "", add, rw.showError)
}

// showSearchDialog shows the Search… dialog (repoview.SearchForm).
func (rw *repoWindow) showSearchDialog() { showForm(rw.win, rw.c.SearchForm().Form, rw.showError) }

// showScalingDialog shows the Scaling… dialog (repoview.ScalingForm).
func (rw *repoWindow) showScalingDialog() { showForm(rw.win, rw.c.ScalingForm().Form, rw.showError) }
