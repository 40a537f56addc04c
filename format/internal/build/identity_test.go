package build

import (
	"testing"

	"cubeview/model"
)

func TestIdentify(t *testing.T) {
	e := &model.Experiment{Metrics: []model.Metric{
		{UniqName: "TIME", Descr: "TAU metric TIME"},
		{UniqName: "PAPI_TOT_CYC"},
		{UniqName: "PAPI_native::x"},
		{UniqName: "other"},
		{UniqName: "T2", Attrs: []model.Attr{{Key: "k", Value: "v"}, {Key: IdentityAttr, Value: "CPUTIME"}}},
	}}
	Identify(e, "TAU", map[string]string{"TIME": model.IdentityTime})
	want := []struct{ id, descr string }{
		{"time", "TAU TIME (wall clock); TAU metric TIME"},
		{"PAPI_TOT_CYC", "TAU PAPI_TOT_CYC (PAPI preset counter)"},
		{"", ""},
		{"", ""},
		{"cputime", ""}, // from the attribute a written file keeps
	}
	for i, w := range want {
		m := &e.Metrics[i]
		if m.Identity != w.id || m.Descr != w.descr {
			t.Errorf("%s: identity %q, description %q; want %q, %q", m.UniqName, m.Identity, m.Descr, w.id, w.descr)
		}
	}
	if a := e.Metrics[4].Attrs; len(a) != 1 || a[0].Key != "k" {
		t.Errorf("attributes after Identify: %v", a)
	}
	Identify(e, "TAU", nil) // again: nothing added twice
	if d := e.Metrics[0].Descr; d != "TAU TIME (wall clock); TAU metric TIME" {
		t.Errorf("description after a second Identify: %q", d)
	}
	// written back: only where the name does not imply the identity
	names := map[string]string{"TIME": model.IdentityTime}
	if a := IdentityAttrs(&e.Metrics[0], names); len(a) != 0 {
		t.Errorf("TIME written with %v", a)
	}
	if a := IdentityAttrs(&e.Metrics[1], names); len(a) != 0 {
		t.Errorf("PAPI_TOT_CYC written with %v", a)
	}
	if a := IdentityAttrs(&e.Metrics[4], names); len(a) != 2 || a[1] != (model.Attr{Key: IdentityAttr, Value: "cputime"}) {
		t.Errorf("T2 written with %v", a)
	}
}
