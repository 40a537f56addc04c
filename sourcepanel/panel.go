package sourcepanel

import (
	"context"
	"strconv"

	"cubeview/sourceview"
	"cubeview/view"
)

// Panel is the state of the source panel below a window's panes:
// it follows the call pane's selection, reads and highlights the target's
// file in the background (a large one shows the lines around the target
// first), annotates its lines with the selected metric's values, and
// says what the panel shows. The widgets draw it whenever Redraw is
// called; they hold no state of their own.
type Panel struct {
	Run      view.Runner
	View     func() *view.View           // the window's view; nil while no experiment is open
	Resolver func() *sourceview.Resolver // finds the files, with the user's source paths
	// Redraw runs after every change of what the panel shows; scroll asks
	// to scroll to the target's TopRow.
	Redraw func(scroll bool)
	// Busy runs when background work starts (on) and when the last of it
	// ends.
	Busy func(on bool)

	shown      bool
	view       *view.View // the view followed; another one means a new experiment
	target     Target
	file       *File // nil while no file is shown
	err        error // why target.File is not shown
	stale      bool  // look for the file again
	notes      map[int][]Note
	dropped    int
	valuesInfo string
	message    string // shown instead of the lines when not ""
	find       bool   // the message offers to locate the file

	gen    int // increases with every load; older loads' results are dropped
	cancel context.CancelFunc
	jobs   int
	idle   []func()
	cache  cache
}

// Shown reports whether the panel is shown.
func (p *Panel) Shown() bool { return p.shown }

// Show records whether the panel is shown; hiding it abandons background
// work. Reload fills a panel just shown.
func (p *Panel) Show(on bool) {
	p.shown = on
	if !on {
		p.stop()
	}
}

// Target is what the panel shows.
func (p *Panel) Target() Target { return p.target }

// File is the file shown, nil while none is.
func (p *Panel) File() *File { return p.file }

// Lines returns the lines shown, none while no file is.
func (p *Panel) Lines() []sourceview.Line {
	if p.file == nil {
		return nil
	}
	return p.file.Lines
}

// ShowsTarget reports whether the file shown is the target's.
func (p *Panel) ShowsTarget() bool { return p.file != nil && p.err == nil }

// Notes returns the annotations of the file shown, keyed by line.
func (p *Panel) Notes() map[int][]Note { return p.notes }

// Dropped counts the annotations beyond the file's last line.
func (p *Panel) Dropped() int { return p.dropped }

// ValuesInfo says what the annotations' values are.
func (p *Panel) ValuesInfo() string { return p.valuesInfo }

// Message returns the text shown instead of the lines, "" when the lines
// are shown; find says whether to offer locating the file.
func (p *Panel) Message() (text string, find bool) { return p.message, p.find }

// Title is the panel's title.
func (p *Panel) Title() string { return p.target.title() }

// Info is the panel's information line (infoLine).
func (p *Panel) Info() string {
	return infoLine(p.target, p.file, p.err, p.dropped, p.valuesInfo)
}

// Follow brings the panel up to date with the view's selection and
// values; the window calls it after every refresh.
func (p *Panel) Follow() {
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
	t := targetOf(v)
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
func (p *Panel) Reload() {
	p.stale = true
	p.Follow()
}

// Stop abandons background work.
func (p *Panel) stop() {
	p.gen++
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// WhenIdle runs f once the panel has no background work, at once when it
// is hidden or idle.
func (p *Panel) WhenIdle(f func()) {
	if p.shown && p.jobs > 0 {
		p.idle = append(p.idle, f)
		return
	}
	f()
}

// open loads the target's file in the background and shows it.
func (p *Panel) open() {
	p.stop()
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
	var res loaded
	p.startJob()
	p.Run(func() { res = load(ctx, r, t, &p.cache) }, func() {
		defer p.endJob()
		if gen != p.gen {
			return
		}
		p.show(res)
		if res.Err != nil || res.File.Exact {
			return
		}
		// The whole file, exactly, in the background.
		var full *File
		p.startJob()
		p.Run(func() { full = highlightAll(ctx, res, &p.cache) }, func() {
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
func (p *Panel) show(res loaded) {
	if res.Err != nil {
		p.err = res.Err
		p.message, p.find = problem(p.target.File, res.Err), true
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
func (p *Panel) annotate() {
	p.notes, p.dropped, p.valuesInfo = nil, 0, ""
	if v := p.View(); v != nil && p.file != nil {
		p.notes, p.dropped, p.valuesInfo = notesOf(v, p.target.File, len(p.file.Lines))
	}
}

func (p *Panel) startJob() {
	p.jobs++
	p.Busy(true)
}

func (p *Panel) endJob() {
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
func (p *Panel) LineNumber(n int) string {
	if n < 1 || n > len(p.Lines()) {
		return ""
	}
	return strconv.Itoa(n)
}
