package ui

import (
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/format"
	"cubeview/internal/timinglog"
	"cubeview/menu"
	"cubeview/numfmt"
	"cubeview/view"
)

// Window is one experiment's window: three tree panes with value-mode
// selectors, a colour legend, a find bar and a status line.
type Window struct {
	app  *App
	win  fyne.Window
	doc  *document.Doc
	view *view.View

	panes     [3]*TreePane
	titles    [3]*widget.Label
	modes     [3]*widget.Select
	infos     [3]*widget.Label
	flatCheck *widget.Check
	cols      columnsUI // the call pane's metric columns
	legend    *legend
	status    *widget.Label
	hint      *widget.Label
	note      *widget.Label // what the values rest on: view.NoteLine
	message   *widget.Label
	body      *fyne.Container // message or panes
	panesArea *fyne.Container // the panes, with an optional panel below
	panes3    fyne.CanvasObject
	listeners []func()

	active   view.Dim // the pane the user worked in last
	loading  bool
	reported map[string]bool
	ready    []func()

	find    findBar
	busy    busyIndicator
	menus   menus
	dialogs dialogs
	panels  panels
	splits  paneSplits
	state   windowState

	prefetching bool             // the selected metric's rows are being read ahead
	timing      timinglog.Window // the timing log's state of this window
}

// busyIndicator shows in place of the status line that work runs in
// the background: a text and a progress bar, until the last work ends.
type busyIndicator struct {
	count    int
	label    *widget.Label
	progress *widget.ProgressBarInfinite
	status   *widget.Label   // hidden while busy
	row      *fyne.Container // the status line or, while busy, what runs and a progress bar
}

// menus are the window's menu bar, context menus and key shortcuts, bound
// to the window's commands.
type menus struct{ w *Window }

// findBar is the find bar below the panes (View › Find).
type findBar struct {
	w     *Window
	box   *fyne.Container
	entry *widget.Entry
	info  *widget.Label
}

// dialogs opens the window's dialogs and carries out what they ask.
type dialogs struct{ w *Window }

// panels are the panels a window may show below its panes, one at a time.
type panels struct {
	w         *Window
	source    *sourcePanel    // nil until the source panel is first shown
	callGraph *callGraphPanel // nil until callers and callees are first shown
	perfDiff  *perfDiffPanel  // the last performance difference shown
	groups    *groupsPanel    // the last comparison of groups of runs shown
	stats     *statsPanel     // nil until the statistics are first shown
	scaling   *scalingWindow  // the last scaling study started here
	bottomUp  *bottomUpPanel  // nil until the bottom-up view is first shown
	locations *locationPanel  // nil until the per-location chart is first shown
	topology  *topologyPanel  // nil until the topology view is first shown
	clusters  *clustersPanel  // nil until the clusters of locations are first shown
}

// paneSplits divide the window's width between the panes: splits divide
// metric | call and call | system; fitted holds the offsets last set by
// fit, to tell when the user moved them.
type paneSplits struct {
	w      *Window
	splits [2]*container.Split
	fitted view.Split
}

func (a *App) newWindow() *Window {
	w := &Window{app: a, win: a.fy.NewWindow("cubeview"), reported: map[string]bool{}, active: view.CallPane}
	w.find.w, w.dialogs.w, w.panels.w, w.splits.w, w.menus.w, w.state.w = w, w, w, w, w, w
	a.windows = append(a.windows, w)
	w.build()
	w.win.SetOnClosed(func() {
		w.splits.remember()
		w.state.rememberSize()
		a.removeWindow(w)
	})
	w.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { w.dropped(uris) })
	size := view.WindowSize(view.WindowSizePref(a.prefs), screenSize(w.win))
	w.win.Resize(fyne.NewSize(float32(size.Width), float32(size.Height)))
	w.menus.rebuild()
	w.menus.addShortcuts()
	return w
}

// Fyne returns the Fyne window.
func (w *Window) Fyne() fyne.Window { return w.win }

