package ui

import (
	"context"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/sourceview"
	"cubeview/view"
)

// sourceList is the virtualised list of lines; it scrolls to the focus
// line once it has a size.
type sourceList struct {
	widget.List
	resized func()
}

func (l *sourceList) Resize(s fyne.Size) {
	l.List.Resize(s)
	if l.resized != nil && s.Height > 0 {
		l.resized()
	}
}

// sourcePanel shows, below the panes, the source file of the call pane's
// selection: scrolled to the selected region (or call site), its lines
// shaded, each line with a call site or a region's beginning annotated
// with the selected metric's inclusive value in the call pane's value
// mode. A file is read and highlighted in the background; a large one
// shows the lines around the target first.
type sourcePanel struct {
	w     *Window
	view  *view.View // the view followed; another one means a new experiment
	shown bool

	content    fyne.CanvasObject
	title      *widget.Label
	info       *widget.Label
	activity   *widget.Activity
	list       *sourceList
	message    *widget.Label
	locate     *widget.Button
	addDir     *widget.Button
	messageBox *fyne.Container

	target        view.SourceTarget
	file          *view.SourceFile // nil while no file is shown
	err           error            // why target.file is not shown
	stale         bool             // look for the file again
	annots        map[int][]view.SourceNote
	dropped       int
	valuesInfo    string
	numberWidth   float32
	valueWidth    float32
	scrollPending bool

	gen    int // increases with every load; older loads' results are dropped
	cancel context.CancelFunc
	jobs   int
	idle   []func()
	cache  view.SourceCache
}

// SourceShown reports whether the source panel is shown.
func (w *Window) SourceShown() bool { return w.source != nil && w.source.shown }

// ShowSource shows or hides the source panel below the panes.
func (w *Window) ShowSource(on bool) {
	if on == w.SourceShown() {
		return
	}
	if w.source == nil {
		w.source = newSourcePanel(w)
		w.OnRefresh(w.source.follow)
	}
	p := w.source
	p.shown = on
	if on {
		w.SetPanel(p.content)
		p.stale = true
		p.follow()
	} else {
		p.stop()
		w.SetPanel(nil)
	}
	w.rebuildMenu()
}

// revealCnode selects call path c in the call pane (its region in the
// flat profile).
func (w *Window) revealCnode(c int) {
	if w.view == nil || c < 0 || c >= len(w.view.Experiment().Cnodes) {
		return
	}
	n := view.Node{Kind: view.CnodeNode, Index: c}
	if w.view.Flat() {
		n = view.Node{Kind: view.RegionNode, Index: w.view.Experiment().Cnodes[c].Region}
	}
	w.active = view.CallPane
	w.panes[view.CallPane].Reveal(n)
}

// whenSourceIdle runs f once the source panel has no background work,
// at once when it is hidden or idle.
func (w *Window) whenSourceIdle(f func()) {
	if p := w.source; p != nil && p.shown && p.jobs > 0 {
		p.idle = append(p.idle, f)
		return
	}
	f()
}

func newSourcePanel(w *Window) *sourcePanel {
	p := &sourcePanel{w: w}
	p.title = widget.NewLabelWithStyle("Source", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.info = widget.NewLabel("")
	p.info.Truncation = fyne.TextTruncateEllipsis
	p.info.Importance = widget.LowImportance
	p.activity = widget.NewActivity()
	p.activity.Hide()
	paths := widget.NewButtonWithIcon("Paths…", theme.FolderOpenIcon(), w.sourcePathsDialog)
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.ShowSource(false) })
	closeButton.Importance = widget.LowImportance
	head := container.NewBorder(nil, nil, p.title, container.NewHBox(p.activity, paths, closeButton), p.info)

	p.list = &sourceList{resized: p.applyScroll}
	p.list.Length = func() int { return len(p.lines()) }
	p.list.CreateItem = func() fyne.CanvasObject { return newSourceRow(p) }
	p.list.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) { o.(*sourceRow).setLine(id + 1) }
	p.list.HideSeparators = true
	p.list.ExtendBaseWidget(p.list)

	p.message = widget.NewLabel("")
	p.message.Wrapping = fyne.TextWrapWord
	p.message.Alignment = fyne.TextAlignCenter
	p.locate = widget.NewButtonWithIcon("Locate…", theme.SearchIcon(), p.locateDialog)
	p.locate.Importance = widget.HighImportance
	p.addDir = widget.NewButtonWithIcon("Add search folder…", theme.FolderIcon(), p.folderDialog)
	p.messageBox = container.NewVBox(layout.NewSpacer(), p.message,
		container.NewCenter(container.NewHBox(p.locate, p.addDir)), layout.NewSpacer())
	p.messageBox.Hide()

	body := container.NewStack(container.NewThemeOverride(p.list, compactTheme{}), p.messageBox)
	p.content = container.NewBorder(container.NewVBox(widget.NewSeparator(), head), nil, nil, nil, body)
	return p
}

