package algebra

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestProgramRoot finds the root that stands for the program: above main
// (through startup frames and thread roots), else the single root, else
// a tool's pseudo-root.
func TestProgramRoot(t *testing.T) {
	tests := []struct {
		name   string
		cnodes []string
		root   string // "" for none
	}{
		{"Score-P", []string{"cpi", "cpi/main", "cpi/main/MPI_Init"}, "cpi"},
		{"HPCToolkit threads", []string{"<application thread>", "<application thread>/poll", "<main thread>", "<main thread>/main"}, "<main thread>"},
		{"Caliper samples", []string{"log2", "_start", "_start/__libc_start_main", "_start/__libc_start_main/main", "pthread_spin_lock"}, "_start"},
		{"TAU without main", []string{".TAU application", ".TAU application/MPI_Init()"}, ".TAU application"},
		{"TAU threads", []string{".TAU application", "OpenMP_Parallel_Region", ".TAU application/x"}, ".TAU application"},
		{"flat", []string{"a", "b", "c"}, ""},
		{"main too deep", []string{"a", "a/b", "a/b/c", "a/b/c/d", "a/b/c/d/e", "a/b/c/d/e/main", "z"}, ""},
	}
	for _, tt := range tests {
		e := build(t, spec{source: tt.name, metrics: []string{"time sec DOUBLE"}, cnodes: tt.cnodes, system: []string{"m/n/0/0"}})
		got := ""
		if c, _ := programRoot(e); c >= 0 {
			got = e.CnodeRegion(c).Name
		}
		if got != tt.root {
			t.Errorf("%s: program root %q, want %q", tt.name, got, tt.root)
		}
	}
}

// flatTAU writes a copy of TAU's cpi profile without its call-path
// events: the flat profile TAU writes without TAU_CALLPATH.
func flatTAU(t *testing.T) string {
	t.Helper()
	src := testkit.Data(t, "tau", "cpi-mpi")
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(src, "profile.*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no TAU profiles in %s (%v)", src, err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		var n int
		var head string
		if _, err := fmt.Sscanf(lines[0], "%d %s", &n, &head); err != nil {
			t.Fatalf("%s: first line %q", f, lines[0])
		}
		var out []string
		kept := 0
		for i, l := range lines {
			if i >= 2 && i < 2+n {
				if strings.Contains(l, "=>") {
					continue
				}
				kept++
			}
			out = append(out, l)
		}
		out[0] = fmt.Sprintf("%d %s", kept, head)
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFlatProfileWithTree compares TAU's flat profile of cpi with Score-P's
// call tree: the tree is compared by its flat profile, so every region is
// one call path, and each region's difference is Score-P's own time of
// the region (over all its call paths) minus TAU's.
func TestFlatProfileWithTree(t *testing.T) {
	tree := openReal(t, "cube4/cpi/profile.cubex")
	flat, err := format.Open(flatTAU(t))
	if err != nil {
		t.Fatal(err)
	}
	if !isFlatProfile(flat) {
		t.Fatalf("the TAU profile without call paths has %d cnodes, %d roots", len(flat.Cnodes), len(flat.CnodeRoots))
	}
	ig, err := Integrate([]*model.Experiment{tree, flat}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ig.Report.Flat) != 1 || !strings.Contains(ig.Report.Flat[0], "flat profile") {
		t.Errorf("the summary does not say the tree was flattened: %q", ig.Report.Flat)
	}
	d, err := Arithmetic(ig, OpDiff)
	if err != nil {
		t.Fatal(err)
	}
	res := ig.Result
	if len(res.CnodeRoots) != len(res.Cnodes) {
		t.Fatalf("the result is no flat profile: %d cnodes, %d roots", len(res.Cnodes), len(res.CnodeRoots))
	}
	rt := res.MetricByName("time")
	ownOf := func(e *model.Experiment, name string) float64 {
		excl, err := e.CallTreeValues(model.MetricSel{Metric: e.MetricNamed("time"), Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for c := range e.Cnodes {
			if CanonicalRegionName(e.CnodeRegion(c).Name) == name {
				sum += excl[c]
			}
		}
		return sum
	}
	vals, err := d.CallTreeValues(model.MetricSel{Metric: rt, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	matched := 0
	for c := range res.Cnodes {
		name := CanonicalRegionName(res.CnodeRegion(c).Name)
		if !strings.HasPrefix(name, "MPI_") {
			continue
		}
		if res.Cnodes[c].Present.Has(0) && res.Cnodes[c].Present.Has(1) {
			matched++
		}
		got[name] += vals[c]
	}
	for name, v := range got {
		want := ownOf(tree, name) - ownOf(flat, name)
		if math.Abs(v-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: %g, want %g", name, v, want)
		}
	}
	if matched < 6 { // Init, Comm_size, Comm_rank, Bcast, Reduce, Finalize
		t.Errorf("%d MPI regions matched, want 6", matched)
	}
}

// TestRootNameTakenInOperand: the root of b takes a's root name, which b
// also has as another region (listed first); the roots still match.
func TestRootNameTakenInOperand(t *testing.T) {
	a := build(t, spec{source: "a", metrics: []string{"time sec DOUBLE"}, cnodes: []string{"app", "app/solve"}, system: []string{"m/n/0/0"}})
	b := build(t, spec{source: "b", metrics: []string{"time sec DOUBLE"}, cnodes: []string{"run", "run/app"}, system: []string{"m/n/0/0"},
		regions: []model.Region{{ID: 0, Name: "app", Module: "m.c", Begin: -1, End: -1}}})
	ig, err := Integrate([]*model.Experiment{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ig.RootsMatched == "" || len(ig.Result.CnodeRoots) != 1 {
		t.Errorf("roots matched %q, %d result roots; want one", ig.RootsMatched, len(ig.Result.CnodeRoots))
	}
}
