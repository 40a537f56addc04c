package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"cubeview/internal/printable"
	"cubeview/model"
	"cubeview/repo"
	"cubeview/repoview"
	"cubeview/view"
)

// repoWindow is File › Repository…: the experiment repository as an
// application → experiment → trial tree with attribute columns and a
// filter, the current trial's details and attributes, imports, searches
// and the marked trials as algebra operands. repoview computes what it
// shows; the repository is read and written off the UI goroutine.
type repoWindow struct {
	app *App
	win fyne.Window
	r   *repo.Repo
	b   *repoview.Browser

	filter    *widget.Entry
	filterMsg *widget.Label
	readOnly  *widget.Label
	table     *widget.Table
	summary   *widget.Label
	marked    *widget.Label
	buttons   map[repoview.Action]*widget.Button

	details   repoview.Details
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
	cancelImport  context.CancelFunc
	status        *widget.Label

	hits      *repoview.HitTable
	hitTitle  *widget.Label
	hitTable  *widget.Table
	hitSorted *sortedTable
	hitsBox   *fyne.Container
	split     *container.Split

	scaling    *scalingWindow // the last scaling study started here
	loads      int            // listings requested; only the latest is shown
	lastImport []repoview.ImportResult
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
	loc, err := a.RepositoryLocation()
	if err != nil {
		rw.fail(err)
		return
	}
	rw.setStatus("Opening the repository " + loc + " …")
	var r *repo.Repo
	var readOnly string
	a.async(func() {
		if r = a.repo; r == nil {
			if r, err = repo.Open(context.Background(), loc); err != nil {
				return
			}
		}
		var ro bool
		if ro, readOnly, err = r.ReadOnly(context.Background()); err == nil && !ro {
			readOnly = ""
		}
	}, func() {
		if err != nil {
			rw.fail(err)
			return
		}
		// The repository stays open while the program runs: trials
		// opened from it load their data lazily.
		a.repo = r
		rw.r = r
		rw.b.SetReadOnly(readOnly)
		if readOnly != "" {
			rw.readOnly.SetText("Read-only: " + readOnly + ". Import, Remove and attribute editing are disabled.")
			rw.readOnly.Show()
		}
		rw.win.SetTitle("cubeview — repository " + r.Name())
		rw.reload(0)
	})
}

func (a *App) newRepoWindow() *repoWindow {
	rw := &repoWindow{app: a, win: a.fy.NewWindow("cubeview — repository"), b: repoview.NewBrowser(), attrSel: -1,
		buttons: map[repoview.Action]*widget.Button{}}
	rw.build()
	rw.win.SetOnClosed(func() {
		if rw.cancelImport != nil {
			rw.cancelImport()
		}
		if a.repository == rw {
			a.repository = nil
		}
	})
	rw.win.Resize(fyne.NewSize(1400, 850))
	rw.win.Show()
	return rw
}

