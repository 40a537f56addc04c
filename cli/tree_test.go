package cli

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/numfmt"
)

// bruteTree returns metric m aggregated over every location and over c's
// subtree (inclusive) or c alone, straight from the stored block (for a
// min or max only the values that count, see isValue).
func bruteTree(e *model.Experiment, m, c int, inclusive bool) float64 {
	b, _ := e.Block(m)
	agg := e.Metrics[m].Aggregation
	acc := agg.Identity()
	var visit func(c int)
	visit = func(c int) {
		for l := 0; l < e.NumLocations(); l++ {
			if isValue(e, m, c, l) {
				acc = agg.Combine(acc, b.Value(c, l))
			}
		}
		if inclusive {
			for _, ch := range e.Cnodes[c].Children {
				visit(ch)
			}
		}
	}
	visit(c)
	if math.IsInf(acc, 0) {
		return 0
	}
	return acc
}

// isValue reports whether metric m's stored value at cnode c and
// location l counts: always for a sum; for a min or max only when c has
// a non-zero value somewhere and l visited c, as the visits metric says
// where it has a non-zero row for c, else a non-zero value.
func isValue(e *model.Experiment, m, c, l int) bool {
	if e.Metrics[m].Aggregation == model.Sum {
		return true
	}
	b, _ := e.Block(m)
	row := b.Row(c)
	if !slices.ContainsFunc(row, func(x float64) bool { return x != 0 }) {
		return false
	}
	if v := e.MetricByName("visits"); v >= 0 {
		vb, _ := e.Block(v)
		if vr := vb.Row(c); slices.ContainsFunc(vr, func(x float64) bool { return x != 0 }) {
			return vr[l] != 0
		}
	}
	return row[l] != 0
}

func TestTreeSynthetic(t *testing.T) {
	e := synthetic()
	for _, m := range e.MetricOrder() {
		for _, tt := range []struct {
			inclusive bool
			maxDepth  int
		}{{true, -1}, {false, -1}, {true, 0}, {true, 2}} {
			var buf bytes.Buffer
			if err := writeTree(&buf, e, m, treeOptions{Inclusive: tt.inclusive, MaxDepth: tt.maxDepth, Exact: true}); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if !strings.Contains(lines[0], "["+e.Metrics[m].UniqName+"]") {
				t.Errorf("header %q does not name the metric", lines[0])
			}
			lines0 := lines[0]
			lines = lines[1:]
			// Expected: depth-first order with depths, cut at maxDepth.
			type node struct{ c, depth int }
			var want []node
			var walk func(c, d int)
			walk = func(c, d int) {
				if tt.maxDepth >= 0 && d > tt.maxDepth {
					return
				}
				want = append(want, node{c, d})
				for _, ch := range e.Cnodes[c].Children {
					walk(ch, d+1)
				}
			}
			for _, r := range e.CnodeRoots {
				walk(r, 0)
			}
			if len(lines) != len(want) {
				t.Fatalf("%s inclusive=%v depth=%d: %d lines, want %d", e.Metrics[m].UniqName, tt.inclusive, tt.maxDepth, len(lines), len(want))
			}
			share := hasShare(&e.Metrics[m])
			if got := strings.Contains(lines0, "% of the total"); got != share {
				t.Errorf("header %q: share column %v, want %v", lines0, got, share)
			}
			total, _ := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
			valueEnd := -1 // values are right-aligned
			for i, line := range lines {
				val, pct, depth, name := splitTreeLine(t, line, share)
				if end := strings.Index(line, val) + len(val); valueEnd < 0 {
					valueEnd = end
				} else if end != valueEnd {
					t.Errorf("line %d %q: value ends in column %d, want %d", i, line, end, valueEnd)
				}
				w := want[i]
				if name != e.CnodeRegion(w.c).Name || depth != w.depth {
					t.Errorf("line %d %q: want %s at depth %d", i, line, e.CnodeRegion(w.c).Name, w.depth)
				}
				if share {
					exp := bruteTree(e, m, w.c, tt.inclusive)
					p, err := strconv.ParseFloat(strings.TrimSuffix(pct, "%"), 64)
					if total == 0 && pct != "-" || total != 0 && (err != nil || math.Abs(p-100*exp/total) > 0.05+1e-9) {
						t.Errorf("line %d %q: percentage %q, want %.3f", i, line, pct, 100*exp/total)
					}
				}
				got, err := strconv.ParseFloat(val, 64)
				if err != nil {
					t.Fatalf("line %d %q: %v", i, line, err)
				}
				if exp := bruteTree(e, m, w.c, tt.inclusive); math.Abs(got-exp) > 1e-11*math.Abs(exp) {
					t.Errorf("line %d %q: value %v, want %v", i, line, got, exp)
				}
			}
		}
	}
}

// splitTreeLine splits a line of "tree" into its value, its percentage
// (when share is set), the call path's depth and its region name.
func splitTreeLine(t *testing.T, line string, share bool) (value, pct string, depth int, name string) {
	t.Helper()
	s := strings.TrimLeft(line, " ")
	value, rest, ok := strings.Cut(s, "  ")
	if share && ok {
		pct, rest, ok = strings.Cut(strings.TrimLeft(rest, " "), "  ")
		if pct != "-" && !strings.HasSuffix(pct, "%") {
			t.Fatalf("tree line %q: percentage %q", line, pct)
		}
	}
	if !ok {
		t.Fatalf("tree line %q", line)
	}
	name = strings.TrimLeft(rest, " ")
	return value, pct, (len(rest) - len(name)) / 2, name
}

func TestTreeBriefAndExact(t *testing.T) {
	path := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	e, err := openExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	m := e.MetricByName("time")
	vals, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	root := vals[e.CnodeRoots[0]]
	for _, exact := range []bool{false, true} {
		args := []string{"tree", path, "--metric", "Time", "--max-depth", "0"} // display name, any case
		if exact {
			args = append(args, "--exact")
		}
		status, out, errOut := run(args...)
		if status != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("%v: %q, want a header and the root", args, out)
		}
		val, pct, _, _ := splitTreeLine(t, lines[1], true)
		want := numfmt.Brief().Format(root, false)
		if exact {
			want = strconv.FormatFloat(root, 'g', -1, 64)
		}
		if val != want || pct != "100.0%" {
			t.Errorf("%v: root %q %q, want %q 100.0%%", args, val, pct, want)
		}
		if !exact && len(strings.Trim(strings.NewReplacer(",", "", ".", "").Replace(val), "0")) > 4 {
			t.Errorf("root %q has more than 4 significant digits", val)
		}
	}
}
