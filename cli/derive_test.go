package cli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// TestDeriveZeroDenominator: a derived metric divided by zero is
// undefined, as in CubePL — "—" in text, NaN where the output reads back —
// unless its numerator is 0 too (then 0, as CubePL has it); never 0 for a
// time spent over no bytes.
func TestDeriveZeroDenominator(t *testing.T) {
	in := testkit.Data(t, "cube4", "hw_counter", "L2_DCM_negative.cubex")
	out := filepath.Join(t.TempDir(), "r.cubex")
	mustRun(t, "derive", in, "spb = time / bytes_sent", "-o", out)
	tm, bytes := treeValues(t, in, "time"), treeValues(t, in, "bytes_sent")
	exact := treeValues(t, out, "spb")
	text := mustRun(t, "tree", out, "--metric", "spb")
	undefined, zero, defined := 0, 0, 0
	for p, b := range bytes {
		got := exact[p]
		switch {
		case tm[p] == 0:
			zero++
			if got != 0 {
				t.Errorf("%s: 0 s over %v bytes gives %v, want 0", p, b, got)
			}
		case b == 0:
			undefined++
			if !math.IsNaN(got) {
				t.Errorf("%s: %v s over 0 bytes gives %v, want undefined (NaN)", p, tm[p], got)
			}
		default:
			defined++
			if want := tm[p] / b; math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s: %v, want %v", p, got, want)
			}
		}
	}
	if undefined == 0 || defined == 0 {
		t.Fatalf("%d undefined and %d defined call paths: the test needs both", undefined, defined)
	}
	if n := strings.Count(text, "—"); n != undefined {
		t.Errorf("tree prints %d undefined values, want %d:\n%s", n, undefined, text)
	}
	if strings.Contains(text, "NaN") {
		t.Errorf("tree prints NaN for a derived metric's undefined values:\n%s", text)
	}
	t.Logf("%d call paths: %d undefined, %d zero, %d defined", len(bytes), undefined, zero, defined)
}
