package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/sourceview"
	"cubeview/view"
)

// Source panel tuning.
const (
	// smallSource is the number of lines up to which a file is highlighted
	// completely before it is shown (a few tenths of a second at most).
	smallSource = 4000
	// previewAfter and previewBefore are the lines highlighted at once
	// after and before the line the lexer starts at in a larger file; the
	// whole file follows in the background.
	previewAfter  = 300
	previewBefore = 60
	// contextAbove is the number of lines shown above the focus line.
	contextAbove = 3
	// cachedSources is the number of highlighted files a panel keeps.
	cachedSources = 6
)

// sourceTarget is what the call pane's selection asks the source panel to
// show.
type sourceTarget struct {
	file       string // the source path as recorded; "" when none is
	focus      int    // the line to scroll to; 0: the top
	begin, end int    // the shaded lines; 0: none
	lexFrom    int    // a line where the lexer likely starts afresh (a definition)
	what       string // e.g. "region solver_iterate, lines 86–98"
	none       string // why nothing is shown when file is ""
}

// sourceFile is a file read and highlighted, completely (exact) or around
// the target only.
type sourceFile struct {
	path  string // the file read
	lexer string
	lines []sourceview.Line
	exact bool // Highlight's result for the whole file
	size  int64
	mod   time.Time
}

// sourceCache keeps the last files highlighted completely; background
// loads use it too.
type sourceCache struct {
	mu    sync.Mutex
	files []*sourceFile // most recent last
}

func (c *sourceCache) get(path string, st os.FileInfo) *sourceFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, f := range c.files {
		if f.path == path && f.size == st.Size() && f.mod.Equal(st.ModTime()) {
			c.files = append(append(c.files[:i:i], c.files[i+1:]...), f)
			return f
		}
	}
	return nil
}

func (c *sourceCache) put(f *sourceFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, old := range c.files {
		if old.path == f.path {
			c.files = append(c.files[:i:i], c.files[i+1:]...)
			break
		}
	}
	c.files = append(c.files, f)
	if len(c.files) > cachedSources {
		c.files = c.files[len(c.files)-cachedSources:]
	}
}

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

	target        sourceTarget
	file          *sourceFile // nil while no file is shown
	err           error       // why target.file is not shown
	stale         bool        // look for the file again
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
	cache  sourceCache
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

