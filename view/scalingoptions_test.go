package view

import (
	"testing"

	"cubeview/analysis"
)

// TestScalingOptionsShared: the option fields both scaling dialogs share
// start at strong scaling of inclusive values compared by their mean,
// and set what is chosen.
func TestScalingOptionsShared(t *testing.T) {
	o := NewScalingOptions()
	s := ScalingSpec{Metric: "time", X: XProcesses}
	o.Apply(&s)
	if s != (ScalingSpec{Metric: "time", X: XProcesses, Basis: analysis.BasisMean}) {
		t.Errorf("defaults: %+v", s)
	}
	f := &Form{Fields: []*Field{o.Basis, o.Weak, o.Exclusive}}
	if err := f.Set(o.Basis, BasisNames[analysis.BasisMax]); err != nil {
		t.Fatal(err)
	}
	f.SetOn(o.Weak, true)
	f.SetOn(o.Exclusive, true)
	s = ScalingSpec{Metric: "visits", X: XGiven, XText: "procs"}
	o.Apply(&s)
	want := ScalingSpec{Metric: "visits", X: XGiven, XText: "procs", Weak: true, Exclusive: true, Basis: analysis.BasisMax}
	if s != want {
		t.Errorf("spec %+v, want %+v", s, want)
	}
	if err := f.Set(o.Basis, "median"); err == nil {
		t.Error("a basis that is not offered was taken")
	}
}