// Document returns the experiment shown, or nil while none is.
func (w *Window) Document() *document.Doc { return w.doc }

// View returns the view state, or nil while no experiment is shown.
func (w *Window) View() *view.View { return w.view }

// Pane returns the tree pane of dimension d.
func (w *Window) Pane(d view.Dim) *TreePane { return w.panes[d] }

// Status returns the status line text.
func (w *Window) Status() string { return w.status.Text }

func (w *Window) build() {
	for d := view.MetricPane; d <= view.SystemPane; d++ {
		w.panes[d] = w.newPane(d)
		w.titles[d] = titleLabel(d.String())
		w.infos[d] = truncLabel("")
		w.modes[d] = w.newModeSelect(d)
	}
	w.flatCheck = widget.NewCheck("Flat profile", func(on bool) { w.SetFlat(on) })
	w.cols = columnsUI{w: w, head: newColumnHeader(w)}
	w.legend = newLegend()
	w.status = truncLabel("")
	w.hint = truncLabel("")
	w.hint.Importance = widget.LowImportance
	w.note = truncLabel("")
	w.note.Hide()
	b := &w.busy
	b.status = w.status
	b.progress = widget.NewProgressBarInfinite()
	b.progress.Stop()
	b.progress.Hide()
	b.label = truncLabel("")
	b.label.Hide()
	w.message = widget.NewLabel("")
	w.message.Wrapping = fyne.TextWrapWord
	w.message.Alignment = fyne.TextAlignCenter

	f := &w.find
	f.entry = widget.NewEntry()
	f.entry.SetPlaceHolder("Find (regular expression, case-insensitive)")
	f.entry.OnChanged = func(s string) { f.Find(s) }
	f.entry.OnSubmitted = func(string) { f.Next(1) }
	f.info = truncLabel("")
	f.box = container.NewBorder(nil, nil, nil,
		container.NewHBox(
			widget.NewButton("Previous", func() { f.Next(-1) }),
			widget.NewButton("Next", func() { f.Next(1) }),
			widget.NewButton("Close", f.Close)),
		container.NewGridWithColumns(2, f.entry, f.info))
	f.box.Hide()

	paneBox := func(d view.Dim) fyne.CanvasObject {
		// The mode selector takes the width the title leaves in the
		// narrow side panes, so that "Peer distribution" is not elided.
		head := container.NewBorder(nil, nil, w.titles[d], nil, w.modes[d])
		if d == view.CallPane {
			head = container.NewVBox(container.NewHBox(w.titles[d], w.modes[d], w.flatCheck), w.cols.head)
		}
		return container.NewBorder(head, w.infos[d], nil, nil, w.panes[d])
	}
	right := container.NewHSplit(paneBox(view.CallPane), paneBox(view.SystemPane))
	right.SetOffset(0.55)
	split := container.NewHSplit(paneBox(view.MetricPane), right)
	split.SetOffset(0.28)
	w.splits.splits = [2]*container.Split{split, right}
	w.panes3 = split
	w.panesArea = container.NewStack(split)
	// A VBox gives the wrapping message the full width.
	w.body = container.NewStack(w.panesArea, container.NewVBox(layout.NewSpacer(), w.message, layout.NewSpacer()))
	w.message.Hide()
	w.panesArea.Hide()

	// While busy, the status line's place tells what runs, beside a
	// progress bar of its own width: both elide, neither widens the window.
	progress := container.New(fixedWidth{200}, b.progress)
	b.row = container.NewBorder(nil, nil, nil, progress, container.NewStack(w.status, b.label))
	bottom := container.NewVBox(w.find.box, w.legend, w.note, b.row, w.hint)
	w.win.SetContent(container.NewBorder(nil, bottom, nil, nil, w.body))
}

