package cli

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/model"
)

// bruteTree returns metric m aggregated over every location and over c's
// subtree (inclusive) or c alone, straight from the stored block.
func bruteTree(e *model.Experiment, m, c int, inclusive bool) float64 {
	b, _ := e.Block(m)
	agg := e.Metrics[m].Aggregation
	acc := agg.Identity()
	var visit func(c int)
	visit = func(c int) {
		for l := 0; l < e.NumLocations(); l++ {
			acc = agg.Combine(acc, b.Value(c, l))
		}
		if inclusive {
			for _, ch := range e.Cnodes[c].Children {
				visit(ch)
			}
		}
	}
	visit(c)
	return acc
}

func TestTreeSynthetic(t *testing.T) {
	e := synthetic()
	for _, m := range e.MetricOrder() {
		for _, tt := range []struct {
			inclusive bool
			maxDepth  int
		}{{true, -1}, {false, -1}, {true, 0}, {true, 2}} {
			var buf bytes.Buffer
			if err := writeTree(&buf, e, m, tt.inclusive, tt.maxDepth); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if !strings.Contains(lines[0], "["+e.Metrics[m].UniqName+"]") {
				t.Errorf("header %q does not name the metric", lines[0])
			}
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
			valueEnd := -1 // values are right-aligned
			for i, line := range lines {
				trimmed := strings.TrimLeft(line, " ")
				val := trimmed[:strings.IndexByte(trimmed, ' ')]
				end := len(line) - len(trimmed) + len(val)
				if valueEnd < 0 {
					valueEnd = end
				} else if end != valueEnd {
					t.Errorf("line %d %q: value ends in column %d, want %d", i, line, end, valueEnd)
				}
				rest := strings.TrimPrefix(trimmed[len(val):], "  ")
				name := strings.TrimLeft(rest, " ")
				depth := (len(rest) - len(name)) / 2
				w := want[i]
				if name != e.CnodeRegion(w.c).Name || depth != w.depth {
					t.Errorf("line %d %q: want %s at depth %d", i, line, e.CnodeRegion(w.c).Name, w.depth)
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
