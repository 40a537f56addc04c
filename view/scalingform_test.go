package view

import (
	"testing"

	"cubeview/analysis"
)

// TestScalingFields: the shared fields start at strong scaling of
// inclusive values compared by their mean, and say what is chosen.
func TestScalingFields(t *testing.T) {
	s := NewScalingFields()
	if got := s.Spec("time", XProcesses, ""); got != (ScalingSpec{Metric: "time", X: XProcesses, Basis: analysis.BasisMean}) {
		t.Errorf("defaults: %+v", got)
	}
	f := &Form{Fields: []*Field{s.Metric, s.Basis, s.Weak, s.Exclusive}}
	if err := f.Set(s.Basis, BasisNames[analysis.BasisMax]); err != nil {
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
