package ui

import (
	"testing"
)

// TestTAUFlatProfileOpensFlat: TAU profiles without call paths (a forest
// of roots, TAU's inclusive values beside it) open in the flat profile,
// as gprof's and callgrind's do; TAU profiles with call paths in the call
// tree.
func TestTAUFlatProfileOpensFlat(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		flat bool
	}{
		{"tau/tau2cube-profile1", true},
		{"tau/openmp-64threads", false},
	} {
		a := newTestApp(t)
		w := openWindow(t, a, dataFile(t, tt.dir))
		if got := w.view.Flat(); got != tt.flat {
			e := w.view.Experiment()
			t.Errorf("%s (%d call-tree roots of %d call paths) opens flat: %v, want %v", tt.dir, len(e.CnodeRoots), len(e.Cnodes), got, tt.flat)
		}
		if got := w.flatCheck.Checked; got != w.view.Flat() {
			t.Errorf("%s: the Flat profile box is %v", tt.dir, got)
		}
	}
}
