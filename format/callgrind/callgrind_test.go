package callgrind

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// realFiles lists the callgrind files of the shared real-data folder.
func realFiles(t *testing.T) []string {
	t.Helper()
	dir := testkit.Data(t, "callgrind")
	files, err := filepath.Glob(filepath.Join(dir, "*.callgrind"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no callgrind files in %s (%v)", dir, err)
	}
	return files
}

// annotateWith runs tool — callgrind_annotate, or cg_annotate for
// cachegrind files (which have no inclusive costs) — on path and returns,
// per function label ("file:function", as it prints them), the cost of
// every event.
func annotateWith(t *testing.T, tool, path string, inclusive bool) (events []string, rows map[string][]int64) {
	t.Helper()
	tool, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not installed (Debian package valgrind; make test installs it)", tool)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--threshold=100", "--show-percs=no", "--auto=no"}
	if strings.HasSuffix(tool, "cg_annotate") {
		args = []string{"--threshold=0", "--show-percs=no", "--auto=no"}
	} else if inclusive {
		args = append(args, "--inclusive=yes")
	} else {
		args = append(args, "--inclusive=no")
	}
	cmd := exec.Command(tool, append(args, abs)...)
	cmd.Dir = t.TempDir() // it strips the working directory from file names
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("callgrind_annotate %s: %v", path, err)
	}
	lines := strings.Split(string(out), "\n")
	rows = map[string][]int64{}
	inTable := false
	for i, line := range lines {
		if strings.HasSuffix(line, " file:function") {
			events = strings.Fields(strings.TrimSuffix(line, " file:function"))
			inTable = true
			continue
		}
		if !inTable || strings.HasPrefix(line, "----") || strings.TrimSpace(line) == "" {
			continue
		}
		rest := line
		vals := make([]int64, len(events))
		for e := range events {
			rest = strings.TrimLeft(rest, " ")
			tok, after, _ := strings.Cut(rest, " ")
			rest = after
			if tok == "." {
				continue
			}
			v, err := strconv.ParseInt(strings.ReplaceAll(tok, ",", ""), 10, 64)
			if err != nil {
				t.Fatalf("callgrind_annotate output line %d: %q", i+1, line)
			}
			vals[e] = v
		}
		label := strings.TrimSpace(rest)
		if _, dup := rows[label]; dup {
			t.Fatalf("callgrind_annotate lists %q twice", label)
		}
		rows[label] = vals
	}
	if events == nil {
		t.Fatalf("no function table in the output of callgrind_annotate %s", path)
	}
	return events, rows
}

// labels maps callgrind_annotate's labels to region indices: "file:fn",
// followed by " [object]" for functions that have one.
func labels(e *model.Experiment) map[string]int {
	out := map[string]int{}
	for r := range e.Regions {
		reg := &e.Regions[r]
		label := reg.Module + ":" + reg.Name
		out[label] = r
		for _, a := range reg.Attrs {
			if a.Key == "object" {
				out[label+" ["+a.Value+"]"] = r
			}
		}
	}
	return out
}

// TestEqualsCallgrindAnnotate compares every function's exclusive and
// inclusive cost of every event with callgrind_annotate's.
func TestEqualsCallgrindAnnotate(t *testing.T) {
	for _, path := range append(realFiles(t), filepath.Join("testdata", "handmade.callgrind")) {
		t.Run(filepath.Base(path), func(t *testing.T) { checkAnnotate(t, "callgrind_annotate", path) })
	}
}

