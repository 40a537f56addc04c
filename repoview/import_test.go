package repoview

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/internal/testkit/testrepo"
	"cubeview/model"
	"cubeview/repo"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestImportFolder imports a folder holding two experiments, a TAU
// profile folder (one experiment), a README and an empty file: three
// trials, the other two files passed over, progress reaching the end;
// importing again finds the content stored.
func TestImportFolder(t *testing.T) {
	r, _ := testrepo.Filled(t, nil)
	dir := t.TempDir()
	copyFile(t, testkit.Data(t, "cube4/cpi/profile.cubex"), filepath.Join(dir, "cpi", "profile.cubex"))
	copyFile(t, testkit.Data(t, "cube4/mm_sweep/mm.x10y1z1.r1.cubex"), filepath.Join(dir, "mm.cubex"))
	tau := testkit.Data(t, "tau/cpi-mpi")
	entries, err := os.ReadDir(tau)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		copyFile(t, filepath.Join(tau, e.Name()), filepath.Join(dir, "tau-cpi", e.Name()))
	}
	os.WriteFile(filepath.Join(dir, "README"), []byte("runs of 3 May\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.cubex"), nil, 0o644)

	paths, opt, err := ImportSpec{Paths: "\n" + dir + "\n", App: "demo", Attrs: "machine = jureca\n\nqueue=batch"}.Plan()
	if err != nil {
		t.Fatal(err)
	}
	if want := []model.Attr{{Key: "machine", Value: "jureca"}, {Key: "queue", Value: "batch"}}; !slices.Equal(opt.Attrs, want) || opt.App != "demo" {
		t.Fatalf("options %+v", opt)
	}
	var last ImportProgress
	var fractions []float64
	results := RunImport(context.Background(), r, paths, opt, func(p ImportProgress) {
		last = p
		fractions = append(fractions, p.Fraction())
	})
	ids := Imported(results)
	if len(ids) != 3 {
		t.Fatalf("imported %v\n%s", ids, ImportSummary(results))
	}
	var skipped []string
	for _, res := range results {
		if res.Skipped {
			skipped = append(skipped, filepath.Base(res.Path))
		}
	}
	slices.Sort(skipped)
	if !slices.Equal(skipped, []string{"README", "empty.cubex"}) {
		t.Errorf("passed over %q, want README and empty.cubex", skipped)
	}
	if last.File != last.Files || last.Done != last.Total || last.Fraction() != 1 {
		t.Errorf("last progress %+v (%.2f)", last, last.Fraction())
	}
	if !slices.IsSorted(fractions) {
		t.Errorf("progress went back: %v", fractions)
	}
	trials, err := r.Trials(context.Background(), "app = demo and machine = jureca and queue = batch", repo.ListOptions{})
	if err != nil || len(trials) != 3 {
		t.Fatalf("%d trials with the attributes, %v", len(trials), err)
	}
	var formats []string
	for _, tr := range trials {
		formats = append(formats, tr.Format)
	}
	if !slices.ContainsFunc(formats, func(f string) bool { return strings.Contains(strings.ToLower(f), "tau") }) {
		t.Errorf("the TAU folder was not imported as one experiment: formats %q", formats)
	}
	sum := ImportSummary(results)
	if !strings.HasPrefix(sum, "Imported 3 trials: #") || !strings.Contains(sum, "Passed over 2 files") {
		t.Errorf("summary:\n%s", sum)
	}

	// Again: all three are there already; a file given by name that is
	// not an experiment is an error, not passed over.
	again := RunImport(context.Background(), r, []string{dir, filepath.Join(dir, "README")}, repo.ImportOptions{}, nil)
	dups, failed := 0, 0
	for _, res := range again {
		switch {
		case res.Duplicate != 0:
			dups++
			if !slices.Contains(ids, res.Duplicate) {
				t.Errorf("%s: duplicate of %d, not of a trial just imported", res.Path, res.Duplicate)
			}
		case res.Err != nil && !res.Skipped:
			failed++
		}
	}
	if dups != 3 || failed != 1 || len(Imported(again)) != 0 {
		t.Errorf("second import: %d duplicates, %d failed\n%s", dups, failed, ImportSummary(again))
	}
	if s := ImportSummary(again); !strings.Contains(s, "No trial imported.") || !strings.Contains(s, "Already stored") || !strings.Contains(s, "Failed: ") {
		t.Errorf("summary:\n%s", s)
	}
	// A cancelled import imports nothing and says so.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := RunImport(ctx, r, []string{filepath.Join(dir, "mm.cubex")}, repo.ImportOptions{Force: true}, nil)
	if len(res) != 1 || res[0].Err == nil || len(Imported(res)) != 0 {
		t.Errorf("cancelled import: %+v", res)
	}
}

func TestImportSpecErrors(t *testing.T) {
	for _, s := range []ImportSpec{
		{Paths: "  \n"},
		{Paths: "a\nb", Name: "one"},
		{Paths: "a", Attrs: "procs"},
		{Paths: "a", Attrs: "=5"},
	} {
		if _, _, err := s.Plan(); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}
