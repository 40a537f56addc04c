package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// TestProvenanceGrowsLinearly combines a derived file with itself, round
// after round: each operand file is recorded once (by checksum), so the
// file grows by a constant, not doubling as when every use of an operand
// copied its whole record.
func TestProvenanceGrowsLinearly(t *testing.T) {
	dir := t.TempDir()
	a := writeXML(t, dir, "a.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20})
	b := writeXML(t, dir, "b.cube", "sec", "n0", "n1", [4]float64{0.5, 1, 4, 8})
	prev := filepath.Join(dir, "d0.cubex")
	if status, _, stderr := run("diff", a, b, "-o", prev); status != 0 {
		t.Fatal(stderr)
	}
	const rounds = 17
	sizes := []int64{}
	var attrs int
	peak, d := testkit.Peak(func() {
		for i := 1; i <= rounds; i++ {
			next := filepath.Join(dir, fmt.Sprintf("d%d.cubex", i))
			if status, _, stderr := run("merge", prev, prev, "-o", next); status != 0 {
				t.Fatal(stderr)
			}
			fi, err := os.Stat(next)
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, fi.Size())
			prev = next
		}
	})
	_, info, _ := run("info", prev)
	attrs = strings.Count(info, "cubeview::operand::")
	t.Logf("%d rounds of merge(d, d): sizes %v bytes, %d operand records in the last, peak heap %.1f MB, %v",
		rounds, sizes, attrs, float64(peak)/(1<<20), d.Round(1e6))
	// Linear: every round adds about as much as the first added.
	step := sizes[1] - sizes[0]
	if last := sizes[rounds-1] - sizes[rounds-2]; last > 2*step+2048 {
		t.Errorf("round %d added %d bytes, round 2 added %d: not linear", rounds, last, step)
	}
	if attrs > 3*rounds+4 {
		t.Errorf("%d operand records after %d rounds", attrs, rounds)
	}
}