func (w *Window) newPane(d view.Dim) *TreePane {
	p := NewTreePane(d)
	p.OnSelect = func(n view.Node) {
		if w.view == nil {
			return
		}
		w.active = d
		w.selectStarted()
		w.view.Select(d, n)
		w.refresh()
	}
	p.OnExpand = func(n view.Node, open bool) {
		if w.view == nil {
			return
		}
		w.view.SetExpanded(d, n, open)
		w.refresh()
		w.splits.refit()
	}
	p.OnHover = func(n view.Node, in bool) {
		if w.view == nil || !in {
			w.hint.SetText("")
			return
		}
		w.hint.SetText(w.view.Tooltip(n))
	}
	p.OnMenu = func(n view.Node, at fyne.Position) { w.menus.popUp(d, n, at) }
	return p
}

func (w *Window) newModeSelect(d view.Dim) *widget.Select {
	s := widget.NewSelect(view.ModeNames(d), func(name string) {
		if m, ok := view.ParseMode(d, name); ok {
			w.SetMode(d, m)
		}
	})
	s.SetSelectedIndex(0)
	return s
}

// SetMode sets pane d's value mode. External percent without a reference
// picks one (see defaultReference).
func (w *Window) SetMode(d view.Dim, m view.Mode) {
	if w.view == nil {
		return
	}
	if _, clustered := w.view.Clusters().Clustered(); m == view.ClusterMode && !clustered {
		defer w.panels.ShowClusters(true) // it clusters the locations
	}
	if w.view.Mode(d) == m {
		return
	}
	w.active = d
	w.view.SetMode(d, m)
	view.SavePaneModes(w.app.prefs, w.view)
	if m == view.ExternalPercent && w.view.Values().External() == nil {
		ref := w.defaultReference()
		if ref != nil {
			w.view.Values().SetExternal(ref.Exp)
		}
		w.hint.SetText(document.ExternalHint(ref))
		w.menus.rebuild()
	}
	if w.modes[d].Selected != m.String() {
		w.modes[d].SetSelected(m.String())
	}
	w.refresh()
	w.splits.refit() // the mode's name may need more width
}

func (w *Window) setDocument(doc *document.Doc) {
	w.doc = doc
	w.view = view.NewView(doc.Exp)
	w.view.Values().SelectedFirst().Set(true) // the other metrics' totals follow
	w.view.HotPath().SetThreshold(view.HotThresholdPref(w.app.prefs))
	w.view.SmallRows().SetThreshold(view.SmallRowsPref(w.app.prefs))
	w.view.Appearance().SetNumberFormat(view.NumberFormatPref(w.app.prefs))
	w.state.restoreModes()
	view.RestoreColumns(w.app.prefs, w.view)
	w.showDerived(doc)
	w.app.addDocument(doc)
	w.win.SetTitle(document.WindowTitle(doc))
	for d, p := range w.panes {
		p.SetView(w.view)
		w.modes[d].SetSelected(w.view.Mode(view.Dim(d)).String())
	}
	w.message.Hide()
	w.body.Objects[0].Show()
	w.menus.rebuild()
	w.whenReady(w.splits.fit)
	w.refresh()
	w.panels.showCallGraphDefaults()
	w.state.restorePanel()
	if f := w.app.onDocument; f != nil {
		f(w)
	}
}

func (w *Window) showMessage(text string) {
	w.message.SetText(text)
	w.message.Show()
	w.body.Objects[0].Hide()
	w.body.Refresh()
}