// lines returns the lines shown, none while no file is.
func (p *sourcePanel) lines() []sourceview.Line {
	if p.file == nil {
		return nil
	}
	return p.file.Lines
}

// showsTarget reports whether the file shown is the target's.
func (p *sourcePanel) showsTarget() bool { return p.file != nil && p.err == nil }

// follow brings the panel up to date with the window's selection and
// values; the window calls it after every refresh.
func (p *sourcePanel) follow() {
	if !p.shown {
		return
	}
	v := p.w.view
	if v == nil {
		p.showMessage("No experiment is open.", false)
		return
	}
	if v != p.view {
		p.view, p.stale = v, true
	}
	t := v.SourceTarget()
	switch {
	case p.stale || t.File != p.target.File || t.File == "" && t != p.target:
		p.stale = false
		p.target = t
		p.open()
		return
	case t != p.target:
		p.target = t
		p.scrollPending = true
		p.applyScroll()
	}
	p.annotate()
	p.updateHead()
	p.list.Refresh()
}

// reload looks for the target's file again (after the source paths changed).
func (p *sourcePanel) reload() {
	p.stale = true
	p.follow()
}

// stop abandons background work.
func (p *sourcePanel) stop() {
	p.gen++
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// open loads the target's file in the background and shows it.
func (p *sourcePanel) open() {
	p.stop()
	t := p.target
	p.file, p.err, p.annots = nil, nil, nil
	p.updateHead()
	if t.File == "" {
		p.showMessage(t.None, false)
		return
	}
	p.showMessage("Reading "+t.File+" …", false)
	gen := p.gen
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	r := p.w.app.sourceResolver(p.w.doc)
	var res view.SourceLoad
	p.startJob()
	p.w.app.async(func() { res = view.LoadSource(ctx, r, t, &p.cache) }, func() {
		defer p.endJob()
		if gen != p.gen {
			return
		}
		p.show(res)
		if res.Err != nil || res.File.Exact {
			return
		}
		// The whole file, exactly, in the background.
		var full *view.SourceFile
		p.startJob()
		p.w.app.async(func() { full = view.HighlightAll(ctx, res, &p.cache) }, func() {
			defer p.endJob()
			if gen != p.gen || full == nil {
				return
			}
			p.file = full
			p.updateHead()
			p.list.Refresh()
		})
	})
}

// show puts a loaded file (or the reason it is not shown) on screen.
func (p *sourcePanel) show(res view.SourceLoad) {
	if res.Err != nil {
		p.err = res.Err
		p.updateHead()
		p.showMessage(view.SourceProblem(p.target.File, res.Err), true)
		return
	}
	p.file = res.File
	p.messageBox.Hide()
	p.list.Show()
	p.numberWidth = fyne.MeasureText(view.LineNumberSample(len(p.file.Lines)), p.textSize(), fyne.TextStyle{Monospace: true}).Width
	p.annotate()
	p.updateHead()
	p.list.Refresh()
	p.scrollPending = true
	p.applyScroll()
}

// showMessage shows text instead of the lines, with the Locate… and Add
// search folder… buttons when find is set.
func (p *sourcePanel) showMessage(text string, find bool) {
	p.message.SetText(text)
	if find {
		p.locate.Show()
		p.addDir.Show()
	} else {
		p.locate.Hide()
		p.addDir.Hide()
	}
	p.list.Hide()
	p.messageBox.Show()
}

func (p *sourcePanel) startJob() {
	p.jobs++
	p.activity.Show()
	p.activity.Start()
}

func (p *sourcePanel) endJob() {
	if p.jobs > 0 {
		p.jobs--
	}
	if p.jobs > 0 {
		return
	}
	p.activity.Stop()
	p.activity.Hide()
	idle := p.idle
	p.idle = nil
	for _, f := range idle {
		f()
	}
}

// applyScroll scrolls to the focus line, a few lines of context above it,
// once the list has a size.
func (p *sourcePanel) applyScroll() {
	if !p.scrollPending || p.file == nil || p.list.Size().Height <= 0 {
		return
	}
	p.scrollPending = false
	step := p.rowHeight() + compactTheme{}.Size(theme.SizeNamePadding)
	p.list.ScrollToOffset(float32(p.target.TopRow()) * step)
}

func (p *sourcePanel) textSize() float32 { return theme.Size(theme.SizeNameText) }

func (p *sourcePanel) lineHeight() float32 {
	return fyne.MeasureText("Mg", p.textSize(), fyne.TextStyle{Monospace: true}).Height
}

// rowHeight is a whole number of pixels, so that shaded rows meet without seams.
func (p *sourcePanel) rowHeight() float32 {
	return float32(math.Ceil(float64(max(p.lineHeight(), swatchSize) + 2)))
}

func (p *sourcePanel) gutterWidth() float32 {
	return focusBar + gutterGap + p.numberWidth + gutterGap + swatchSize + gutterGap + p.valueWidth + 2*gutterGap
}

// annotate computes the annotations of the file shown for the current
// metric selection and value mode.
func (p *sourcePanel) annotate() {
	p.annots, p.dropped, p.valuesInfo = nil, 0, ""
	v := p.w.view
	if v == nil || p.file == nil {
		return
	}
	p.annots, p.dropped, p.valuesInfo = v.SourceNotes(p.target.File, len(p.file.Lines))
	p.valueWidth = 0
	style := fyne.TextStyle{Monospace: true}
	for _, notes := range p.annots {
		if len(notes) > 0 {
			p.valueWidth = max(p.valueWidth, fyne.MeasureText(notes[0].Text, p.textSize(), style).Width)
		}
	}
}

// updateHead writes the title and the information line.
func (p *sourcePanel) updateHead() {
	p.title.SetText(p.target.Title())
	p.info.SetText(view.SourceInfo(p.target, p.file, p.err, p.dropped, p.valuesInfo))
}

// locateDialog asks for the missing file and learns where it is.
func (p *sourcePanel) locateDialog() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil {
			p.w.showError(err)
			return
		}
		if rc == nil {
			return
		}
		path := rc.URI().Path()
		rc.Close()
		p.Locate(path)
	}, p.w.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// Locate tells the panel that its missing file is at path: the lesson is
// remembered as a path mapping and the panels look again.
func (p *sourcePanel) Locate(path string) {
	if err := p.w.app.LearnSourcePath(p.w.doc, p.target.File, path); err != nil {
		p.w.showError(err)
	}
}

// folderDialog asks for a folder to search for source files.
func (p *sourcePanel) folderDialog() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			p.w.showError(err)
			return
		}
		if u != nil {
			p.w.app.AddSourceDir(u.Path())
		}
	}, p.w.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// compactTheme packs the source lines closely: the list spaces its rows
// by the theme's padding. Everything else comes from the app's theme.
type compactTheme struct{}

func (compactTheme) base() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (t compactTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return t.base().Color(n, v)
}

func (t compactTheme) Font(s fyne.TextStyle) fyne.Resource { return t.base().Font(s) }

func (t compactTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base().Icon(n) }

func (t compactTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNamePadding {
		return 0
	}
	return t.base().Size(n)
}
