package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestOperandChecksumsWhileReading: diff and mean of real .cubex files
// record each operand's SHA-256, now computed while the operands are
// read; it equals the checksum of a separate pass over the file, with
// the operands' metrics in memory and read row by row.
func TestOperandChecksumsWhileReading(t *testing.T) {
	dir := testkit.Data(t, "cube4", "lulesh")
	files := []string{
		filepath.Join(dir, "lulesh.p27.size25.r1.cubex"),
		filepath.Join(dir, "lulesh.p64.size25.r1.cubex"),
		filepath.Join(dir, "lulesh.p125.size25.r1.cubex"),
	}
	want := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(data)
		want[f] = hex.EncodeToString(s[:])
	}
	out := filepath.Join(t.TempDir(), "out.cubex")
	defer model.SetMemoryBudget(0)
	for i, args := range [][]string{
		{"diff", files[0], files[1], "-o", out},
		{"diff", files[1], files[2], "-o", out, "--force"}, // rows read on demand
		{"mean", files[0], files[1], files[2], "-o", out, "--force"},
	} {
		model.SetMemoryBudget(map[bool]int64{true: 1}[i == 1])
		if status, _, stderr := run(args...); status != 0 {
			t.Fatalf("%v: status %d: %s", args, status, stderr)
		}
		res, err := format.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		p, ok, err := algebra.ReadProvenance(res)
		if !ok || err != nil || len(p.Operands) == 0 {
			t.Fatalf("%v: provenance %+v, %v, %v", args, p, ok, err)
		}
		for _, o := range p.Operands {
			st, _ := os.Stat(o.Path)
			if o.SHA256 != want[o.Path] || st == nil || o.Size != st.Size() {
				t.Errorf("%v: operand %s recorded with %s, %d bytes; want %s", args, o.Path, o.SHA256, o.Size, want[o.Path])
			}
		}
	}
}