func (rw *repoWindow) build() {
	rw.filter = widget.NewEntry()
	rw.filter.SetPlaceHolder(`Filter, as "cubeview repo ls --where": app = lulesh and procs >= 64`)
	rw.filter.OnChanged = func(string) { rw.reload(0) }
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
		button(repoview.Difference, func() { rw.Compute(repoview.Difference) }),
		button(repoview.Merge, func() { rw.Compute(repoview.Merge) }),
		button(repoview.Mean, func() { rw.Compute(repoview.Mean) }),
		button(repoview.Scaling, rw.showScalingDialog),
		widget.NewSeparator(),
		button(repoview.Remove, rw.confirmRemove))
	top := container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Filter"), tools, rw.filter),
		rw.filterMsg, rw.readOnly)

	rw.table = widget.NewTableWithHeaders(rw.tableSize, rw.newCell, rw.updateCell)
	rw.table.ShowHeaderColumn = false
	rw.table.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	rw.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText(rw.columnTitle(id.Col))
	}
	rw.table.OnSelected = func(id widget.TableCellID) { rw.clickRow(id.Row) }

	rw.title = widget.NewLabelWithStyle("No trial selected", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	rw.title.Wrapping = fyne.TextWrapWord
	rw.fields = container.New(layout.NewFormLayout())
	rw.attrList = widget.NewList(func() int { return len(rw.details.Attrs) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(rw.details.Attrs) {
				a := rw.details.Attrs[i]
				o.(*widget.Label).SetText(a.Text + "   (" + a.Origin + ")")
			}
		})
	rw.attrList.OnSelected = func(i widget.ListItemID) { rw.attrSel = i; rw.updateButtons() }
	rw.attrList.OnUnselected = func(widget.ListItemID) { rw.attrSel = -1; rw.updateButtons() }
	rw.attrEntry = widget.NewEntry()
	rw.attrEntry.SetPlaceHolder("key=value (app=, experiment=, name= move or rename)")
	rw.attrEntry.OnSubmitted = func(string) { rw.submitAttr() }
	rw.attrSet = widget.NewButton("Set", rw.submitAttr)
	rw.attrRm = widget.NewButton("Remove attribute", func() {
		if rw.attrSel >= 0 && rw.attrSel < len(rw.details.Attrs) {
			rw.RemoveAttr(rw.details.Trial.ID, rw.details.Attrs[rw.attrSel].Key)
		}
	})
	attrHead := container.NewBorder(nil, nil, widget.NewLabelWithStyle("Attributes", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), rw.attrRm)
	attrEdit := container.NewBorder(nil, nil, nil, rw.attrSet, rw.attrEntry)
	detailsSplit := container.NewVSplit(container.NewVScroll(container.NewVBox(rw.title, rw.fields)),
		container.NewBorder(attrHead, attrEdit, nil, nil, rw.attrList))
	detailsSplit.SetOffset(0.55)
	detailsBox := detailsSplit

	main := container.NewHSplit(rw.table, detailsBox)
	main.SetOffset(0.66)
	rw.hitTitle = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	rw.hitTitle.Wrapping = fyne.TextWrapWord
	rw.hitSorted = newSortedTable(tableSource{
		rows: func() int { r, _ := rw.hitSize(); return r }, cols: repoview.HitColumns,
		title: func(c int) string {
			if rw.hits == nil {
				return ""
			}
			return rw.hits.Columns[c]
		},
		cell:     func(r, c int) string { return rw.hits.Rows[r][c] },
		key:      func(r, c int) view.SortKey { return rw.hits.SortKey(r, c) },
		numeric:  func(c int) bool { return rw.hits != nil && rw.hits.Numeric(c) },
		selected: rw.OpenHit,
	})
	rw.hitTable = rw.hitSorted.table
	for c, wd := range []float32{60, 330, 120, 80, 700} {
		rw.hitTable.SetColumnWidth(c, wd)
	}
	hint := widget.NewLabel("Click a hit to open its trial with the call path selected, a column's title to sort by it.")
	hint.Importance = widget.LowImportance
	rw.hitsBox = container.NewBorder(
		container.NewBorder(nil, nil, nil, widget.NewButton("Close", rw.closeHits), rw.hitTitle), hint, nil, nil, rw.hitTable)
	rw.split = container.NewVSplit(main, rw.hitsBox)
	rw.split.SetOffset(1)
	rw.hitsBox.Hide()

	rw.summary = widget.NewLabel("")
	rw.marked = widget.NewLabel("")
	rw.marked.Truncation = fyne.TextTruncateEllipsis
	rw.status = widget.NewLabel("")
	rw.status.Truncation = fyne.TextTruncateEllipsis
	rw.status.Importance = widget.LowImportance
	rw.progress = widget.NewProgressBar()
	rw.progressLabel = widget.NewLabel("")
	rw.busy = widget.NewProgressBarInfinite()
	rw.busy.Stop()
	rw.cancel = widget.NewButton("Cancel", func() {
		if rw.cancelImport != nil {
			rw.cancelImport()
		}
	})
	rw.progressBox = container.NewBorder(nil, nil, rw.progressLabel, rw.cancel, container.NewStack(rw.progress, rw.busy))
	rw.progressBox.Hide()
	bottom := container.NewVBox(rw.progressBox, container.NewBorder(nil, nil, rw.summary, nil, rw.marked), rw.status)
	rw.win.SetContent(container.NewBorder(top, bottom, nil, nil, rw.split))
	rw.updateButtons()
}

// showProgress shows the progress line: a bar that fills (an import,
// which can be cancelled) or one that only moves.
func (rw *repoWindow) showProgress(fills bool) {
	rw.progress.SetValue(0)
	if fills {
		rw.busy.Hide()
		rw.progress.Show()
		rw.cancel.Show()
	} else {
		rw.progress.Hide()
		rw.cancel.Hide()
		rw.busy.Show()
		rw.busy.Start()
	}
	rw.progressBox.Show()
}