// refresh brings the panes up to date with the view: missing metric data
// are loaded in the background first, then the values are recomputed and
// the visible rows redrawn.
func (w *Window) refresh() {
	if w.view == nil || w.loading {
		return
	}
	if miss := w.view.Values().SelectedFirst().Missing(); len(miss) > 0 {
		w.load(miss, w.refresh)
		return
	}
	if err := w.view.Update(); err != nil {
		w.showError(err)
	}
	w.cols.sync()
	for _, p := range w.panes {
		if w.view.RowsFollowValues() {
			p.Reload()
		} else {
			p.Refresh()
		}
	}
	w.titles[view.CallPane].SetText(view.PaneTitle(view.CallPane, w.view.Flat()))
	for d := view.MetricPane; d <= view.SystemPane; d++ {
		w.infos[d].SetText(w.view.Values().PaneInfo(d, w.referenceName()))
	}
	w.legend.set(w.view)
	w.status.SetText(w.view.Explain(w.active))
	w.showNote()
	w.splits.remember()
	for _, f := range w.listeners {
		f()
	}
	if w.view.Values().SelectedFirst().Pending() {
		// The selected metric's values show; the other metrics' totals
		// are read now, and the window is complete after them.
		w.painted()
		w.load(w.view.Values().Missing(), func() {
			w.view.Values().SelectedFirst().Set(false) // from now on, complete values
			w.refresh()
		})
		return
	}
	ready := w.ready
	w.ready = nil
	for _, f := range ready {
		f()
	}
	w.painted()
	w.prefetch()
}

// prefetch reads the selected metric's rows in the background once its
// values are shown, so that selecting a call path later needs no reading.
func (w *Window) prefetch() {
	if w.prefetching || w.view == nil {
		return
	}
	refs := w.view.Values().Prefetch()
	if len(refs) == 0 {
		return
	}
	w.prefetching = true
	w.app.async(func() { view.ReadRows(refs) }, func() { w.prefetching = false })
}

// fit divides the window's width between the panes: the metric and
// system panes get what their rows need, within bounds, and the call pane
// the rest; a split the user chose is kept instead (view.SplitPref).
func (ps *paneSplits) fit() {
	w := ps.w
	if s, ok := view.SplitPref(w.app.prefs); ok {
		w.splits.set(s)
		return
	}
	need := func(d view.Dim) float64 { return float64(max(w.panes[d].contentWidth(), w.splits.headWidth(d))) }
	w.splits.set(view.FitSplitWithCall(float64(w.win.Canvas().Size().Width), need(view.MetricPane), need(view.SystemPane), float64(w.cols.need())))
}

// headWidth returns the width the title of pane d and the name of its
// value mode take.
func (ps *paneSplits) headWidth(d view.Dim) float32 {
	w := ps.w
	pad := theme.Size(theme.SizeNamePadding)
	text := fyne.MeasureText(w.modes[d].Selected, theme.Size(theme.SizeNameText), fyne.TextStyle{}).Width
	return w.titles[d].MinSize().Width + text + theme.Size(theme.SizeNameInlineIcon) + 8*pad
}

// current returns the offsets of the splits as they are now.
func (ps *paneSplits) current() view.Split {
	w := ps.w
	return view.Split{Outer: w.splits.splits[0].Offset, Inner: w.splits.splits[1].Offset}
}

// refit fits the panes again after rows were expanded or collapsed,
// unless the user has moved a split (in this window or for all windows).
func (ps *paneSplits) refit() {
	w := ps.w
	if w.splits.fitted != (view.Split{}) && !view.HasSplitPref(w.app.prefs) && w.splits.current().Near(w.splits.fitted) {
		w.splits.fit()
	}
}

// set moves the splits to s and remembers them as fitted.
func (ps *paneSplits) set(s view.Split) {
	w := ps.w
	w.splits.splits[0].SetOffset(s.Outer)
	w.splits.splits[1].SetOffset(s.Inner)
	w.splits.fitted = w.splits.current()
}

// remember saves the split when the user moved it.
func (ps *paneSplits) remember() {
	w := ps.w
	if w.splits.fitted == (view.Split{}) || w.splits.current().Near(w.splits.fitted) {
		return // not fitted yet, or not moved
	}
	w.splits.fitted = w.splits.current()
	view.SaveSplit(w.app.prefs, w.splits.fitted)
}

// load reads metric data in the background, showing progress, then calls then.
func (w *Window) load(refs []view.BlockRef, then func()) {
	w.loading = true
	w.busy.start("Loading " + view.Count(len(refs), "metric") + " …")
	w.app.async(func() { view.Read(refs) }, func() {
		w.loading = false
		w.busy.stop()
		then()
	})
}

