package view

import (
	"context"
	"strconv"

	"cubeview/sourceview"
)

// SourcePanel is the state of the source panel below a window's panes:
// it follows the call pane's selection, reads and highlights the target's
// file in the background (a large one shows the lines around the target
// first), annotates its lines with the selected metric's values, and
// says what the panel shows. The widgets draw it whenever Redraw is
// called; they hold no state of their own.
type SourcePanel struct {
	Run      Runner
	View     func() *View                // the window's view; nil while no experiment is open
	Resolver func() *sourceview.Resolver // finds the files, with the user's source paths
	// Redraw runs after every change of what the panel shows; scroll asks
	// to scroll to the target's TopRow.
	Redraw func(scroll bool)
	// Busy runs when background work starts (on) and when the last of it
	// ends.
	Busy func(on bool)

	shown      bool
	view       *View // the view followed; another one means a new experiment
	target     SourceTarget
	file       *SourceFile // nil while no file is shown
	err        error       // why target.File is not shown
	stale      bool        // look for the file again
	notes      map[int][]SourceNote
	dropped    int
	valuesInfo string
	message    string // shown instead of the lines when not ""
	find       bool   // the message offers to locate the file

	gen    int // increases with every load; older loads' results are dropped
	cancel context.CancelFunc
	jobs   int
	idle   []func()
	cache  SourceCache
}

// Shown reports whether the panel is shown.
func (p *SourcePanel) Shown() bool { return p.shown }

// Show records whether the panel is shown; hiding it abandons background
// work. Reload fills a panel just shown.
func (p *SourcePanel) Show(on bool) {
	p.shown = on
	if !on {
		p.Stop()
	}
}

// Target is what the panel shows.
func (p *SourcePanel) Target() SourceTarget { return p.target }

// File is the file shown, nil while none is.
func (p *SourcePanel) File() *SourceFile { return p.file }

// Lines returns the lines shown, none while no file is.
func (p *SourcePanel) Lines() []sourceview.Line {
	if p.file == nil {
		return nil
	}
	return p.file.Lines
}

// ShowsTarget reports whether the file shown is the target's.
func (p *SourcePanel) ShowsTarget() bool { return p.file != nil && p.err == nil }

// Notes returns the annotations of the file shown, keyed by line.
func (p *SourcePanel) Notes() map[int][]SourceNote { return p.notes }

// Dropped counts the annotations beyond the file's last line.
func (p *SourcePanel) Dropped() int { return p.dropped }

// ValuesInfo says what the annotations' values are.
func (p *SourcePanel) ValuesInfo() string { return p.valuesInfo }

// Message returns the text shown instead of the lines, "" when the lines
// are shown; find says whether to offer locating the file.
func (p *SourcePanel) Message() (text string, find bool) { return p.message, p.find }

// Title is the panel's title.
func (p *SourcePanel) Title() string { return p.target.Title() }

// Info is the panel's information line (SourceInfo).
func (p *SourcePanel) Info() string {
	return SourceInfo(p.target, p.file, p.err, p.dropped, p.valuesInfo)
}

// Follow brings the panel up to date with the view's selection and
// values; the window calls it after every refresh.
func (p *SourcePanel) Follow() {
	if !p.shown {
		return
	}
	v := p.View()
	if v == nil {
		p.message, p.find = "No experiment is open.", false
		p.Redraw(false)
		return
	}
	if v != p.view {
		p.view, p.stale = v, true
	}
	t := TargetOf(v)
	scroll := false
	switch {
	case p.stale || t.File != p.target.File || t.File == "" && t != p.target:
		p.stale = false
		p.target = t
		p.open()
		return
	case t != p.target:
		p.target = t
		scroll = true
	}
	p.annotate()
	p.Redraw(scroll)
}

// Reload looks for the target's file again (after the source paths
// changed).
func (p *SourcePanel) Reload() {
	p.stale = true
	p.Follow()
}

// Stop abandons background work.
func (p *SourcePanel) Stop() {
	p.gen++
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// WhenIdle runs f once the panel has no background work, at once when it
// is hidden or idle.
func (p *SourcePanel) WhenIdle(f func()) {
	if p.shown && p.jobs > 0 {
		p.idle = append(p.idle, f)
		return
	}
	f()
}

// open loads the target's file in the background and shows it.
func (p *SourcePanel) open() {
	p.Stop()
	t := p.target
	p.file, p.err, p.notes = nil, nil, nil
	if t.File == "" {
		p.message, p.find = t.None, false
		p.Redraw(false)
		return
	}
	p.message, p.find = "Reading "+t.File+" …", false
	p.Redraw(false)
	gen := p.gen
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	r := p.Resolver()
	var res SourceLoad
	p.startJob()
	p.Run(func() { res = LoadSource(ctx, r, t, &p.cache) }, func() {
		defer p.endJob()
		if gen != p.gen {
			return
		}
		p.show(res)
		if res.Err != nil || res.File.Exact {
			return
		}
		// The whole file, exactly, in the background.
		var full *SourceFile
		p.startJob()
		p.Run(func() { full = HighlightAll(ctx, res, &p.cache) }, func() {
			defer p.endJob()
			if gen != p.gen || full == nil {
				return
			}
			p.file = full
			p.Redraw(false)
		})
	})
}

// show takes a loaded file (or the reason it is not shown).
func (p *SourcePanel) show(res SourceLoad) {
	if res.Err != nil {
		p.err = res.Err
		p.message, p.find = SourceProblem(p.target.File, res.Err), true
		p.Redraw(false)
		return
	}
	p.file = res.File
	p.message, p.find = "", false
	p.annotate()
	p.Redraw(true)
}

// annotate computes the annotations of the file shown for the current
// metric selection and value mode.
func (p *SourcePanel) annotate() {
	p.notes, p.dropped, p.valuesInfo = nil, 0, ""
	if v := p.View(); v != nil && p.file != nil {
		p.notes, p.dropped, p.valuesInfo = NotesOf(v, p.target.File, len(p.file.Lines))
	}
}

func (p *SourcePanel) startJob() {
	p.jobs++
	p.Busy(true)
}

func (p *SourcePanel) endJob() {
	if p.jobs > 0 {
		p.jobs--
	}
	if p.jobs > 0 {
		return
	}
	p.Busy(false)
	idle := p.idle
	p.idle = nil
	for _, f := range idle {
		f()
	}
}


// LineNumber is the gutter's text of line n (1-based): its number, ""
// when the file shown has no line n.
func (p *SourcePanel) LineNumber(n int) string {
	if n < 1 || n > len(p.Lines()) {
		return ""
	}
	return strconv.Itoa(n)
}