func (rw *repoWindow) hideProgress() {
	rw.busy.Stop()
	rw.progressBox.Hide()
}

// fail shows why the repository cannot be used.
func (rw *repoWindow) fail(err error) {
	rw.setStatus("The repository could not be opened.")
	rw.showError(err)
}

func (rw *repoWindow) setStatus(s string) { rw.status.SetText(s) }

func (rw *repoWindow) showError(err error) {
	if rw.app.fatal != nil {
		rw.app.fatal(err)
		return
	}
	dialog.ShowError(err, rw.win)
}

// reload reads the listing of the filter in the background and shows it;
// current, if not 0, becomes the current trial.
func (rw *repoWindow) reload(current int64) {
	if rw.r == nil {
		return
	}
	rw.loads++
	n := rw.loads
	filter := rw.filter.Text
	var l repoview.Listing
	var err error
	rw.app.async(func() { l, err = repoview.Load(context.Background(), rw.r, filter) }, func() {
		if n != rw.loads {
			return // a newer filter was typed meanwhile
		}
		if err != nil {
			if err = rw.b.SetFilterError(err); err != nil {
				rw.showError(err)
			}
			msg, _ := rw.b.FilterProblem()
			rw.filterMsg.SetText(msg)
			rw.filterMsg.Show()
			return
		}
		rw.filterMsg.Hide()
		rw.b.SetListing(l)
		if current != 0 {
			rw.b.SetCurrent(current)
		}
		rw.table.UnselectAll()
		rw.layoutColumns()
		rw.table.Refresh()
		rw.summary.SetText(rw.b.Summary() + " ·")
		rw.setStatus("Repository " + rw.r.Name() + " (" + rw.r.Engine() + ")")
		rw.showDetails()
		rw.updateButtons()
	})
}

func (rw *repoWindow) tableSize() (int, int) { return len(rw.b.Rows()), 1 + len(rw.b.Columns()) }

func (rw *repoWindow) columnTitle(col int) string {
	if col == 0 {
		return "application / experiment / trial"
	}
	if cs := rw.b.Columns(); col-1 < len(cs) {
		return cs[col-1].Title
	}
	return ""
}

func (rw *repoWindow) layoutColumns() {
	rw.table.SetColumnWidth(0, 380)
	for i, c := range rw.b.Columns() {
		w := float32(90)
		switch c.Title {
		case "id":
			w = 50
		case "format":
			w = 170
		case "imported":
			w = 150
		}
		rw.table.SetColumnWidth(i+1, w)
	}
}

// newCell is a table cell: a check box and an indent (tree column only)
// and a label.
func (rw *repoWindow) newCell() fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	indent := canvas.NewRectangle(color.Transparent)
	return container.NewBorder(nil, nil, container.NewHBox(widget.NewCheck("", nil), indent), nil, l)
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
	if id.Col > 0 {
		left.Hide()
		text := ""
		if id.Col-1 < len(row.Cells) {
			text = row.Cells[id.Col-1]
		}
		label.SetText(text)
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
	label.SetText(row.TreeText())
}

// Mark marks or unmarks row i's trials as operands.
func (rw *repoWindow) Mark(i int, on bool) {
	rw.b.MarkRow(i, on)
	rw.table.Refresh()
	rw.updateButtons()
}

