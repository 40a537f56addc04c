package document

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/model"
)

func attr(k, v string) model.Attr { return model.Attr{Key: k, Value: v} }

func TestPropertiesOfDerived(t *testing.T) {
	e := withProvenance()
	p := Properties(&Doc{Exp: e, Name: "before − after", Expression: "before − after", Operands: []string{"before", "after"}})
	for _, want := range []string{
		"Derived experiment\n",
		"Expression:   before − after\n",
		"Recorded as:  diff(/runs/before.cubex, /runs/after.cubex)\n",
		"Options:      system tree automatic, lines ignored when matching\n",
		"Saved as:     not saved",
		"  1. before — /runs/before.cubex\n     size 1,234,567 bytes\n     SHA-256 ab12\n",
		"  2. after — /runs/after.cubex\n     size 7 bytes",
		"Contents:     4 metrics, 3 regions, 5 call paths (1 root), 2 processes, 3 locations",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("properties lack %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "cubeview::") {
		t.Errorf("provenance attributes listed among the attributes:\n%s", p)
	}
}

func TestPropertiesOfOriginal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.cubex")
	if err := os.WriteFile(path, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	e := handMade()
	e.Attrs = append(e.Attrs, attr("Creator", "Score-P 8.4"), attr("problem size", "64"))
	p := Properties(&Doc{Exp: e, Name: "run.cubex", Path: path})
	for _, want := range []string{
		"File:         " + path + " (2,048 bytes)\n",
		"Format:       -\n",
		"Creator:      Score-P 8.4\n",
		"Attributes:\n  problem size = 64",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("properties lack %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "Derived") || strings.Contains(p, "Not in every operand") || strings.HasSuffix(p, "\n") {
		t.Errorf("properties of an original:\n%s", p)
	}
}

func TestWrapText(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"ab cd", "ab cd"},
		{"aaa bbb ccc ddd", "aaa bbb\n  ccc ddd"},
		{"averyveryverylongword x", "averyveryverylongword\n  x"},
	}
	for _, tt := range tests {
		if got := wrapText(tt.in, 8, "  "); got != tt.want {
			t.Errorf("wrapText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := GroupDigits(-1234567); got != "-1,234,567" {
		t.Errorf("GroupDigits = %q", got)
	}
}

func TestDescribeOptions(t *testing.T) {
	renames, err := algebra.ParseRename("main_(.*)=main")
	if err != nil {
		t.Fatal(err)
	}
	opt := algebra.Options{System: algebra.SystemCollapse, StrictLines: true, StrictRoots: true, Renames: []algebra.Rename{renames}}
	want := `system tree collapse, strict line matching, roots of different names kept apart, regions "main_(.*)" renamed to "main"`
	if got := describeOptions(opt.String()); got != want {
		t.Errorf("describeOptions = %q, want %q", got, want)
	}
	if got := describeOptions("bogus"); got != "bogus" {
		t.Errorf("unreadable options shown as %q, want as recorded", got)
	}
}