// OnRefresh registers f to run after every refresh of the panes, when
// selections or values may have changed (for panels that follow them).
func (w *Window) OnRefresh(f func()) { w.listeners = append(w.listeners, f) }

// set places obj below the three panes in a resizable split; nil
// removes the panel.
func (pl *panels) set(obj fyne.CanvasObject) {
	w := pl.w
	if obj == nil {
		w.panesArea.Objects = []fyne.CanvasObject{w.panes3}
	} else {
		split := container.NewVSplit(w.panes3, obj)
		split.SetOffset(0.6)
		w.panesArea.Objects = []fyne.CanvasObject{split}
	}
	w.panesArea.Refresh()
}

// whenReady runs f once the window shows complete values.
func (w *Window) whenReady(f func()) { w.ready = append(w.ready, f) }

// start shows that work runs, saying what it does, in place of the
// status line.
func (b *busyIndicator) start(what string) {
	b.count++
	b.label.SetText(what)
	b.label.Show()
	b.status.Hide()
	b.progress.Show()
	b.progress.Start()
	b.row.Refresh()
}

// stop ends what start showed once the last work has ended.
func (b *busyIndicator) stop() {
	if b.count > 0 {
		b.count--
	}
	if b.count == 0 {
		b.progress.Stop()
		b.progress.Hide()
		b.label.Hide()
		b.status.Show()
		b.row.Refresh()
	}
}

// with is the view.Busy of the window: start, returning stop.
func (b *busyIndicator) with(what string) func() {
	b.start(what)
	return b.stop
}

// showError reports err in a dialog, once per distinct message.
func (w *Window) showError(err error) {
	if err == nil || w.reported[err.Error()] {
		return
	}
	w.reported[err.Error()] = true
	if w.app.fatal != nil {
		w.app.fatal(err)
		return
	}
	showErrorDialog(err, w.win)
}

// SetFlat switches the call pane between call tree and flat profile.
func (w *Window) SetFlat(on bool) {
	if w.view == nil || w.view.Flat() == on {
		return
	}
	w.view.SetFlat(on)
	w.view.Finder().Clear()
	w.flatCheck.SetChecked(on)
	w.panes[view.CallPane].SetView(w.view)
	w.menus.rebuild()
	w.refresh()
}

// SetOrder sets the sort order of all panes.
func (w *Window) SetOrder(o view.SortOrder) {
	view.SaveSortOrder(w.app.prefs, o)
	w.update(func(v *view.View) {
		v.SetOrder(o)
		for _, p := range w.panes {
			p.Reload()
		}
	})
}

// SetNumberStyle sets the number format to numfmt.Styles[i], keeping the
// decimals; the choice is remembered.
func (w *Window) SetNumberStyle(i int) {
	w.update(func(v *view.View) {
		v.Appearance().SetNumberStyle(i)
		view.SaveNumberFormat(w.app.prefs, v.Appearance().NumberFormat())
	})
}

// SetDecimals sets the number of decimals shown; it is remembered.
func (w *Window) SetDecimals(n int) {
	w.update(func(v *view.View) {
		v.Appearance().SetDecimals(n)
		view.SaveNumberFormat(w.app.prefs, v.Appearance().NumberFormat())
	})
}

// numberFormat returns the remembered number format (View › Numbers).
func (a *App) numberFormat() numfmt.Format { return view.NumberFormatPref(a.prefs) }

// SetHotThreshold sets the share of its parent's value a child must
// exceed for the hottest path to go on into it.
func (w *Window) SetHotThreshold(t float64) {
	w.update(func(v *view.View) {
		v.HotPath().SetThreshold(t)
		view.SaveHotThreshold(w.app.prefs, v.HotPath().Threshold())
	})
}