// clickRow opens or closes a group, or makes a trial current.
func (rw *repoWindow) clickRow(i int) {
	rows := rw.b.Rows()
	if i < 0 || i >= len(rows) {
		return
	}
	if rows[i].Kind != repoview.TrialRow {
		rw.b.Toggle(i)
		rw.table.UnselectAll()
		rw.table.Refresh()
		return
	}
	rw.b.SetCurrent(rows[i].Trial)
	rw.showDetails()
	rw.updateButtons()
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

// showDetails reads the current trial's details in the background.
func (rw *repoWindow) showDetails() {
	id := rw.b.Current()
	if id == 0 {
		rw.setDetails(repoview.Details{})
		return
	}
	var d repoview.Details
	var err error
	rw.app.async(func() { d, err = repoview.LoadDetails(context.Background(), rw.r, id) }, func() {
		if err != nil {
			rw.showError(err)
			return
		}
		if rw.b.Current() == id {
			rw.setDetails(d)
		}
	})
}

func (rw *repoWindow) setDetails(d repoview.Details) {
	rw.details = d
	rw.attrSel = -1
	rw.attrList.UnselectAll()
	rw.fields.Objects = nil
	if d.Trial.ID == 0 {
		rw.title.SetText("No trial selected")
	} else {
		rw.title.SetText(printable.String(d.Trial.Name))
	}
	for _, f := range d.Fields {
		v := widget.NewLabel(f.Value)
		v.Wrapping = fyne.TextWrapBreak
		rw.fields.Add(widget.NewLabelWithStyle(f.Name, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		rw.fields.Add(v)
	}
	rw.fields.Refresh()
	rw.attrList.Refresh()
	rw.updateButtons()
}

// updateButtons enables what can run; the marked line says why not.
func (rw *repoWindow) updateButtons() {
	for a, b := range rw.buttons {
		if ok, _ := rw.b.Enabled(a); ok && rw.r != nil && !(a == repoview.Import && rw.cancelImport != nil) {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	canSet, _ := rw.b.Enabled(repoview.SetAttribute)
	for _, b := range []*widget.Button{rw.attrSet, rw.attrRm} {
		if canSet && rw.details.Trial.ID != 0 && (b != rw.attrRm || rw.attrSel >= 0) {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if rw.b.ReadOnly() != "" {
		rw.attrEntry.Disable()
	} else {
		rw.attrEntry.Enable()
	}
	rw.marked.SetText(rw.b.MarkedText())
}

func (rw *repoWindow) submitAttr() {
	a, err := repoview.ParseAttr(rw.attrEntry.Text)
	if err != nil {
		rw.showError(err)
		return
	}
	if rw.details.Trial.ID == 0 {
		return
	}
	rw.SetAttr(rw.details.Trial.ID, a)
}

// SetAttr sets an attribute of trial id (app, experiment and name move or
// rename it) in the background.
func (rw *repoWindow) SetAttr(id int64, a model.Attr) {
	rw.change(fmt.Sprintf("Set %s of trial %d.", a.Key, id), id, func(ctx context.Context) error {
		return rw.r.SetAttrs(ctx, id, []model.Attr{a}, nil)
	}, func() { rw.attrEntry.SetText("") })
}

// RemoveAttr removes attribute key of trial id in the background.
func (rw *repoWindow) RemoveAttr(id int64, key string) {
	rw.change(fmt.Sprintf("Removed %s of trial %d.", printable.String(key), id), id, func(ctx context.Context) error {
		return rw.r.SetAttrs(ctx, id, nil, []string{key})
	}, nil)
}

// change runs a change of the repository in the background, then reloads
// the listing with current as the current trial.
func (rw *repoWindow) change(done string, current int64, f func(context.Context) error, then func()) {
	if ok, why := rw.b.Enabled(repoview.SetAttribute); !ok {
		rw.showError(errors.New(why))
		return
	}
	var err error
	rw.app.async(func() { err = f(context.Background()) }, func() {
		if err != nil {
			rw.showError(err)
			return
		}
		if then != nil {
			then()
		}
		rw.reload(current)
		rw.setStatus(done)
	})
}

func (rw *repoWindow) confirmRemove() {
	ids := rw.b.Targets()
	if len(ids) == 0 {
		return
	}
	var names []string
	for _, id := range ids {
		t, _ := rw.b.Trial(id)
		names = append(names, fmt.Sprintf("#%d %s", id, printable.String(t.Name)))
	}
	msg := fmt.Sprintf("Remove %d trial(s) from the repository?\n%s\nThis cannot be undone.", len(ids), joinLines(names, 10))
	dialog.ShowConfirm("Remove trials", msg, func(ok bool) {
		if ok {
			rw.Remove(ids...)
		}
	}, rw.win)
}

func joinLines(s []string, most int) string {
	out := ""
	for i, x := range s {
		if i == most {
			return out + fmt.Sprintf("… and %d more", len(s)-most)
		}
		out += x + "\n"
	}
	return out
}

// Remove removes trials (all or none) in the background.
func (rw *repoWindow) Remove(ids ...int64) {
	if ok, why := rw.b.Enabled(repoview.Remove); !ok {
		rw.showError(errors.New(why))
		return
	}
	var err error
	rw.app.async(func() { err = rw.r.Remove(context.Background(), ids...) }, func() {
		if err != nil {
			rw.showError(err)
			return
		}
		for _, id := range ids {
			rw.b.SetMarked(id, false)
		}
		rw.reload(0)
		rw.setStatus(fmt.Sprintf("Removed %d trial(s).", len(ids)))
	})
}

// trialRef is the reference of trial id, also the Path of its document.
func trialRef(id int64) string { return repo.RefPrefix + strconv.FormatInt(id, 10) }

// openDocument returns the open document of trial id, if any.
func (rw *repoWindow) openDocument(id int64) (*view.Doc, *Window) {
	for _, w := range rw.app.windows {
		if w.doc != nil && w.doc.Path == trialRef(id) {
			return w.doc, w
		}
	}
	return nil, nil
}

// readTrial reads trial id as a document; call it off the UI goroutine.
func (rw *repoWindow) readTrial(id int64) (*view.Doc, error) {
	ctx := context.Background()
	t, err := rw.r.Trial(ctx, id)
	if err != nil {
		return nil, err
	}
	e, err := rw.r.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	view.PrimeFirstMetric(e)
	return &view.Doc{Exp: e, Name: printable.String(t.Name) + " (" + trialRef(id) + ")", Path: trialRef(id)}, nil
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
	rw.setStatus(fmt.Sprintf("Opening trial %d …", id))
	var doc *view.Doc
	var err error
	rw.app.async(func() { doc, err = rw.readTrial(id) }, func() {
		if err != nil {
			rw.showError(err)
			return
		}
		rw.setStatus(fmt.Sprintf("Opened trial %d.", id))
		w := rw.app.Show(doc)
		if then != nil {
			then(w)
		}
	})
}

// Compute runs Difference, Merge or Mean of the marked trials (in the
// order they were marked) in the background; the result opens in a new
// window, like the Algebra menu's.
func (rw *repoWindow) Compute(a repoview.Action) {
	ids, err := rw.b.Operands(a)
	if err != nil {
		rw.showError(err)
		return
	}
	docs := make([]*view.Doc, len(ids))
	for i, id := range ids {
		docs[i], _ = rw.openDocument(id)
	}
	rw.progressLabel.SetText(fmt.Sprintf("Reading %d trials and computing their %s …", len(ids), a))
	rw.showProgress(false)
	var req view.Operation
	var res *model.Experiment
	rw.app.async(func() {
		for i, id := range ids {
			if docs[i] == nil {
				if docs[i], err = rw.readTrial(id); err != nil {
					return
				}
			}
		}
		req = view.Operation{Op: a.Op(), Operands: docs}
		res, err = req.Evaluate()
	}, func() {
		rw.hideProgress()
		if err != nil {
			rw.showError(fmt.Errorf("%s: %w", a, err))
			return
		}
		rw.app.Show(req.Result(res))
		rw.setStatus("Computed " + req.Name() + ".")
	})
}

// OpenHit opens the trial of search hit i with its metric and call path
// (or region) selected.
func (rw *repoWindow) OpenHit(i int) {
	t := rw.hits
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
	if rw.hits == nil {
		return 0, 0
	}
	return len(rw.hits.Rows), len(rw.hits.Columns)
}

func (rw *repoWindow) hitCell(id widget.TableCellID) string { return rw.hitSorted.Cell(id.Row, id.Col) }

// Search runs q in the background and lists its hits below the tree.
func (rw *repoWindow) Search(q repo.Query) {
	rw.setStatus("Searching " + repoview.Describe(q) + " …")
	var hits []repo.Hit
	var err error
	rw.app.async(func() { hits, err = rw.r.Find(context.Background(), q) }, func() {
		if err != nil {
			rw.setStatus("The search failed.")
			rw.showError(err)
			return
		}
		rw.hits = repoview.NewHitTable(q, hits, rw.app.numberFormat())
		rw.hitTitle.SetText(rw.hits.Title)
		rw.hitSorted.Reset()
		rw.hitTable.ScrollToTop()
		rw.hitsBox.Show()
		rw.split.SetOffset(0.5)
		rw.setStatus(rw.hits.Title)
	})
}

func (rw *repoWindow) closeHits() {
	rw.hits = nil
	rw.hitsBox.Hide()
	rw.split.SetOffset(1)
}
