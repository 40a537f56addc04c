package document

import (
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/internal/testkit"
)

// TestPropertiesOfFolderOperand: a TAU profile directory as an operand is
// listed as the folder it is, not as a derived experiment not saved, and
// the record survives ReadProvenance.
func TestPropertiesOfFolderOperand(t *testing.T) {
	dir := testkit.Data(t, "tau", "cpi-mpi")
	a, err := format.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := format.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := algebra.Diff(a, b, algebra.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prov, ok, err := algebra.ReadProvenance(d)
	if !ok || err != nil || len(prov.Operands) != 2 {
		t.Fatalf("provenance %+v %v %v", prov, ok, err)
	}
	for i, o := range prov.Operands {
		if !o.Directory || o.Path != a.Source || o.Expression != "" {
			t.Errorf("operand %d recorded as %+v, want the directory %s", i, o, a.Source)
		}
	}
	p := Properties(&Doc{Exp: d, Name: "A − B", Expression: "A − B", Operands: []string{"A", "B"}})
	for _, want := range []string{
		"  1. A — folder " + a.Source + "\n     (a directory a reader accepts; no size or checksum recorded)\n",
		"  2. B — folder " + a.Source + "\n",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("properties lack %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "not saved:") {
		t.Errorf("a folder operand reads as a result not saved:\n%s", p)
	}
}
