package analysisview

import (
	"image"
	"slices"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/document"
	"cubeview/form"
	"cubeview/internal/testkit"
	"cubeview/numfmt"
)

func TestScalingForm(t *testing.T) {
	docs := perfDiffDocs(t)
	result := &document.Doc{Name: "a − b", Expression: "a − b", Exp: handMade()}
	docs = append(docs, result)
	var runs [][]*document.Doc
	var specs []ScalingSpec
	f := NewScalingForm(docs, docs[1], "visits", func(d []*document.Doc, s ScalingSpec) {
		runs, specs = append(runs, d), append(specs, s)
	})
	// b first; the files checked, the result not.
	if got := f.Experiments.Options; !slices.Equal(got, []string{"b.cubex", "a.cubex", "c.cubex", "a − b"}) {
		t.Fatalf("experiments %q, want b.cubex first", got)
	}
	if !slices.Equal(f.checked(), []*document.Doc{docs[1], docs[0], docs[2]}) {
		t.Fatalf("checked %v, want b, a, c", f.checked())
	}
	if f.Metric.Metric() != "visits" || !slices.Contains(f.Metric.Uniq(), "extra") {
		t.Errorf("metric %q of %q", f.Metric.Metric(), f.Metric.Uniq())
	}
	if !strings.HasPrefix(f.Preview.Text, "x = processes — b.cubex: ") {
		t.Errorf("preview %q", f.Preview.Text)
	}
	// Unchecking c (third) drops its metric; moving a up reorders.
	f.SetChecked(f.Experiments, 2, false)
	if slices.Contains(f.Metric.Uniq(), "extra") {
		t.Errorf("c unchecked, still offered %q", f.Metric.Uniq())
	}
	f.Move(f.Experiments, 1, -1)
	if got := f.checked(); !slices.Equal(got, []*document.Doc{docs[0], docs[1]}) {
		t.Errorf("after moving a up: checked %v", got)
	}
	_ = f.Set(f.X, XSourceNames[XValues])
	_ = f.Set(f.XText, "16, 32")
	if !strings.Contains(f.Preview.Text, "the 2 checked experiments") {
		t.Errorf("preview %q", f.Preview.Text)
	}
	f.SetOn(f.Options.Weak, true)
	_ = f.Set(f.Options.Basis, basisNames[analysis.BasisMax])
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	want := ScalingSpec{Metric: "visits", X: XValues, XText: "16, 32", Weak: true, Basis: analysis.BasisMax}
	if len(runs) != 1 || !slices.Equal(runs[0], []*document.Doc{docs[0], docs[1]}) || specs[0] != want {
		t.Errorf("ran %v with %+v, want a, b with %+v", runs, specs, want)
	}
	f.CheckOnly(docs[2])
	if err := f.Confirmed(); err == nil || len(runs) != 1 {
		t.Errorf("one experiment: %v, %d runs", err, len(runs))
	}
	if got := f.Experiments.Options[0]; got != "c.cubex" || !f.Experiments.Checked[0] || f.Experiments.Checked[1] {
		t.Errorf("CheckOnly(c): %q %v", f.Experiments.Options, f.Experiments.Checked)
	}
}

func TestScalingStudyDocs(t *testing.T) {
	trials := docTrials([]*document.Doc{{Name: "one", Exp: handMade()}, {Name: "two", Exp: handMade()}})
	rep, img, err := ScalingStudy(trials, ScalingSpec{Metric: "time", X: XValues, XText: "1, 2"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != "x 1: one, 2: two" || img.Bounds().Dx() != ScalingPlotW || img.Bounds().Dy() != ScalingPlotH {
		t.Errorf("runs %q, plot %v", rep.Runs, img.Bounds())
	}
	// Trials given as x = 2, 1: the study's documents in the order of x.
	docs := []*document.Doc{{Name: "big", Exp: handMade()}, {Name: "small", Exp: handMade()}, {Name: "other", Exp: handMade()}}
	rep, _, err = ScalingStudy(docTrials(docs[:2]), ScalingSpec{Metric: "time", X: XValues, XText: "2, 1"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.StudyDocs(docs); !slices.Equal(got, []*document.Doc{docs[1], docs[0]}) {
		t.Errorf("StudyDocs = %v, want small, big", got)
	}
	// RunScaling: progress while the work is held back, the report after.
	h := &testkit.HeldRunner{}
	var busy []string
	var got *ScalingReport
	RunScaling(h.Run, func(what string) func() {
		busy = append(busy, what)
		return func() { busy = append(busy, "stopped") }
	}, docs[:2], ScalingSpec{Metric: "time", X: XValues, XText: "2, 1"}, numfmt.Cube(), func(r *ScalingReport, img image.Image, err error) {
		if err != nil || img == nil {
			t.Fatalf("RunScaling: %v, plot %v", err, img)
		}
		got = r
	})
	if len(busy) != 1 || busy[0] != "Scaling of 2 experiments …" || got != nil {
		t.Fatalf("while running: busy %q, report %v", busy, got)
	}
	h.Flush()
	if len(busy) != 2 || got == nil || got.Runs != rep.Runs {
		t.Errorf("after running: busy %q, report %v", busy, got)
	}
	if rep.WindowTitle() != "cubeview — scaling: time" || !strings.HasPrefix(rep.Hint(), "x 1: small, 2: big. Click a call path") {
		t.Errorf("window title %q, hint %q", rep.WindowTitle(), rep.Hint())
	}
	if _, _, err := ScalingStudy(trials, ScalingSpec{Metric: "time", X: XValues, XText: "1"}, numfmt.Cube()); err == nil {
		t.Error("one x for two trials accepted")
	}
}

// TestScalingFields: the shared fields start at strong scaling of
// inclusive values compared by their mean, and say what is chosen.
func TestScalingFields(t *testing.T) {
	s := NewScalingFields()
	if got := s.Spec("time", XProcesses, ""); got != (ScalingSpec{Metric: "time", X: XProcesses, Basis: analysis.BasisAuto}) {
		t.Errorf("defaults: %+v", got)
	}
	f := &form.Form{Fields: []*form.Field{s.Metric, s.Basis, s.Weak, s.Exclusive}}
	if err := f.Set(s.Basis, basisNames[analysis.BasisMax]); err != nil {
		t.Fatal(err)
	}
	f.SetOn(s.Weak, true)
	f.SetOn(s.Exclusive, true)
	want := ScalingSpec{Metric: "visits", X: XGiven, XText: "procs", Weak: true, Exclusive: true, Basis: analysis.BasisMax}
	if got := s.Spec("visits", XGiven, "procs"); got != want {
		t.Errorf("spec %+v, want %+v", got, want)
	}
	if err := f.Set(s.Basis, "median"); err == nil {
		t.Error("a basis that is not offered was taken")
	}
}
