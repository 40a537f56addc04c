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
	"cubeview/format"
	"cubeview/internal/timinglog"
	"cubeview/numfmt"
	"cubeview/view"
)

// Window is one experiment's window: three tree panes with value-mode
// selectors, a colour legend, a find bar and a status line.
type Window struct {
	app  *App
	win  fyne.Window
	doc  *view.Doc
	view *view.View

	panes     [3]*TreePane
	titles    [3]*widget.Label
	modes     [3]*widget.Select
	infos     [3]*widget.Label
	flatCheck *widget.Check
	legend    *legend
	status    *widget.Label
	hint      *widget.Label
	progress  *widget.ProgressBarInfinite
	busyLabel *widget.Label
	message   *widget.Label
	body      *fyne.Container // message or panes
	panesArea *fyne.Container // the panes, with an optional panel below
	panes3    fyne.CanvasObject
	listeners []func()

	findBar   *fyne.Container
	findEntry *widget.Entry
	findInfo  *widget.Label

	active   view.Dim // the pane the user worked in last
	busy     int
	loading  bool
	reported map[string]bool
	ready    []func()

	source         *sourcePanel    // nil until the source panel is first shown
	analysisPanels                 // perfdiff result list, statistics
	callGraph      *callGraphPanel // nil until callers and callees are first shown

	prefetching bool             // the selected metric's rows are being read ahead
	timing      timinglog.Window // the timing log's state of this window

	// splits divide metric | call and call | system; fitted holds the
	// offsets last set by fitPanes, to tell when the user moved them.
	splits [2]*container.Split
	fitted view.Split
}

func (a *App) newWindow() *Window {
	w := &Window{app: a, win: a.fy.NewWindow("cubeview"), reported: map[string]bool{}, active: view.CallPane}
	a.windows = append(a.windows, w)
	w.build()
	w.win.SetOnClosed(func() {
		w.rememberSplit()
		a.removeWindow(w)
	})
	w.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { w.dropped(uris) })
	w.win.Resize(fyne.NewSize(1280, 800))
	w.rebuildMenu()
	w.addShortcuts()
	return w
}

// Fyne returns the Fyne window.
func (w *Window) Fyne() fyne.Window { return w.win }

// Document returns the experiment shown, or nil while none is.
func (w *Window) Document() *view.Doc { return w.doc }

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
	w.legend = newLegend()
	w.status = truncLabel("")
	w.hint = truncLabel("")
	w.hint.Importance = widget.LowImportance
	w.progress = widget.NewProgressBarInfinite()
	w.progress.Stop()
	w.progress.Hide()
	w.busyLabel = widget.NewLabel("")
	w.busyLabel.Hide()
	w.message = widget.NewLabel("")
	w.message.Wrapping = fyne.TextWrapWord
	w.message.Alignment = fyne.TextAlignCenter

	w.findEntry = widget.NewEntry()
	w.findEntry.SetPlaceHolder("Find (regular expression, case-insensitive)")
	w.findEntry.OnChanged = func(s string) { w.Find(s) }
	w.findEntry.OnSubmitted = func(string) { w.FindNext(1) }
	w.findInfo = widget.NewLabel("")
	w.findBar = container.NewBorder(nil, nil, nil,
		container.NewHBox(w.findInfo,
			widget.NewButton("Previous", func() { w.FindNext(-1) }),
			widget.NewButton("Next", func() { w.FindNext(1) }),
			widget.NewButton("Close", w.CloseFind)),
		w.findEntry)
	w.findBar.Hide()

	paneBox := func(d view.Dim) fyne.CanvasObject {
		// The mode selector takes the width the title leaves in the
		// narrow side panes, so that "Peer distribution" is not elided.
		head := container.NewBorder(nil, nil, w.titles[d], nil, w.modes[d])
		if d == view.CallPane {
			head = container.NewHBox(w.titles[d], w.modes[d], w.flatCheck)
		}
		return container.NewBorder(head, w.infos[d], nil, nil, w.panes[d])
	}
	right := container.NewHSplit(paneBox(view.CallPane), paneBox(view.SystemPane))
	right.SetOffset(0.55)
	split := container.NewHSplit(paneBox(view.MetricPane), right)
	split.SetOffset(0.28)
	w.splits = [2]*container.Split{split, right}
	w.panes3 = split
	w.panesArea = container.NewStack(split)
	// A VBox gives the wrapping message the full width.
	w.body = container.NewStack(w.panesArea, container.NewVBox(layout.NewSpacer(), w.message, layout.NewSpacer()))
	w.message.Hide()
	w.panesArea.Hide()

	statusRow := container.NewBorder(nil, nil, container.NewHBox(w.busyLabel), nil,
		container.NewStack(w.progress, w.status))
	bottom := container.NewVBox(w.findBar, w.legend, statusRow, w.hint)
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
		w.refitPanes()
	}
	p.OnHover = func(n view.Node, in bool) {
		if w.view == nil || !in {
			w.hint.SetText("")
			return
		}
		w.hint.SetText(w.view.Tooltip(n))
	}
	p.OnMenu = func(n view.Node, at fyne.Position) { w.contextMenu(d, n, at) }
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
	if w.view == nil || w.view.Mode(d) == m {
		return
	}
	w.active = d
	w.view.SetMode(d, m)
	if m == view.ExternalPercent && w.view.Values().External() == nil {
		ref := w.defaultReference()
		if ref != nil {
			w.view.Values().SetExternal(ref.Exp)
		}
		w.hint.SetText(view.ExternalHint(ref))
		w.rebuildMenu()
	}
	if w.modes[d].Selected != m.String() {
		w.modes[d].SetSelected(m.String())
	}
	w.refresh()
	w.refitPanes() // the mode's name may need more width
}

