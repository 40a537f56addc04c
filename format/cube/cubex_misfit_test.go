package cube

import (
	"io"
	"math"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// TestCubexValueMisfit: a value that a metric's integer data type cannot
// hold is an error naming the metric once (in bounded length), the data
// type, the value, the call path's region and the location, and the
// type's range written exactly.
func TestCubexValueMisfit(t *testing.T) {
	long := strings.Repeat("m", 10000)
	for _, tc := range []struct {
		name    string
		dtype   model.DataType
		own     float64 // at the first child of the root, location 1
		rootOwn float64 // the root's own value at location 1
		want    []string
		not     []string
	}{
		{"negative inclusive too", "UINT64", -3, -1.5, []string{
			`data type "UINT64" cannot hold the own value -1.5 at cnode id 0 (call path to "region_1"), location id 1 ("Thread 0" of "MPI Rank 1"): not an integer from 0 to 18446744073709551615`,
			`; nor the call-tree inclusive value `, ` at cnode id 0 (call path to "region_1"), location id 1 ("Thread 0" of "MPI Rank 1")`,
		}, []string{"e+19"}},
		{"too big for INT8", "INT8", 200, 0, []string{
			`data type "INT8" cannot hold the own value 200 at cnode id 1 (call path to "region_0"), location id 1 ("Thread 0" of "MPI Rank 1"): not an integer from -128 to 127`,
			`nor the call-tree inclusive value `,
		}, nil},
		{"NaN in INT64", "INT64", math.NaN(), 0, []string{
			`data type "INT64" cannot hold the own value NaN`, "not a finite number",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := synth.Generate(synth.Config{Cnodes: 5, Locations: 2, Metrics: 1, Flat: true, Seed: 3})
			e.Metrics[0].UniqName = long
			e.Metrics[0].DataType = tc.dtype
			b, err := e.Block(0)
			if err != nil {
				t.Fatal(err)
			}
			for c := range e.Cnodes { // integers everywhere, then the misfits
				for l, v := range b.Row(c) {
					b.MutableRow(c)[l] = math.Round(v)
				}
			}
			root := e.CnodeRoots[0]
			b.MutableRow(root)[1] = tc.rootOwn
			b.MutableRow(e.Cnodes[root].Children[0])[1] = tc.own
			err = WriteCubex(io.Discard, e)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%.600s", w, msg)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(msg, w) {
					t.Errorf("error has %q:\n%.600s", w, msg)
				}
			}
			if n := strings.Count(msg, `"mmm`); n != 1 || len(msg) > 800 {
				t.Errorf("metric name quoted %d times, message of %d bytes:\n%.600s", n, len(msg), msg)
			}
		})
	}
}