// sourceMenuItem returns the View menu's item that toggles the panel.
func (w *Window) sourceMenuItem() *fyne.MenuItem {
	it := fyne.NewMenuItem("Source", func() { w.ShowSource(!w.SourceShown()) })
	it.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyU, Modifier: fyne.KeyModifierShortcutDefault}
	it.Checked = w.SourceShown()
	it.Disabled = w.view == nil
	return it
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
	return p.file.lines
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
	t := targetOf(v)
	switch {
	case p.stale || t.file != p.target.file || t.file == "" && t != p.target:
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

// targetOf returns what the call pane's selection asks to show: for a call
// path or flat-profile region, the region's definition when its file and
// lines are recorded, else the call site, else the region's file.
func targetOf(v *view.View) sourceTarget {
	e := v.Experiment()
	n := v.Selected(view.CallPane)
	var region, cnode int
	switch n.Kind {
	case view.CnodeNode:
		cnode, region = n.Index, e.Cnodes[n.Index].Region
	case view.RegionNode, view.SubroutinesNode:
		region, cnode = n.Index, -1
		if cs := v.RegionCallPaths(n.Index); len(cs) > 0 {
			cnode = cs[0]
		}
	default:
		return sourceTarget{none: "Select a call path or a region to see its source."}
	}
	r := &e.Regions[region]
	if r.Module != "" && r.Begin > 0 {
		end := max(r.End, r.Begin)
		what := fmt.Sprintf("region %s, lines %d–%d", r.Name, r.Begin, end)
		if end == r.Begin {
			what = fmt.Sprintf("region %s, line %d", r.Name, r.Begin)
		}
		return sourceTarget{file: r.Module, focus: r.Begin, begin: r.Begin, end: end, lexFrom: r.Begin, what: what}
	}
	if cnode >= 0 {
		if c := &e.Cnodes[cnode]; c.CallFile != "" && c.CallLine > 0 {
			t := sourceTarget{file: c.CallFile, focus: c.CallLine, begin: c.CallLine, end: c.CallLine, lexFrom: c.CallLine,
				what: fmt.Sprintf("call of %s, line %d", r.Name, c.CallLine)}
			if c.Parent >= 0 {
				// Lexing from the caller's definition gets its colours right.
				if caller := e.CnodeRegion(c.Parent); caller.Module == c.CallFile && caller.Begin > 0 && caller.Begin <= c.CallLine {
					t.lexFrom = caller.Begin
				}
			}
			return t
		}
	}
	if looksLikeFile(r.Module) {
		return sourceTarget{file: r.Module, what: "region " + r.Name}
	}
	return sourceTarget{none: fmt.Sprintf("No source location is recorded for %s.", r.Name)}
}

// looksLikeFile tells a file path from module names such as "MPI".
func looksLikeFile(module string) bool {
	return module != "" && (filepath.Ext(module) != "" || strings.ContainsAny(module, `/\`))
}

// sourceLoad is the result of reading a file in the background.
type sourceLoad struct {
	file *sourceFile
	text string // the text to highlight completely when file is not exact
	err  error
}

// loadSource finds, reads and highlights the file of t: completely when it
// is small, else the lines around t (exact from t.lexFrom in most
// languages) with the rest as plain text.
func loadSource(ctx context.Context, r *sourceview.Resolver, t sourceTarget, cache *sourceCache) sourceLoad {
	path, err := r.Resolve(t.file)
	if err != nil {
		return sourceLoad{err: err}
	}
	st, err := os.Stat(path)
	if err != nil {
		return sourceLoad{err: err}
	}
	if f := cache.get(path, st); f != nil {
		return sourceLoad{file: f}
	}
	text, err := sourceview.Read(path, 0)
	if err != nil {
		return sourceLoad{err: err}
	}
	f := &sourceFile{path: path, size: st.Size(), mod: st.ModTime()}
	if strings.Count(text, "\n") < smallSource {
		f.lines, f.lexer, err = sourceview.Highlight(ctx, path, text)
		if err != nil {
			return sourceLoad{err: err}
		}
		f.exact = true
		cache.put(f)
		return sourceLoad{file: f}
	}
	f.lines = sourceview.SplitLines(text)
	from := max(t.lexFrom, 1)
	last := max(from, t.focus, t.end) + previewAfter
	last = min(last, from+10*previewAfter) // a huge region: its start is what shows
	for _, r := range [][2]int{{from - previewBefore, from - 1}, {from, last}} {
		part, lexer, err := sourceview.HighlightPart(ctx, path, text, r[0], r[1])
		if err != nil {
			return sourceLoad{err: err}
		}
		if len(part) > 0 {
			copy(f.lines[part[0].Number-1:], part)
		}
		f.lexer = lexer
	}
	return sourceLoad{file: f, text: text}
}

// open loads the target's file in the background and shows it.
func (p *sourcePanel) open() {
	p.stop()
	t := p.target
	p.file, p.err, p.annots = nil, nil, nil
	p.updateHead()
	if t.file == "" {
		p.showMessage(t.none, false)
		return
	}
	p.showMessage("Reading "+t.file+" …", false)
	gen := p.gen
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	r := p.w.app.sourceResolver(p.w.doc)
	var res sourceLoad
	p.startJob()
	p.w.app.async(func() { res = loadSource(ctx, r, t, &p.cache) }, func() {
		defer p.endJob()
		if gen != p.gen {
			return
		}
		p.show(res)
		if res.err != nil || res.file.exact {
			return
		}
		// The whole file, exactly, in the background.
		part := res.file
		var full *sourceFile
		p.startJob()
		p.w.app.async(func() {
			lines, lexer, err := sourceview.Highlight(ctx, part.path, res.text)
			if err == nil {
				full = &sourceFile{path: part.path, lexer: lexer, lines: lines, exact: true, size: part.size, mod: part.mod}
				p.cache.put(full)
			}
		}, func() {
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
func (p *sourcePanel) show(res sourceLoad) {
	if res.err != nil {
		p.err = res.err
		p.updateHead()
		if errors.Is(res.err, sourceview.ErrNotFound) {
			p.showMessage(fmt.Sprintf("The source file %s was not found on this machine.\n"+
				"Locate it, or add a folder to search; the path mapping is remembered.", p.target.file), true)
		} else {
			p.showMessage(fmt.Sprintf("The source file cannot be shown: %v", res.err), true)
		}
		return
	}
	p.file = res.file
	p.messageBox.Hide()
	p.list.Show()
	p.numberWidth = fyne.MeasureText(strings.Repeat("0", len(fmt.Sprint(len(p.file.lines)))), p.textSize(), fyne.TextStyle{Monospace: true}).Width
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
	row := max(p.target.focus-1-contextAbove, 0)
	step := p.rowHeight() + compactTheme{}.Size(theme.SizeNamePadding)
	p.list.ScrollToOffset(float32(row) * step)
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
	p.annots, p.dropped, p.valuesInfo = v.SourceNotes(p.target.file, len(p.file.lines))
	p.valueWidth = 0
	style := fyne.TextStyle{Monospace: true}
	for _, notes := range p.annots {
		if len(notes) > 0 {
			p.valueWidth = max(p.valueWidth, fyne.MeasureText(notes[0].Text, p.textSize(), style).Width)
		}
	}
}

// describe explains a line's annotations for the hint line.
func (p *sourcePanel) describe(notes []view.SourceNote) string {
	var parts []string
	e := p.w.view.Experiment()
	for _, n := range notes {
		switch n.Kind {
		case sourceview.CallSite:
			parts = append(parts, fmt.Sprintf("call of %s (%s): %s", n.Name, e.CallPath(n.Index), n.Text))
		default:
			parts = append(parts, fmt.Sprintf("region %s: %s", n.Name, n.Text))
		}
	}
	return strings.Join(parts, " · ") + " — " + p.valuesInfo + "; double-click selects the call"
}

// updateHead writes the title and the information line.
func (p *sourcePanel) updateHead() {
	t := p.target
	if t.file == "" {
		p.title.SetText("Source")
		p.info.SetText("")
		return
	}
	p.title.SetText(filepath.Base(t.file) + " — " + t.what)
	var info []string
	if p.file != nil {
		if p.dropped > 0 {
			info = append(info, view.Count(p.dropped, "annotation")+" beyond the last line: the file differs from the measured one")
		}
		if p.valuesInfo != "" {
			info = append(info, "values: "+p.valuesInfo)
		}
		info = append(info, p.file.lexer)
		if !p.file.exact {
			info = append(info, "highlighting …")
		}
		info = append(info, p.file.path)
	} else if p.err == nil {
		info = append(info, "reading …")
	} else {
		info = append(info, p.err.Error())
	}
	p.info.SetText(strings.Join(info, " · "))
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
	if err := p.w.app.LearnSourcePath(p.w.doc, p.target.file, path); err != nil {
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
