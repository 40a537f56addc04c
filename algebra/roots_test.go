package algebra

import (
	"strings"
	"testing"

	"cubeview/model"
)

// Two builds of one program: the root is named after the executable, and
// solve was renamed solve_new in the second build.
func buildV1(t testing.TB) *model.Experiment {
	return build(t, spec{
		source:  "v1",
		metrics: []string{"time sec DOUBLE"},
		cnodes:  []string{"app_v1", "app_v1/solve", "app_v1/io"},
		system:  []string{"m/n/0/0", "m/n/1/0"},
		data:    map[string]map[string][]float64{"time": {"app_v1": {1, 1}, "app_v1/solve": {10, 12}, "app_v1/io": {3, 4}}},
	})
}

func buildV2(t testing.TB) *model.Experiment {
	return build(t, spec{
		source:  "v2",
		metrics: []string{"time sec DOUBLE"},
		cnodes:  []string{"app_v2", "app_v2/solve_new", "app_v2/io"},
		system:  []string{"m/n/0/0", "m/n/1/0"},
		data:    map[string]map[string][]float64{"time": {"app_v2": {1, 2}, "app_v2/solve_new": {6, 7}, "app_v2/io": {3, 1}}},
	})
}

func mustRename(t testing.TB, s string) Rename {
	t.Helper()
	r, err := ParseRename(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMatchSingleRoots(t *testing.T) {
	tests := []struct {
		name   string
		opt    Options
		want   map[string][]float64 // diff(v1, v2) per location
		shared int                  // call paths in both operands
		roots  bool                 // RootsMatched is reported
	}{
		{"roots matched", Options{}, map[string][]float64{
			"time app_v1":           {0, -1},
			"time app_v1/solve":     {10, 12},
			"time app_v1/solve_new": {-6, -7},
			"time app_v1/io":        {0, 3},
		}, 2, true},
		{"roots matched and solve renamed", Options{Renames: []Rename{mustRename(t, "solve_new=solve")}}, map[string][]float64{
			"time app_v1":       {0, -1},
			"time app_v1/solve": {4, 5},
			"time app_v1/io":    {0, 3},
		}, 3, true},
		{"renames alone", Options{StrictRoots: true, Renames: []Rename{mustRename(t, "app_v[0-9]=app"), mustRename(t, "(solve)_new=$1")}}, map[string][]float64{
			"time app":       {0, -1},
			"time app/solve": {4, 5},
			"time app/io":    {0, 3},
		}, 3, false},
		{"strict roots", Options{StrictRoots: true}, map[string][]float64{
			"time app_v1":           {1, 1},
			"time app_v1/solve":     {10, 12},
			"time app_v1/io":        {3, 4},
			"time app_v2":           {-1, -2},
			"time app_v2/solve_new": {-6, -7},
			"time app_v2/io":        {-3, -1},
		}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Diff(buildV1(t), buildV2(t), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			compareValues(t, tt.name, flatten(t, d), expect([]string{"0.0", "1.0"}, tt.want), 0)
			shared := 0
			for c := range d.Cnodes {
				if d.Cnodes[c].Present == 0b11 {
					shared++
				}
			}
			if shared != tt.shared {
				t.Errorf("%d call paths in both operands, want %d", shared, tt.shared)
			}
			p, ok, err := ReadProvenance(d)
			if !ok || err != nil {
				t.Fatalf("provenance: %v, %v", ok, err)
			}
			if (p.Roots != "") != tt.roots || tt.roots && (!strings.Contains(p.Roots, `"app_v1"`) || !strings.Contains(p.Roots, `"app_v2"`)) {
				t.Errorf("roots record %q, want one naming both roots: %v", p.Roots, tt.roots)
			}
			// The rules are in the provenance and read back.
			if p.Opts.String() != tt.opt.String() || len(p.Opts.Renames) != len(tt.opt.Renames) {
				t.Errorf("options recorded %q, want %q", p.Options, tt.opt.String())
			}
		})
	}
}

// TestRootsNotMatchedWithSeveralRoots: an operand with two roots keeps the
// ordinary rule.
func TestRootsNotMatchedWithSeveralRoots(t *testing.T) {
	two := build(t, spec{
		source:  "two",
		metrics: []string{"time sec DOUBLE"},
		cnodes:  []string{"app_v2", "init"},
		system:  []string{"m/n/0/0", "m/n/1/0"},
		data:    map[string]map[string][]float64{"time": {"app_v2": {1, 2}, "init": {1, 1}}},
	})
	ig, err := Integrate([]*model.Experiment{buildV1(t), two}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ig.RootsMatched != "" || len(ig.Result.CnodeRoots) != 3 {
		t.Errorf("roots matched %q, %d result roots; want none matched and 3 roots", ig.RootsMatched, len(ig.Result.CnodeRoots))
	}
}

// TestMatchRootsRealRuns compares a LULESH run with another whose root
// region was renamed (as Score-P does for an executable of another name):
// by default the difference is the one of the unrenamed pair; with strict
// roots nothing matches.
func TestMatchRootsRealRuns(t *testing.T) {
	a := openReal(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex")
	b := openReal(t, "cube4/lulesh/lulesh.p27.size30.r1.cubex")
	renamed := openReal(t, "cube4/lulesh/lulesh.p27.size30.r1.cubex")
	if len(renamed.CnodeRoots) != 1 {
		t.Fatalf("%d roots", len(renamed.CnodeRoots))
	}
	root := &renamed.Regions[renamed.Cnodes[renamed.CnodeRoots[0]].Region]
	oldName := root.Name
	root.Name = oldName + "_optimized"

	want, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Diff(a, renamed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	compareValues(t, "diff with a renamed root", flatReal(t, got), flatReal(t, want), 0)
	if len(got.Cnodes) != len(want.Cnodes) {
		t.Errorf("%d call paths, want %d", len(got.Cnodes), len(want.Cnodes))
	}
	p, _, _ := ReadProvenance(got)
	if !strings.Contains(p.Roots, oldName+"_optimized") {
		t.Errorf("roots record %q does not name the renamed root", p.Roots)
	}

	strict, err := Diff(a, renamed, Options{StrictRoots: true})
	if err != nil {
		t.Fatal(err)
	}
	for c := range strict.Cnodes {
		if strict.Cnodes[c].Present == 0b11 {
			t.Fatalf("with strict roots, call path %s is in both operands", strict.CallPath(c))
		}
	}
	if len(strict.Cnodes) != len(a.Cnodes)+len(renamed.Cnodes) {
		t.Errorf("with strict roots %d call paths, want %d + %d", len(strict.Cnodes), len(a.Cnodes), len(renamed.Cnodes))
	}
	// The same through a rename rule.
	viaRule, err := Diff(a, renamed, Options{StrictRoots: true, Renames: []Rename{mustRename(t, ".*_optimized="+oldName)}})
	if err != nil {
		t.Fatal(err)
	}
	compareValues(t, "diff with a rename rule", flatReal(t, viaRule), flatReal(t, want), 0)
}
