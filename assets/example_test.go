package assets_test

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"path"
	"regexp"
	"strings"
	"testing"

	"cubeview/assets"
	"cubeview/assets/internal/example"
	"cubeview/model"
)

// pair is the example's two experiments, from one origin.
type pair struct {
	origin        string
	before, after *model.Experiment
}

// examples returns the example experiments as the generator builds them
// in memory and as the bundled files hold them.
func examples(t *testing.T) []pair {
	t.Helper()
	return append([]pair{{"generated", example.Build(example.Before), example.Build(example.After)}}, bundled(t)...)
}

func total(t *testing.T, e *model.Experiment, uniq string) float64 {
	t.Helper()
	m := e.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("%s: no metric %q", e.Source, uniq)
	}
	v, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestStory(t *testing.T) {
	for _, p := range examples(t) {
		t.Run(p.origin, func(t *testing.T) {
			for _, e := range []*model.Experiment{p.before, p.after} {
				if err := e.Validate(); err != nil {
					t.Fatalf("%s: %v", e.Source, err)
				}
			}
			tests := []struct {
				metric   string
				min, max float64 // bounds of after / before
			}{
				{"mpi_barrier_wait", 0, 0.5},         // barrier waiting largely disappears
				{"mpi_latesender", 1.5, math.Inf(1)}, // point-to-point waiting grows
				{"mpi_wait_nxn", 1.5, math.Inf(1)},   // all-to-all waiting grows
				{"time", 0.8, 0.98},                  // a modest overall gain
			}
			for _, tt := range tests {
				b, a := total(t, p.before, tt.metric), total(t, p.after, tt.metric)
				if b <= 0 {
					t.Errorf("%s before = %g, want > 0", tt.metric, b)
					continue
				}
				if r := a / b; r < tt.min || r > tt.max {
					t.Errorf("%s: after/before = %g/%g = %.3f, want in [%g, %g]", tt.metric, a, b, r, tt.min, tt.max)
				}
			}
		})
	}
}

func TestSystemTree(t *testing.T) {
	for _, p := range examples(t) {
		for _, e := range []*model.Experiment{p.before, p.after} {
			count := map[string]int{}
			for _, n := range e.System {
				count[n.Class]++
			}
			want := map[string]int{"machine": 1, "node": 4, "process": 16, "thread": 16}
			for class, n := range want {
				if count[class] != n {
					t.Errorf("%s %s: %d %s nodes, want %d", p.origin, e.Source, count[class], class, n)
				}
			}
			if !e.ThreadLevelHidden() {
				t.Errorf("%s %s: thread level not hidden with one thread per process", p.origin, e.Source)
			}
		}
	}
}

// TestMetricTree checks that every parent metric includes its children at
// every cnode and location, that no value is negative and that integer
// metrics hold whole numbers.
func TestMetricTree(t *testing.T) {
	for _, p := range examples(t) {
		for _, e := range []*model.Experiment{p.before, p.after} {
			for m := range e.Metrics {
				b, err := e.Block(m)
				if err != nil {
					t.Fatal(err)
				}
				children := make([]*model.Block, 0, len(e.Metrics[m].Children))
				for _, ch := range e.Metrics[m].Children {
					cb, err := e.Block(ch)
					if err != nil {
						t.Fatal(err)
					}
					children = append(children, cb)
				}
				for c := range e.Cnodes {
					for l := 0; l < e.NumLocations(); l++ {
						v := b.Value(c, l)
						sum := 0.0
						for _, cb := range children {
							sum += cb.Value(c, l)
						}
						where := func() string {
							return e.Source + ": " + e.Metrics[m].UniqName + " at " + e.CallPath(c) + ", " + e.System[e.Location(l).Parent].Name
						}
						if v < 0 {
							t.Errorf("%s = %g < 0", where(), v)
						}
						if v < sum-1e-9*math.Abs(v) {
							t.Errorf("%s = %g < Σ children %g", where(), v, sum)
						}
						if e.Metrics[m].IsInteger() && v != math.Trunc(v) {
							t.Errorf("%s = %g is not integral", where(), v)
						}
					}
				}
			}
		}
	}
}

// TestVisits checks the visit counts the solver's source implies: one
// barrier per iteration before, one per ten iterations after.
func TestVisits(t *testing.T) {
	for _, p := range examples(t) {
		for _, tt := range []struct {
			e       *model.Experiment
			path    string
			perRank float64
		}{
			{p.before, "main/solver_iterate", 100},
			{p.before, "main/solver_iterate/MPI_Barrier", 100},
			{p.after, "main/solver_iterate/MPI_Barrier", 10},
			{p.after, "main/init/MPI_Init", 1},
		} {
			c := tt.e.CnodeByPath(tt.path)
			if c < 0 {
				t.Fatalf("%s %s: no cnode %s", p.origin, tt.e.Source, tt.path)
			}
			lv, err := tt.e.LocationValues(model.MetricSel{Metric: tt.e.MetricByName("visits"), Inclusive: true}, model.CnodeSel{Cnode: c})
			if err != nil {
				t.Fatal(err)
			}
			for l, v := range lv {
				if v != tt.perRank {
					t.Errorf("%s %s: visits of %s at location %d = %g, want %g", p.origin, tt.e.Source, tt.path, l, v, tt.perRank)
				}
			}
		}
	}
}

