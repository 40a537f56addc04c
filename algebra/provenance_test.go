package algebra

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"cubeview/format"
)

func TestProvenanceOfFiles(t *testing.T) {
	dir := t.TempDir()
	pa := filepath.Join(dir, "run a;1.cubex") // a space and a semicolon
	pb := filepath.Join(dir, "b.cubex")
	if err := os.WriteFile(pa, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := handA(t), handB(t)
	a.Source, b.Source = pa, pb
	d, err := Diff(a, b, Options{StrictLines: true})
	if err != nil {
		t.Fatal(err)
	}
	// SHA-256 test vectors of "abc" and of the empty string.
	const shaABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	const shaEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	want := map[string]string{
		AttrExpression:    "diff(" + strconv.Quote(pa) + ", " + pb + ")",
		AttrOptions:       "system=auto;strict-lines=true",
		AttrSystem:        "copied from operand 0 (" + pa + "): it holds every process, and processes that share a node in any operand share one in it",
		AttrOperand + "0": "size=3;sha256=" + shaABC + ";path=" + pa,
		AttrOperand + "1": "size=0;sha256=" + shaEmpty + ";path=" + pb,
	}
	for k, w := range want {
		if got, _ := d.Attr(k); got != w {
			t.Errorf("%s = %q, want %q", k, got, w)
		}
	}
	p, ok, err := ReadProvenance(d)
	if !ok || err != nil {
		t.Fatalf("ReadProvenance: %v %v", ok, err)
	}
	if len(p.Operands) != 2 || p.Operands[0] != (Operand{Path: pa, Size: 3, SHA256: shaABC}) || p.Operands[1].Path != pb {
		t.Errorf("operands %+v", p.Operands)
	}
	if p.Expression != want[AttrExpression] || p.Options != want[AttrOptions] || p.System != want[AttrSystem] {
		t.Errorf("provenance %+v", p)
	}
	// The expression and options come parsed.
	if x := p.Expr; x == nil || x.Op != OpDiff || len(x.Args) != 2 || x.Args[0].File != pa || x.Args[1].File != pb || !x.Has(OpDiff) || x.Has(OpMean) {
		t.Errorf("expression %s parsed as %v", p.Expression, p.Expr)
	}
	if p.Opts.String() != (Options{StrictLines: true}).String() {
		t.Errorf("options %q parsed as %+v", p.Options, p.Opts)
	}
	// An experiment read from a derived file has the file as its source:
	// its own operands move below its operand key.
	d.Source = pa
	m, err := Merge(Options{}, d, b)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Attr(AttrOperand + "0::1"); got != want[AttrOperand+"1"] {
		t.Errorf("nested operand record %q", got)
	}
	if got, _ := m.Attr(AttrOperand + "0"); got != want[AttrOperand+"0"] {
		t.Errorf("operand record %q", got)
	}
	if _, ok, _ := ReadProvenance(a); ok {
		t.Error("an original experiment has provenance")
	}
}

func TestParseOperandErrors(t *testing.T) {
	for _, s := range []string{"", "size=x;path=a", "color=red;path=a", "size=1;sha256=ab"} {
		if _, err := parseOperand(s); err == nil {
			t.Errorf("parseOperand(%q) succeeded", s)
		}
	}
}

// TestProvenanceSurvivesFiles writes a derived experiment in both formats
// and reads its provenance back.
func TestProvenanceSurvivesFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := handA(t), handB(t)
	a.Source = filepath.Join(dir, "a.cubex")
	if err := os.WriteFile(a.Source, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	inner, err := Mean(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Diff(inner, a, Options{System: SystemCollapse})
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := ReadProvenance(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".cubex", ".cube", ".cube.gz"} {
		p := filepath.Join(dir, "d"+ext)
		if err := format.Write(p, d); err != nil {
			t.Fatal(err)
		}
		r, err := format.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := ReadProvenance(r)
		if !ok || err != nil {
			t.Errorf("%s: provenance lost (found %v, %v)", ext, ok, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: provenance\n got %+v\nwant %+v", ext, got, want)
		}
		for _, k := range []string{AttrOperand + "0::0", AttrOperand + "0::1"} {
			w, _ := d.Attr(k)
			if g, _ := r.Attr(k); g != w {
				t.Errorf("%s: %s = %q, want %q", ext, k, g, w)
			}
		}
	}
}