// update changes the view with f, if there is one, and shows the change
// in the menus and panes.
func (w *Window) update(f func(v *view.View)) {
	if w.view == nil {
		return
	}
	f(w.view)
	w.menus.rebuild()
	w.refresh()
}

// ExpandHottest expands the hottest path below the selected node of
// pane d (view.View.ExpandHottest), reading the values it follows first.
func (w *Window) ExpandHottest(d view.Dim) {
	v := w.view
	if v == nil || w.loading || !v.Selected(d).Valid() {
		return
	}
	if need := v.HotPath().Needs(d); len(need) > 0 {
		w.load(need, func() { w.ExpandHottest(d) })
		return
	}
	last, err := v.HotPath().Expand(d)
	if err != nil {
		w.showError(err)
	}
	w.active = d
	w.panes[d].Sync()
	w.refresh()
	w.panes[d].ScrollTo(last.ID())
}

// Show opens the find bar for the active pane.
func (fb *findBar) Show() {
	w := fb.w
	w.find.box.Show()
	w.win.Canvas().Focus(w.find.entry)
	if w.find.entry.Text != "" {
		w.find.Find(w.find.entry.Text)
	}
}

// Close hides the find bar and clears the marks.
func (fb *findBar) Close() {
	w := fb.w
	w.find.box.Hide()
	if w.view != nil {
		w.view.Finder().Clear()
		w.refresh()
	}
}

// Find marks the rows of the active pane matching pattern and moves to
// the first match.
func (fb *findBar) Find(pattern string) {
	w := fb.w
	if w.view == nil {
		return
	}
	if len(w.view.Finder().Find(w.active, pattern)) == 0 {
		w.find.info.SetText(view.FindMiss(w.active, pattern))
		w.refresh()
		return
	}
	w.find.Next(0)
}

// Next moves to the next (delta 1) or previous (−1) match.
func (fb *findBar) Next(delta int) {
	w := fb.w
	if w.view == nil {
		return
	}
	d, n, text, ok := w.view.Finder().Move(delta)
	if !ok {
		return
	}
	w.find.info.SetText(text)
	w.panes[d].Reveal(n)
	w.refresh()
}

// popUp shows the context menu of row n of pane d at a position.
func (m *menus) popUp(d view.Dim, n view.Node, at fyne.Position) {
	w := m.w
	if w.view == nil {
		return
	}
	w.active = d
	w.panes[d].Select(n.ID())
	items := fyneItems(menu.Row(w.view, d, n), w.menus.handlers(menu.State{}, d, n))
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), w.win.Canvas(), at)
}

// expandSubtree expands or collapses n and the branches below it.
func (w *Window) expandSubtree(d view.Dim, n view.Node, open bool) {
	view.ExpandSubtree(w.view, d, n, open)
	w.panes[d].Sync()
	w.refresh()
	w.splits.refit()
}

// rebuild sets the menu bar again after a change of what it offers.
func (m *menus) rebuild() {
	w := m.w
	w.win.SetMainMenu(w.menus.bar())
}

// bar returns the menu bar: menu.Bar bound to the handlers.
func (m *menus) bar() *fyne.MainMenu {
	w := m.w
	w.app.applyMemoryPreference() // menus are built before any metric's data are read
	st := menu.State{Doc: w.doc, Recent: w.app.Recent(), Others: document.Others(w.app.docs, w.doc),
		SourceShown: w.panels.SourceShown(), StatsShown: w.panels.StatsShown(), CallGraphShown: w.panels.CallGraphShown(),
		BottomUpShown: w.panels.BottomUpShown(), LocationsShown: w.panels.LocationsShown(),
		TopologyShown: w.panels.TopologyShown(), ClustersShown: w.panels.ClustersShown()}
	do := w.menus.handlers(st, w.active, view.Node{})
	var menus []*fyne.Menu
	for _, m := range menu.Bar(w.view, st) {
		menus = append(menus, fyne.NewMenu(m.Label, fyneItems(m.Items, do)...))
	}
	return fyne.NewMainMenu(menus...)
}

