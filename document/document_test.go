package document

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestRead reads a real experiment, names it by its file and sums up
// the first metric; a missing file is an error naming it.
func TestRead(t *testing.T) {
	path := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	d, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "profile.cubex" || d.Path != path || d.Exp == nil {
		t.Fatalf("doc = %+v", d)
	}
	m := d.Exp.MetricRoots[0]
	if total, err := d.Exp.MetricTotal(model.MetricSel{Metric: m, Inclusive: true}); err != nil || total != 1200973 {
		t.Errorf("first metric total = %v, %v; want 1200973", total, err)
	}
	missing := filepath.Join(t.TempDir(), "missing.cubex")
	if _, err := Read(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v, want one naming %s", err, missing)
	}
}

func TestOthers(t *testing.T) {
	a, b, c := &Doc{Name: "a"}, &Doc{Name: "b"}, &Doc{Name: "c"}
	if got := Others([]*Doc{a, b, c}, b); !slices.Equal(got, []*Doc{a, c}) {
		t.Errorf("Others = %v", got)
	}
	if got := Others([]*Doc{a}, a); len(got) != 0 {
		t.Errorf("Others of the only document = %v", got)
	}
}

// TestExternalHint checks the status hint of External percent.
func TestExternalHint(t *testing.T) {
	if got := ExternalHint(&Doc{Name: "b.cubex"}); got != "External percent of b.cubex (View › Choose external reference… changes it)." {
		t.Errorf("hint = %q", got)
	}
	if got := ExternalHint(nil); !strings.Contains(got, "needs a second open experiment") {
		t.Errorf("hint without a reference = %q", got)
	}
}

// TestExperiment: a document's experiment, nil for no document (what a
// window passes as no external reference).
func TestExperiment(t *testing.T) {
	ref := &Doc{Exp: handMade(), Name: "ref"}
	if ref.Experiment() != ref.Exp {
		t.Error("Experiment() is not the document's experiment")
	}
	var none *Doc
	if none.Experiment() != nil {
		t.Error("no document has an experiment")
	}
}
