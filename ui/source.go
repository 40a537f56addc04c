package ui

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/sourcepanel"
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

// sourcePanel draws the source panel below the panes (sourcepanel.Panel
// says what it shows): the source file of the call pane's selection,
// scrolled to the selected region (or call site), its lines shaded, each
// line with a call site or a region's beginning annotated with the
// selected metric's inclusive value in the call pane's value mode.
type sourcePanel struct {
	w *Window
	m sourcepanel.Panel

	content    fyne.CanvasObject
	title      *widget.Label
	info       *widget.Label
	activity   *widget.Activity
	list       *sourceList
	message    *widget.Label
	locate     *widget.Button
	addDir     *widget.Button
	messageBox *fyne.Container

	numberWidth   float32
	valueWidth    float32
	scrollPending bool
}

// SourceShown reports whether the source panel is shown.
func (pl *panels) SourceShown() bool {
	w := pl.w
	return w.panels.source != nil && w.panels.source.m.Shown()
}

// ShowSource shows or hides the source panel below the panes.
func (pl *panels) ShowSource(on bool) {
	w := pl.w
	if on == w.panels.SourceShown() {
		return
	}
	if w.panels.source == nil {
		w.panels.source = newSourcePanel(w)
		w.OnRefresh(w.panels.source.m.Follow)
	}
	w.panels.source.m.Show(on)
	if on {
		w.panels.set(w.panels.source.content)
		w.panels.source.m.Reload()
	} else {
		w.panels.set(nil)
	}
	w.menus.rebuild()
}

// revealCnode selects call path c in the call pane (its region in the
// flat profile).
func (w *Window) revealCnode(c int) {
	if w.view == nil {
		return
	}
	if n := w.view.Showing(view.Node{Kind: view.CnodeNode, Index: c}); n.Valid() {
		w.active = view.CallPane
		w.panes[view.CallPane].Reveal(n)
	}
}

// whenSourceIdle runs f once the source panel has no background work,
// at once when it is hidden or idle.
func (pl *panels) whenSourceIdle(f func()) {
	w := pl.w
	if w.panels.source == nil {
		f()
		return
	}
	w.panels.source.m.WhenIdle(f)
}

func newSourcePanel(w *Window) *sourcePanel {
	p := &sourcePanel{w: w}
	p.m = sourcepanel.Panel{
		Run:      w.app.async,
		View:     func() *view.View { return w.view },
		Resolver: func() *sourceview.Resolver { return w.app.sourceSettings().Resolver(w.doc, w.app.docs) },
		Redraw:   p.redraw,
		Busy:     p.busy,
	}
	p.title = titleLabel("Source")
	p.info = truncLabel("")
	p.info.Importance = widget.LowImportance
	p.activity = widget.NewActivity()
	p.activity.Hide()
	paths := widget.NewButtonWithIcon("Paths…", theme.FolderOpenIcon(), w.dialogs.sourcePathsDialog)
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowSource(false) })
	closeButton.Importance = widget.LowImportance
	head := container.NewBorder(nil, nil, p.title, container.NewHBox(p.activity, paths, closeButton), p.info)

	p.list = &sourceList{resized: p.applyScroll}
	p.list.Length = func() int { return len(p.m.Lines()) }
	p.list.CreateItem = func() fyne.CanvasObject { return newSourceRow(p) }
	p.list.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) { o.(*sourceRow).setLine(id + 1) }
	p.list.HideSeparators = true
	p.list.ExtendBaseWidget(p.list)

	p.message = widget.NewLabel("")
	p.message.Wrapping = fyne.TextWrapWord
	p.message.Alignment = fyne.TextAlignCenter
	p.locate = widget.NewButtonWithIcon("Locate…", theme.SearchIcon(), func() { pickPath(w.win, false, "", p.Locate, w.showError) })
	p.locate.Importance = widget.HighImportance
	p.addDir = widget.NewButtonWithIcon("Add search folder…", theme.FolderIcon(), func() { pickPath(w.win, true, "", p.addSearchDir, w.showError) })
	p.messageBox = container.NewVBox(layout.NewSpacer(), p.message,
		container.NewCenter(container.NewHBox(p.locate, p.addDir)), layout.NewSpacer())
	p.messageBox.Hide()

	body := container.NewStack(container.NewThemeOverride(p.list, compactTheme{fyne.CurrentApp().Settings().Theme()}), p.messageBox)
	p.content = container.NewBorder(container.NewVBox(widget.NewSeparator(), head), nil, nil, nil, body)
	return p
}

// redraw shows what the panel's state says: the head, and the message
// or the lines; scroll scrolls to the target.
func (p *sourcePanel) redraw(scroll bool) {
	p.title.SetText(p.m.Title())
	p.info.SetText(p.m.Info())
	if text, find := p.m.Message(); text != "" {
		p.showMessage(text, find)
		return
	}
	p.messageBox.Hide()
	p.list.Show()
	style := fyne.TextStyle{Monospace: true}
	p.numberWidth = fyne.MeasureText(sourcepanel.LineNumberSample(len(p.m.Lines())), p.textSize(), style).Width
	p.valueWidth = 0
	for _, notes := range p.m.Notes() {
		if len(notes) > 0 {
			p.valueWidth = max(p.valueWidth, fyne.MeasureText(notes[0].Text, p.textSize(), style).Width)
		}
	}
	p.list.Refresh()
	if scroll {
		p.scrollPending = true
		p.applyScroll()
	}
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

// busy shows whether background work runs.
func (p *sourcePanel) busy(on bool) {
	if on {
		p.activity.Show()
		p.activity.Start()
	} else {
		p.activity.Stop()
		p.activity.Hide()
	}
}

// applyScroll scrolls to the focus line, a few lines of context above it,
// once the list has a size.
func (p *sourcePanel) applyScroll() {
	if !p.scrollPending || p.m.File() == nil || p.list.Size().Height <= 0 {
		return
	}
	p.scrollPending = false
	step := p.rowHeight() + compactTheme{}.Size(theme.SizeNamePadding)
	p.list.ScrollToOffset(float32(p.m.Target().TopRow()) * step)
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

// Locate tells the panel that its missing file is at path: the lesson is
// remembered as a path mapping and the panels look again.
func (p *sourcePanel) Locate(path string) {
	if err := p.w.app.sourceSettings().Learn(p.w.doc, p.w.app.docs, p.m.Target().File, path); err != nil {
		p.w.showError(err)
	}
}

// addSearchDir adds dir to the folders searched for source files.
func (p *sourcePanel) addSearchDir(dir string) {
	if err := p.w.app.sourceSettings().AddDir(dir); err != nil {
		p.w.showError(err)
	}
}

// compactTheme packs the source lines closely: the list spaces its rows
// by the theme's padding. Everything else comes from the app's theme,
// which is set once at the start.
type compactTheme struct{ fyne.Theme }

func (t compactTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNamePadding {
		return 0
	}
	return t.Theme.Size(n)
}