// fyneItems turns menu items into Fyne's, each calling the handler of
// its command with its argument.
func fyneItems(items []menu.Item, do map[menu.Command]func(arg int)) []*fyne.MenuItem {
	var out []*fyne.MenuItem
	for _, it := range items {
		if it.Separator {
			out = append(out, fyne.NewMenuItemSeparator())
			continue
		}
		f := fyne.NewMenuItem(it.Label, nil)
		if h := do[it.Command]; h != nil {
			f.Action = func() { h(it.Arg) }
		}
		f.Checked, f.Disabled = it.Checked, it.Disabled
		if k := it.Shortcut; k != nil {
			mod := fyne.KeyModifierShortcutDefault
			if k.Shift {
				mod |= fyne.KeyModifierShift
			}
			f.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyName(k.Key), Modifier: mod}
		}
		if len(it.Items) > 0 {
			f.ChildMenu = fyne.NewMenu("", fyneItems(it.Items, do)...)
		}
		out = append(out, f)
	}
	return out
}

// handlers binds the menus' commands; st is the state the menu was built
// in, d and n the pane and row of a context menu.
func (m *menus) handlers(st menu.State, d view.Dim, n view.Node) map[menu.Command]func(arg int) {
	w := m.w
	a := w.app
	clip := a.fy.Clipboard()
	return map[menu.Command]func(int){
		menu.CmdOpen:        func(int) { w.dialogs.openDialog() },
		menu.CmdOpenFolder:  func(int) { w.dialogs.openFolderDialog() },
		menu.CmdOpenRecent:  func(i int) { a.OpenFile(st.Recent[i], w) },
		menu.CmdRepository:  func(int) { a.ShowRepository() },
		menu.CmdSaveAs:      func(int) { w.dialogs.saveDialog() },
		menu.CmdProperties:  func(int) { w.dialogs.showProperties() },
		menu.CmdMemory:      func(int) { w.dialogs.showMemoryDialog() },
		menu.CmdClose:       func(int) { w.win.Close() },
		menu.CmdFlat:        func(int) { w.SetFlat(w.view != nil && !w.view.Flat()) },
		menu.CmdSort:        func(o int) { w.SetOrder(view.SortOrder(o)) },
		menu.CmdNumberStyle: w.SetNumberStyle,
		menu.CmdDecimals:    w.SetDecimals,
		menu.CmdHottest:     func(int) { w.ExpandHottest(w.active) },
		menu.CmdHotShare:    func(pc int) { w.SetHotThreshold(float64(pc) / 100) },
		menu.CmdSmallRows:   func(i int) { setSmallRows(w, menu.SmallShare(i)) },
		menu.CmdFind:        func(int) { w.find.Show() },
		menu.CmdFindNext:    func(int) { w.find.Next(1) },
		menu.CmdFindPrev:    func(int) { w.find.Next(-1) },
		menu.CmdColourRange: func(int) { w.dialogs.rangeDialog() },
		menu.CmdDiverging: func(int) {
			w.update(func(v *view.View) { v.Appearance().SetDiverging(!v.Appearance().Scale().Diverging) })
		},
		menu.CmdExternal:        func(i int) { w.setExternal(element(st.Others, i)) },
		menu.CmdReference:       func(int) { w.dialogs.showReferenceChooser() },
		menu.CmdSource:          func(int) { w.panels.ShowSource(!w.panels.SourceShown()); w.state.rememberPanel() },
		menu.CmdStats:           func(int) { w.panels.ShowStats(!w.panels.StatsShown()); w.state.rememberPanel() },
		menu.CmdClusters:        func(int) { w.panels.ShowClusters(!w.panels.ClustersShown()) },
		menu.CmdCallGraph:       func(int) { w.panels.ShowCallGraph(!w.panels.CallGraphShown()) },
		menu.CmdBottomUp:        func(int) { w.panels.ShowBottomUp(!w.panels.BottomUpShown()) },
		menu.CmdLocations:       func(int) { w.panels.ShowLocations(!w.panels.LocationsShown()) },
		menu.CmdTopology:        func(int) { w.panels.ShowTopology(!w.panels.TopologyShown()) },
		menu.CmdExportCSV:       func(int) { w.dialogs.exportCSV(w.menus.paneOf(d, n)) },
		menu.CmdExportPNG:       func(int) { w.dialogs.exportPanePNG(w.menus.paneOf(d, n)) },
		menu.CmdOpenURL:         func(int) { w.menus.openMetricURL(n) },
		menu.CmdDerived:         func(int) { w.dialogs.showDerivedDialog() },
		menu.CmdThresholds:      func(int) { w.dialogs.showThresholdsDialog() },
		menu.CmdOperation:       func(op int) { w.dialogs.showOperationDialog(algebra.Op(op)) },
		menu.CmdReroot:          func(int) { w.dialogs.reportCut(false) },
		menu.CmdPrune:           func(int) { w.dialogs.reportCut(true) },
		menu.CmdWhere:           func(int) { w.dialogs.showPerfDiffDialog() },
		menu.CmdGroups:          func(int) { w.dialogs.showGroupsDialog() },
		menu.CmdScaling:         func(int) { w.dialogs.showScalingDialog() },
		menu.CmdKeysHelp:        func(int) { dialog.ShowInformation("Keys and mouse", menu.KeysHelp, w.win) },
		menu.CmdAbout:           func(int) { dialog.ShowInformation("About cubeview", menu.About, w.win) },
		menu.CmdExpandSubtree:   func(int) { w.expandSubtree(d, n, true) },
		menu.CmdCollapseSubtree: func(int) { w.expandSubtree(d, n, false) },
		menu.CmdCopyValue:       func(int) { clip.SetContent(w.view.Values().Text(d, n)) },
		menu.CmdCopyName:        func(int) { clip.SetContent(w.view.Label(n)) },
		menu.CmdCopyDescription: func(int) { clip.SetContent(w.view.Tooltip(n)) },
		menu.CmdColumn:          func(m int) { w.cols.set(m, w.view != nil && !w.view.Columns().Has(m)) },
		menu.CmdNoColumn:        func(int) { w.cols.clear() },
	}
}