// checkAnnotate compares every function's exclusive and (for callgrind
// files) inclusive cost of every event of the file at path with what
// tool (callgrind_annotate or cg_annotate) prints, and returns how many
// values it compared.
func checkAnnotate(t *testing.T, tool, path string) int {
	t.Helper()
	e, err := Read(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	compared := 0
	byLabel := labels(e)
	modes := []bool{false, true}
	if strings.HasSuffix(tool, "cg_annotate") {
		modes = modes[:1]
	}
	for _, inclusive := range modes {
		events, rows := annotateWith(t, tool, path, inclusive)
		seen := map[int]bool{}
		for label, want := range rows {
			r, ok := byLabel[label]
			if !ok {
				t.Errorf("inclusive=%t: no region for %s's %q", inclusive, tool, label)
				continue
			}
			seen[r] = true
			for i, ev := range events {
				m := e.MetricByName(ev)
				if m < 0 {
					t.Fatalf("no metric %s", ev)
				}
				got := regionValue(t, e, m, r, inclusive)
				compared++
				if got != float64(want[i]) {
					t.Errorf("inclusive=%t %s %s: %.0f, %s says %d", inclusive, label, ev, got, tool, want[i])
				}
			}
		}
		for r := range e.Regions {
			if seen[r] {
				continue
			}
			for m := range e.Metrics {
				if e.Metrics[m].UniqName == "visits" {
					continue
				}
				if v := regionValue(t, e, m, r, inclusive); v != 0 {
					t.Errorf("inclusive=%t region %s:%s has %s %g, %s does not list it",
						inclusive, e.Regions[r].Module, e.Regions[r].Name, e.Metrics[m].UniqName, v, tool)
				}
			}
		}
	}
	return compared
}

// regionValue is region r's exclusive value of metric m (its flat-forest
// cnode summed over locations) or the call graph's inclusive value.
func regionValue(t *testing.T, e *model.Experiment, m, r int, inclusive bool) float64 {
	t.Helper()
	if inclusive {
		v, ok := e.CallGraph.RegionInclusive(m, r)
		if !ok {
			t.Fatalf("no inclusive value of %s for region %d", e.Metrics[m].UniqName, r)
		}
		return v
	}
	excl, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	regExcl, _ := e.FlatProfile(excl, e.Metrics[m].Aggregation)
	return regExcl[r]
}

// TestHandmade checks testdata/handmade.callgrind against values worked out
// by hand from the file.
func TestHandmade(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "handmade.callgrind"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	var locs []string
	for l := range e.Locations {
		locs = append(locs, e.Location(l).Name)
	}
	if got := strings.Join(locs, "; "); got != "thread 1, part 1; thread 2, part 2" {
		t.Errorf("locations %q", got)
	}
	if p := e.System[e.System[e.Locations[0]].Parent]; p.Name != "./prog (pid 42)" || p.Kind != model.Group {
		t.Errorf("process %q", p.Name)
	}
	region := map[string]int{}
	for r, reg := range e.Regions {
		region[reg.Module+":"+reg.Name] = r
	}
	ir, dr, sum, visits := e.MetricByName("Ir"), e.MetricByName("Dr"), e.MetricByName("Sum"), e.MetricByName("visits")
	if ir < 0 || dr < 0 || sum < 0 || visits < 0 {
		t.Fatalf("metrics %v", e.Metrics)
	}
	if d := e.Metrics[ir].DispName; d != "Instruction Fetches" {
		t.Errorf("Ir display name %q", d)
	}
	// exclusive value per location: [thread 1, thread 2]
	excl := []struct {
		fn            string
		begin         int
		ir, dr, calls [2]float64
	}{
		{"main.c:main", 10, [2]float64{9, 0}, [2]float64{1, 0}, [2]float64{0, 0}},
		{"inline.h:main", 3, [2]float64{7, 0}, [2]float64{2, 0}, [2]float64{0, 0}},
		{"main.c:work", 20, [2]float64{111, 50}, [2]float64{11, 5}, [2]float64{2, 0}},
		{"lib.c:helper", 30, [2]float64{120, 90}, [2]float64{12, 9}, [2]float64{4, 1}},
	}
	if len(e.Regions) != len(excl) || len(e.Cnodes) != len(excl) || len(e.CnodeRoots) != len(excl) {
		t.Errorf("%d regions, %d cnodes, %d roots; want %d each", len(e.Regions), len(e.Cnodes), len(e.CnodeRoots), len(excl))
	}
	value := func(m, c, l int) float64 {
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		return b.Value(c, l)
	}
	for _, w := range excl {
		r, ok := region[w.fn]
		if !ok {
			t.Errorf("no region %s", w.fn)
			continue
		}
		if e.Regions[r].Begin != w.begin {
			t.Errorf("%s begins at line %d, want %d", w.fn, e.Regions[r].Begin, w.begin)
		}
		c := -1
		for i, cn := range e.Cnodes {
			if cn.Region == r {
				c = i
			}
		}
		for l := 0; l < 2; l++ {
			got := [4]float64{value(ir, c, l), value(dr, c, l), value(sum, c, l), value(visits, c, l)}
			want := [4]float64{w.ir[l], w.dr[l], w.ir[l] + 2*w.dr[l], w.calls[l]}
			if got != want {
				t.Errorf("%s thread %d: Ir, Dr, Sum, visits = %v, want %v", w.fn, l+1, got, want)
			}
		}
	}
	arcs := map[string]string{}
	for _, a := range e.CallGraph.Arcs {
		key := e.Regions[a.Caller].Name + "->" + e.Regions[a.Callee].Name
		arcs[key] = strconv.FormatInt(a.Calls, 10) + " " + strconv.FormatFloat(a.Values[ir], 'f', -1, 64) + " " + strconv.FormatFloat(a.Values[dr], 'f', -1, 64)
	}
	wantArcs := map[string]string{"main->work": "2 200 20", "main->helper": "1 50 5", "work->helper": "4 140 14"}
	if len(arcs) != len(wantArcs) {
		t.Errorf("arcs %v, want %v", arcs, wantArcs)
	}
	for k, w := range wantArcs {
		if arcs[k] != w {
			t.Errorf("arc %s: %q, want %q", k, arcs[k], w)
		}
	}
	for fn, w := range map[string][2]float64{"main.c:main": {259, 26}, "inline.h:main": {7, 2}, "main.c:work": {200, 20}, "lib.c:helper": {190, 19}} {
		gi, _ := e.CallGraph.RegionInclusive(ir, region[fn])
		gd, _ := e.CallGraph.RegionInclusive(dr, region[fn])
		gs, _ := e.CallGraph.RegionInclusive(sum, region[fn])
		if gi != w[0] || gd != w[1] || gs != w[0]+2*w[1] {
			t.Errorf("%s inclusive Ir, Dr, Sum = %g, %g, %g, want %g, %g, %g", fn, gi, gd, gs, w[0], w[1], w[0]+2*w[1])
		}
	}
}
