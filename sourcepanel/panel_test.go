package sourcepanel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/internal/testkit/handmade"
	"cubeview/sourceview"
	"cubeview/view"
)

// sourcePanelFixture returns a panel following v over a directory with
// foo.c and main.c (bar.c is missing), and the record of its redraws and
// busy changes.
func sourcePanelFixture(t *testing.T, v *view.View) (*Panel, *testkit.HeldRunner, *[]bool, *[]bool) {
	t.Helper()
	dir := t.TempDir()
	for name, lines := range map[string]int{"foo.c": 12, "main.c": 45} {
		text := strings.Repeat("int x;\n", lines)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &testkit.HeldRunner{}
	var redraws, busy []bool
	p := &Panel{
		Run:      h.Run,
		View:     func() *view.View { return v },
		Resolver: func() *sourceview.Resolver { return &sourceview.Resolver{Base: dir} },
		Redraw:   func(scroll bool) { redraws = append(redraws, scroll) },
		Busy:     func(on bool) { busy = append(busy, on) },
	}
	return p, h, &redraws, &busy
}

func TestSourcePanelOpensAndFollows(t *testing.T) {
	v := view.NewView(handMade())
	mustUpdate(t, v)
	v.Select(view.CallPane, cFoo)
	p, h, redraws, busy := sourcePanelFixture(t, v)

	p.Follow()
	if len(*redraws) != 0 || h.Held() != 0 {
		t.Fatalf("a hidden panel redraws (%v) or reads (%d jobs)", *redraws, h.Held())
	}
	p.Show(true)
	p.Reload()
	if msg, find := p.Message(); msg != "Reading foo.c …" || find || p.File() != nil || len(*busy) != 1 || !(*busy)[0] {
		t.Fatalf("while reading: message %q (find %v), file %v, busy %v", msg, find, p.File(), *busy)
	}
	idle := false
	p.WhenIdle(func() { idle = true })
	if idle {
		t.Fatal("WhenIdle ran while the file is being read")
	}
	h.Flush()
	if !idle || (*busy)[len(*busy)-1] {
		t.Errorf("after reading: idle ran %v, busy %v", idle, *busy)
	}
	if f := p.File(); f == nil || filepath.Base(f.Path) != "foo.c" || len(p.Lines()) != 12 || !p.ShowsTarget() {
		t.Fatalf("file %+v, want foo.c's 12 lines", f)
	}
	if p.LineNumber(12) != "12" || p.LineNumber(13) != "" || p.LineNumber(0) != "" {
		t.Errorf("line numbers %q %q %q", p.LineNumber(12), p.LineNumber(13), p.LineNumber(0))
	}
	if msg, _ := p.Message(); msg != "" || !(*redraws)[len(*redraws)-1] {
		t.Errorf("after reading: message %q, redraws %v; want the lines, scrolled", msg, *redraws)
	}
	// foo's definition begins at 3; bar is called from foo.c's line 6.
	if n := p.Notes(); len(n[3]) != 1 || n[3][0].Kind != sourceview.RegionBegin || len(n[6]) != 1 || n[6][0].Kind != sourceview.CallSite {
		t.Errorf("notes %v, want foo's beginning at 3 and bar's call at 6", n)
	}
	if p.Title() != "foo.c — region foo, lines 3–9" || !strings.HasSuffix(p.Info(), filepath.Join("foo.c")) || p.ValuesInfo() == "" {
		t.Errorf("title %q, info %q, values %q", p.Title(), p.Info(), p.ValuesInfo())
	}

	// Another target in the same file scrolls without reading again.
	v.Experiment().Regions[2].Module, v.Experiment().Regions[2].Begin = "MPI", 0
	v.Select(view.CallPane, cBar3)
	n := len(*redraws)
	p.Follow()
	if h.Held() != 0 || len(*redraws) != n+1 || !(*redraws)[n] || p.Target().Focus != 6 {
		t.Errorf("same file: %d jobs, redraws %v, target %+v; want a scroll to line 6", h.Held(), (*redraws)[n:], p.Target())
	}
}

func TestSourcePanelMissingAndNone(t *testing.T) {
	v := view.NewView(handMade())
	v.Experiment().Regions[0].Module, v.Experiment().Regions[0].Begin = "MPI", 0
	mustUpdate(t, v)
	v.Select(view.CallPane, cBar)
	p, h, _, _ := sourcePanelFixture(t, v)
	p.Show(true)
	p.Reload()
	h.Flush()
	msg, find := p.Message()
	if p.File() != nil || !find || !strings.Contains(msg, "bar.c was not found") || p.ShowsTarget() {
		t.Errorf("missing bar.c: file %v, message %q, find %v", p.File(), msg, find)
	}
	if !strings.Contains(p.Info(), "not found") {
		t.Errorf("info %q does not say why", p.Info())
	}
	v.Select(view.CallPane, cMain)
	p.Follow()
	if msg, find := p.Message(); msg != "No source location is recorded for main." || find || h.Held() != 0 {
		t.Errorf("no location: message %q, find %v, %d jobs", msg, find, h.Held())
	}
}

func TestSourcePanelDropsOldLoads(t *testing.T) {
	v := view.NewView(handMade())
	mustUpdate(t, v)
	v.Select(view.CallPane, cMain)
	p, h, _, busy := sourcePanelFixture(t, v)
	p.Show(true)
	p.Reload()
	v.Select(view.CallPane, cFoo) // before main.c is read
	p.Follow()
	h.Swap(0, 1) // main.c's read ends last
	h.Flush()
	if f := p.File(); f == nil || filepath.Base(f.Path) != "foo.c" || p.Target().File != "foo.c" || !p.ShowsTarget() {
		t.Fatalf("shows %+v for target %+v; main.c's late result must be dropped", f, p.Target())
	}
	if (*busy)[len(*busy)-1] {
		t.Errorf("busy %v after all work ended", *busy)
	}

	// Hiding drops the work on its way.
	v.Select(view.CallPane, cMain)
	p.Follow()
	p.Show(false)
	h.Flush()
	if p.File() != nil {
		t.Errorf("a hidden panel took main.c: %+v", p.File())
	}
	ran := false
	p.WhenIdle(func() { ran = true })
	if !ran {
		t.Error("WhenIdle waits for a hidden panel")
	}
}

func TestSourcePanelLargeFileHighlightsLater(t *testing.T) {
	const functions = 1000
	path, e := handmade.BigSource(t, functions)
	v := view.NewView(e)
	mustUpdate(t, v)
	v.Select(view.CallPane, view.Node{Kind: view.CnodeNode, Index: 900})
	p, h, redraws, _ := sourcePanelFixture(t, v)
	p.Show(true)
	p.Reload()
	// Run the read, hold the complete highlighting.
	h.Next()
	if f := p.File(); f == nil || f.Path != path || f.Exact || !strings.Contains(p.Info(), "highlighting") || h.Held() != 1 {
		t.Fatalf("first view: %+v, info %q, %d jobs held; want a part highlighted and the rest on its way", f, p.Info(), h.Held())
	}
	n := len(*redraws)
	h.Flush()
	if f := p.File(); !f.Exact || strings.Contains(p.Info(), "highlighting") || len(*redraws) != n+1 || (*redraws)[n] {
		t.Errorf("complete: exact %v, info %q, redraws %v", f.Exact, p.Info(), (*redraws)[n:])
	}
}

func TestSourcePanelNoExperiment(t *testing.T) {
	p, _, redraws, _ := sourcePanelFixture(t, nil)
	p.View = func() *view.View { return nil }
	p.Show(true)
	p.Reload()
	if msg, find := p.Message(); msg != "No experiment is open." || find || len(*redraws) != 1 {
		t.Errorf("message %q, find %v, redraws %v", msg, find, *redraws)
	}
}