func (w *Window) setDocument(doc *view.Doc) {
	w.doc = doc
	w.view = view.NewView(doc.Exp)
	w.view.HotPath().SetThreshold(view.HotThresholdPref(w.app.prefs))
	w.view.Appearance().SetNumberFormat(view.NumberFormatPref(w.app.prefs))
	w.showDerived(doc)
	w.app.addDocument(doc)
	w.win.SetTitle(view.WindowTitle(doc))
	for d, p := range w.panes {
		p.SetView(w.view)
		w.modes[d].SetSelected(w.view.Mode(view.Dim(d)).String())
	}
	w.message.Hide()
	w.body.Objects[0].Show()
	w.rebuildMenu()
	w.whenReady(w.fitPanes)
	w.refresh()
	w.showCallGraphDefaults()
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
	if miss := w.view.Values().Missing(); len(miss) > 0 {
		w.load(miss, w.refresh)
		return
	}
	if err := w.view.Update(); err != nil {
		w.showError(err)
	}
	for _, p := range w.panes {
		if w.view.Order() == view.ByValue {
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
	w.rememberSplit()
	for _, f := range w.listeners {
		f()
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

// fitPanes divides the window's width between the panes: the metric and
// system panes get what their rows need, within bounds, and the call pane
// the rest; a split the user chose is kept instead (view.SplitPref).
func (w *Window) fitPanes() {
	if s, ok := view.SplitPref(w.app.prefs); ok {
		w.setSplit(s)
		return
	}
	need := func(d view.Dim) float64 { return float64(max(w.panes[d].contentWidth(), w.headWidth(d))) }
	w.setSplit(view.FitSplit(float64(w.win.Canvas().Size().Width), need(view.MetricPane), need(view.SystemPane)))
}

// headWidth returns the width the title of pane d and the name of its
// value mode take.
func (w *Window) headWidth(d view.Dim) float32 {
	pad := theme.Size(theme.SizeNamePadding)
	text := fyne.MeasureText(w.modes[d].Selected, theme.Size(theme.SizeNameText), fyne.TextStyle{}).Width
	return w.titles[d].MinSize().Width + text + theme.Size(theme.SizeNameInlineIcon) + 8*pad
}

// split returns the offsets of the splits as they are now.
func (w *Window) split() view.Split {
	return view.Split{Outer: w.splits[0].Offset, Inner: w.splits[1].Offset}
}

// refitPanes fits the panes again after rows were expanded or collapsed,
// unless the user has moved a split (in this window or for all windows).
func (w *Window) refitPanes() {
	if w.fitted != (view.Split{}) && !view.HasSplitPref(w.app.prefs) && w.split().Near(w.fitted) {
		w.fitPanes()
	}
}

func (w *Window) setSplit(s view.Split) {
	w.splits[0].SetOffset(s.Outer)
	w.splits[1].SetOffset(s.Inner)
	w.fitted = w.split()
}

// rememberSplit saves the split when the user moved it.
func (w *Window) rememberSplit() {
	if w.fitted == (view.Split{}) || w.split().Near(w.fitted) {
		return // not fitted yet, or not moved
	}
	w.fitted = w.split()
	view.SaveSplit(w.app.prefs, w.fitted)
}

// load reads metric data in the background, showing progress, then calls then.
func (w *Window) load(refs []view.BlockRef, then func()) {
	w.loading = true
	w.startBusy("Loading " + view.Count(len(refs), "metric") + " …")
	w.app.async(func() { view.Read(refs) }, func() {
		w.loading = false
		w.stopBusy()
		then()
	})
}

// OnRefresh registers f to run after every refresh of the panes, when
// selections or values may have changed (for panels that follow them).
func (w *Window) OnRefresh(f func()) { w.listeners = append(w.listeners, f) }

// SetPanel places obj below the three panes in a resizable split; nil
// removes the panel.
func (w *Window) SetPanel(obj fyne.CanvasObject) {
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

func (w *Window) startBusy(what string) {
	w.busy++
	w.busyLabel.SetText(what)
	w.busyLabel.Show()
	w.status.Hide()
	w.progress.Show()
	w.progress.Start()
}

func (w *Window) stopBusy() {
	if w.busy > 0 {
		w.busy--
	}
	if w.busy == 0 {
		w.progress.Stop()
		w.progress.Hide()
		w.busyLabel.Hide()
		w.status.Show()
	}
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
	dialog.ShowError(err, w.win)
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
	w.rebuildMenu()
	w.refresh()
}

// SetOrder sets the sort order of all panes.
func (w *Window) SetOrder(o view.SortOrder) {
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
	w.rebuildMenu()
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

// ShowFind opens the find bar for the active pane.
func (w *Window) ShowFind() {
	w.findBar.Show()
	w.win.Canvas().Focus(w.findEntry)
	if w.findEntry.Text != "" {
		w.Find(w.findEntry.Text)
	}
}

// CloseFind hides the find bar and clears the marks.
func (w *Window) CloseFind() {
	w.findBar.Hide()
	if w.view != nil {
		w.view.Finder().Clear()
		w.refresh()
	}
}

// Find marks the rows of the active pane matching pattern and moves to
// the first match.
func (w *Window) Find(pattern string) {
	if w.view == nil {
		return
	}
	if len(w.view.Finder().Find(w.active, pattern)) == 0 {
		w.findInfo.SetText(view.FindMiss(w.active, pattern))
		w.refresh()
		return
	}
	w.FindNext(0)
}

// FindNext moves to the next (delta 1) or previous (−1) match.
func (w *Window) FindNext(delta int) {
	if w.view == nil {
		return
	}
	d, n, text, ok := w.view.Finder().Move(delta)
	if !ok {
		return
	}
	w.findInfo.SetText(text)
	w.panes[d].Reveal(n)
	w.refresh()
}

func (w *Window) contextMenu(d view.Dim, n view.Node, at fyne.Position) {
	if w.view == nil {
		return
	}
	w.active = d
	w.panes[d].Select(n.ID())
	items := fyneItems(view.RowMenu(d, n), w.handlers(view.MenuState{}, d, n))
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), w.win.Canvas(), at)
}

// expandSubtree expands or collapses n and the branches below it.
func (w *Window) expandSubtree(d view.Dim, n view.Node, open bool) {
	view.ExpandSubtree(w.view, d, n, open)
	w.panes[d].Sync()
	w.refresh()
	w.refitPanes()
}

func (w *Window) rebuildMenu() {
	w.win.SetMainMenu(w.menu())
}

// menu returns the menu bar: view.MainMenu bound to the handlers.
func (w *Window) menu() *fyne.MainMenu {
	w.app.applyMemoryPreference() // menus are built before any metric's data are read
	st := view.MenuState{Doc: w.doc, Recent: w.app.Recent(), Others: view.Others(w.app.docs, w.doc),
		SourceShown: w.SourceShown(), StatsShown: w.StatsShown(), CallGraphShown: w.CallGraphShown()}
	do := w.handlers(st, w.active, view.Node{})
	var menus []*fyne.Menu
	for _, m := range view.MainMenu(w.view, st) {
		menus = append(menus, fyne.NewMenu(m.Label, fyneItems(m.Items, do)...))
	}
	return fyne.NewMainMenu(menus...)
}

// fyneItems turns menu items into Fyne's, each calling the handler of
// its command with its argument.
func fyneItems(items []view.MenuItem, do map[view.Command]func(arg int)) []*fyne.MenuItem {
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
func (w *Window) handlers(st view.MenuState, d view.Dim, n view.Node) map[view.Command]func(arg int) {
	a := w.app
	clip := a.fy.Clipboard()
	return map[view.Command]func(int){
		view.CmdOpen:        func(int) { w.openDialog() },
		view.CmdOpenFolder:  func(int) { w.openFolderDialog() },
		view.CmdOpenRecent:  func(i int) { a.OpenFile(st.Recent[i], w) },
		view.CmdRepository:  func(int) { a.ShowRepository() },
		view.CmdSaveAs:      func(int) { w.saveDialog() },
		view.CmdProperties:  func(int) { w.showProperties() },
		view.CmdMemory:      func(int) { w.showMemoryDialog() },
		view.CmdClose:       func(int) { w.win.Close() },
		view.CmdFlat:        func(int) { w.SetFlat(w.view != nil && !w.view.Flat()) },
		view.CmdSort:        func(o int) { w.SetOrder(view.SortOrder(o)) },
		view.CmdNumberStyle: w.SetNumberStyle,
		view.CmdDecimals:    w.SetDecimals,
		view.CmdHottest:     func(int) { w.ExpandHottest(w.active) },
		view.CmdHotShare:    func(pc int) { w.SetHotThreshold(float64(pc) / 100) },
		view.CmdFind:        func(int) { w.ShowFind() },
		view.CmdFindNext:    func(int) { w.FindNext(1) },
		view.CmdFindPrev:    func(int) { w.FindNext(-1) },
		view.CmdColourRange: func(int) { w.rangeDialog() },
		view.CmdDiverging: func(int) {
			w.update(func(v *view.View) { v.Appearance().SetDiverging(!v.Appearance().Scale().Diverging) })
		},
		view.CmdExternal:        func(i int) { w.setExternal(element(st.Others, i)) },
		view.CmdReference:       func(int) { w.showReferenceChooser() },
		view.CmdSource:          func(int) { w.ShowSource(!w.SourceShown()) },
		view.CmdStats:           func(int) { w.ShowStats(!w.StatsShown()) },
		view.CmdCallGraph:       func(int) { w.ShowCallGraph(!w.CallGraphShown()) },
		view.CmdDerived:         func(int) { w.showDerivedDialog() },
		view.CmdThresholds:      func(int) { w.showThresholdsDialog() },
		view.CmdOperation:       func(op int) { w.showOperationDialog(algebra.Op(op)) },
		view.CmdReroot:          func(int) { w.reportCut(false) },
		view.CmdPrune:           func(int) { w.reportCut(true) },
		view.CmdWhere:           func(int) { w.showPerfDiffDialog() },
		view.CmdScaling:         func(int) { w.showScalingDialog() },
		view.CmdKeysHelp:        func(int) { dialog.ShowInformation("Keys and mouse", view.KeysHelp, w.win) },
		view.CmdAbout:           func(int) { dialog.ShowInformation("About cubeview", view.About, w.win) },
		view.CmdExpandSubtree:   func(int) { w.expandSubtree(d, n, true) },
		view.CmdCollapseSubtree: func(int) { w.expandSubtree(d, n, false) },
		view.CmdCopyValue:       func(int) { clip.SetContent(w.view.Values().Text(d, n)) },
		view.CmdCopyName:        func(int) { clip.SetContent(w.view.Label(n)) },
		view.CmdCopyDescription: func(int) { clip.SetContent(w.view.Tooltip(n)) },
	}
}

// element returns docs[i], or nil when i is out of range (None).
func element(docs []*view.Doc, i int) *view.Doc {
	if i < 0 || i >= len(docs) {
		return nil
	}
	return docs[i]
}

func (w *Window) setExternal(d *view.Doc) {
	w.update(func(v *view.View) { v.Values().SetExternal(d.Experiment()) })
}

func (w *Window) addShortcuts() {
	c := w.win.Canvas()
	// F3 and Shift+F3 step through find matches, as in many browsers.
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyF3 {
			w.FindNext(1)
		}
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF3, Modifier: fyne.KeyModifierShift}, func(fyne.Shortcut) { w.FindNext(-1) })
}

// SaveAs writes the experiment to path in the background; the extension
// (.cubex, .cube, .cube.gz) picks the format.
func (w *Window) SaveAs(path string) {
	if w.doc == nil {
		return
	}
	exp := w.doc.Exp
	w.startBusy("Writing " + filepath.Base(path) + " …")
	var err error
	w.app.async(func() { err = format.Write(path, exp) }, func() {
		w.stopBusy()
		if err != nil {
			w.showError(fmt.Errorf("saving %s: %w", path, err))
			return
		}
		w.hint.SetText("Saved " + path)
		w.app.addRecent(path)
	})
}

// rangeDialog asks for the colour range of the active pane.
func (w *Window) rangeDialog() {
	if w.view != nil {
		showForm(w.win, view.RangeForm(w.view, w.active, w.refresh), w.showError)
	}
}
