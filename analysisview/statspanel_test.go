package analysisview

import (
	"image"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/view"
)

// statsShown records what a StatsPanel gave its widgets.
type statsShown struct {
	reps     []*StatsReport
	sel, top []image.Image
	messages []string
	busy     []string
	idle     int
}

func statsPanelFixture(v *view.View, visible *bool) (*StatsPanel, *testkit.HeldRunner, *statsShown) {
	h := &testkit.HeldRunner{}
	s := &statsShown{}
	p := &StatsPanel{
		Run:     h.Run,
		View:    func() *view.View { return v },
		Visible: func() bool { return *visible },
		Busy:    func(text string) { s.busy = append(s.busy, text) },
		Idle:    func() { s.idle++ },
		Show: func(rep *StatsReport, sel, top image.Image) {
			s.reps, s.sel, s.top = append(s.reps, rep), append(s.sel, sel), append(s.top, top)
		},
		Message: func(text string) { s.messages = append(s.messages, text) },
	}
	return p, h, s
}

func TestStatsPanelFollows(t *testing.T) {
	v := view.NewView(handMade())
	v.Select(view.CallPane, cFoo)
	mustUpdate(t, v)
	visible := false
	p, h, s := statsPanelFixture(v, &visible)
	p.Follow()
	if h.Held() != 0 {
		t.Fatal("a hidden panel computes")
	}
	visible = true
	p.Follow()
	if len(s.busy) != 1 || s.busy[0] != "Statistics of main/foo …" || len(s.reps) != 0 {
		t.Fatalf("busy %q, %d shown before the work ran", s.busy, len(s.reps))
	}
	h.Flush()
	if len(s.reps) != 1 || s.idle != 1 || p.Report() != s.reps[0] || len(s.reps[0].Top) == 0 {
		t.Fatalf("after the work: %d shown, idle %d, top %v", len(s.reps), s.idle, p.Report())
	}
	if s.sel[0].Bounds().Dx() != selectedPlotW || s.top[0] == nil || s.top[0].Bounds().Dx() != topPlotW {
		t.Errorf("plots %v, %v", s.sel[0].Bounds(), s.top[0])
	}
	p.Follow() // nothing changed
	if h.Held() != 0 || len(s.busy) != 1 {
		t.Error("an unchanged selection computed again")
	}
	// Another call path of the same metric keeps the top call paths.
	v.Select(view.CallPane, cBar)
	mustUpdate(t, v)
	p.Follow()
	h.Flush()
	if len(s.reps) != 2 || s.top[1] != s.top[0] || len(s.reps[1].Top) != len(s.reps[0].Top) || s.reps[1].TopTitle != s.reps[0].TopTitle {
		t.Errorf("second report: top plot kept %v, top %d of %d", s.top[1] == s.top[0], len(s.reps[1].Top), len(s.reps[0].Top))
	}
	// A newer selection drops the older result; so does hiding.
	v.Select(view.CallPane, cMain)
	mustUpdate(t, v)
	p.Follow()
	v.Select(view.CallPane, cFoo2)
	mustUpdate(t, v)
	p.Follow()
	h.Swap(0, 1)
	h.Flush()
	if len(s.reps) != 3 || s.reps[2].Title != p.Report().Title || p.Report().Title == s.reps[1].Title {
		t.Fatalf("%d reports shown; the late one must be dropped", len(s.reps))
	}
	v.Select(view.CallPane, cBar3)
	mustUpdate(t, v)
	p.Follow()
	p.Drop()
	h.Flush()
	if len(s.reps) != 3 || s.idle != 5 {
		t.Errorf("dropped work shown (%d reports) or left busy (%d idle)", len(s.reps), s.idle)
	}
	// Reset computes the same selection again, with its top call paths.
	p.Reset()
	p.Follow()
	h.Flush()
	if len(s.reps) != 4 || s.top[3] == s.top[2] {
		t.Errorf("after Reset: %d reports, top plot redrawn %v", len(s.reps), s.top[3] != s.top[2])
	}
}

func TestStatsPanelMessage(t *testing.T) {
	v := view.NewView(handMade())
	v.Experiment().Metrics[0].Unavailable = "not recorded"
	v.Select(view.CallPane, cFoo)
	mustUpdate(t, v)
	visible := true
	p, h, s := statsPanelFixture(v, &visible)
	p.Follow()
	if len(s.messages) != 1 || s.messages[0] != "statistics: metric Time has no values: not recorded" || h.Held() != 0 {
		t.Errorf("messages %q, %d jobs", s.messages, h.Held())
	}
}