// element returns docs[i], or nil when i is out of range (None).
func element(docs []*document.Doc, i int) *document.Doc {
	if i < 0 || i >= len(docs) {
		return nil
	}
	return docs[i]
}

func (w *Window) setExternal(d *document.Doc) {
	w.update(func(v *view.View) { v.Values().SetExternal(d.Experiment()) })
}

// addShortcuts binds the keys that are no menu items' shortcuts.
func (m *menus) addShortcuts() {
	w := m.w
	c := w.win.Canvas()
	// F3 and Shift+F3 step through find matches, as in many browsers.
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyF3 {
			w.find.Next(1)
		}
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF3, Modifier: fyne.KeyModifierShift}, func(fyne.Shortcut) { w.find.Next(-1) })
}

// SaveAs writes the experiment to path in the background; the extension
// (.cubex, .cube, .cube.gz) picks the format.
func (w *Window) SaveAs(path string) {
	if w.doc == nil {
		return
	}
	exp := w.doc.Exp
	w.busy.start("Writing " + filepath.Base(path) + " …")
	var err error
	w.app.async(func() { err = format.Write(path, exp) }, func() {
		w.busy.stop()
		if err != nil {
			w.showError(fmt.Errorf("saving %s: %w", path, err))
			return
		}
		w.hint.SetText("Saved " + path)
		w.app.addRecent(path)
	})
}

// rangeDialog asks for the colour range of the active pane.
func (dl *dialogs) rangeDialog() {
	w := dl.w
	if w.view != nil {
		showForm(w.win, view.RangeForm(w.view, w.active, w.refresh), w.showError)
	}
}