// definition is where a function is defined in a source file.
type definition struct{ begin, end int }

var (
	cFuncHead    = regexp.MustCompile(`^[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\([^;]*\)\s*$`)
	fortranBegin = regexp.MustCompile(`(?i)^\s*(?:subroutine|function)\s+(\w+)`)
	fortranEnd   = regexp.MustCompile(`(?i)^\s*end\s+(?:subroutine|function)\s+(\w+)`)
)

// definitions scans a C or Fortran source for function definitions: a C
// function head followed by "{" up to the next "}" in column one, or a
// Fortran subroutine up to its "end subroutine".
func definitions(t *testing.T, name string, text []byte) map[string]definition {
	t.Helper()
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	defs := map[string]definition{}
	fortran := strings.HasSuffix(name, ".f90")
	for i, line := range lines {
		if fortran {
			if m := fortranBegin.FindStringSubmatch(line); m != nil {
				d := defs[m[1]]
				d.begin = i + 1
				defs[m[1]] = d
			} else if m := fortranEnd.FindStringSubmatch(line); m != nil {
				d := defs[m[1]]
				d.end = i + 1
				defs[m[1]] = d
			}
			continue
		}
		m := cFuncHead.FindStringSubmatch(line)
		if m == nil || i+1 >= len(lines) || lines[i+1] != "{" {
			continue
		}
		for j := i + 2; j < len(lines); j++ {
			if lines[j] == "}" {
				defs[m[1]] = definition{i + 1, j + 1}
				break
			}
		}
	}
	return defs
}

func sourceLines(t *testing.T, file string) []string {
	t.Helper()
	text, err := fs.ReadFile(assets.Sources(), file)
	if err != nil {
		t.Fatalf("reading bundled source: %v", err)
	}
	return strings.Split(string(text), "\n")
}

func TestRegionLines(t *testing.T) {
	for _, p := range examples(t) {
		for _, e := range []*model.Experiment{p.before, p.after} {
			for _, r := range e.Regions {
				if r.Paradigm == "mpi" {
					if r.Begin != -1 || r.End != -1 {
						t.Errorf("%s: MPI region %s has lines %d-%d", e.Source, r.Name, r.Begin, r.End)
					}
					continue
				}
				text, err := fs.ReadFile(assets.Sources(), r.Module)
				if err != nil {
					t.Errorf("%s: region %s: %v", e.Source, r.Name, err)
					continue
				}
				def, ok := definitions(t, path.Base(r.Module), text)[r.Name]
				if !ok {
					t.Errorf("%s: region %s: no definition in %s", e.Source, r.Name, r.Module)
					continue
				}
				if r.Begin != def.begin || r.End != def.end {
					t.Errorf("%s: region %s at %s:%d-%d, source defines it at %d-%d", e.Source, r.Name, r.Module, r.Begin, r.End, def.begin, def.end)
				}
			}
		}
	}
}

// TestCallSites checks that each call site's line calls the callee and
// lies inside the caller's definition.
func TestCallSites(t *testing.T) {
	for _, p := range examples(t) {
		for _, e := range []*model.Experiment{p.before, p.after} {
			for c, cn := range e.Cnodes {
				callee := e.CnodeRegion(c)
				if cn.Parent < 0 {
					if cn.CallLine != -1 || cn.CallFile != "" {
						t.Errorf("%s: root %s has call site %s:%d", e.Source, callee.Name, cn.CallFile, cn.CallLine)
					}
					continue
				}
				lines := sourceLines(t, cn.CallFile)
				if cn.CallLine < 1 || cn.CallLine > len(lines) {
					t.Errorf("%s: call of %s at %s:%d outside the file", e.Source, callee.Name, cn.CallFile, cn.CallLine)
					continue
				}
				if !strings.Contains(lines[cn.CallLine-1], callee.Name+"(") {
					t.Errorf("%s: %s:%d %q does not call %s", e.Source, cn.CallFile, cn.CallLine, lines[cn.CallLine-1], callee.Name)
				}
				caller := e.CnodeRegion(cn.Parent)
				if caller.Module != cn.CallFile || cn.CallLine < caller.Begin || cn.CallLine > caller.End {
					t.Errorf("%s: call of %s at %s:%d is not inside caller %s (%s:%d-%d)",
						e.Source, callee.Name, cn.CallFile, cn.CallLine, caller.Name, caller.Module, caller.Begin, caller.End)
				}
			}
		}
	}
}
