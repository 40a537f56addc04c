package cube_test

import (
	"bytes"
	"testing"

	"cubeview/format"
	"cubeview/format/cube"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestMinMaxStoredInclusive: a MINDOUBLE or MAXDOUBLE metric written
// call-tree INCLUSIVE reads back with every inclusive value exact; own
// values are exact for summed metrics only, since the minimum or maximum
// over a subtree does not tell a call path's own value where a callee
// holds the extreme (see doc.go). The default writer keeps both.
func TestMinMaxStoredInclusive(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, inclusive := range []bool{false, true} {
		var buf bytes.Buffer
		if err := cube.WriteCubexWith(&buf, e, cube.CubexOptions{Inclusive: inclusive}); err != nil {
			t.Fatal(err)
		}
		back, err := cube.ReadCubex(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "back.cubex")
		if err != nil {
			t.Fatal(err)
		}
		lost, minmax := 0, 0
		for m, met := range e.Metrics {
			if met.Unavailable != "" {
				continue
			}
			if met.Aggregation != model.Sum {
				minmax++
			}
			for _, incl := range []bool{true, false} {
				ms := model.MetricSel{Metric: m, Inclusive: true}
				a, err1 := e.PointValues(ms, incl)
				b, err2 := back.PointValues(ms, incl)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				for c := range e.Cnodes {
					for l := range e.Locations {
						if x, y := a.Value(c, l), b.Value(c, l); x != y {
							if incl || !inclusive || met.Aggregation == model.Sum {
								t.Fatalf("written inclusive=%v: %s (%s) call path %d location %d, inclusive=%v: %v, read back %v",
									inclusive, met.UniqName, met.Aggregation, c, l, incl, x, y)
							}
							lost++
						}
					}
				}
			}
		}
		if minmax == 0 {
			t.Fatal("the file has no min or max metric to test")
		}
		if inclusive && lost == 0 {
			t.Error("no own value of a min or max metric was lost in inclusive storage: the test no longer shows the limit doc.go describes")
		}
	}
}
