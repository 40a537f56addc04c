package repoview

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"cubeview/internal/synth"
	"cubeview/repo"
)

// TestTrialsInNaturalOrder: the trials of an experiment are listed by
// name as people count (p2, p10, p100), whatever order they were
// imported in (they were listed in import order: p100, p2, p10).
func TestTrialsInNaturalOrder(t *testing.T) {
	r, err := repo.Open(context.Background(), t.TempDir()+"/repository.db")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i, name := range []string{"p100", "p2", "p10", "p2b"} {
		e := synth.Generate(synth.Config{Cnodes: 4, Locations: 2, Threads: 1, Metrics: 1, Seed: uint64(i + 1)})
		_, err := r.ImportExperiment(context.Background(), e,
			repo.Source{Path: "/runs/" + name, Size: 1, SHA256: fmt.Sprintf("%064x", i+1)},
			repo.ImportOptions{App: "app", Experiment: "scaling", Name: name, Force: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	b := load(t, r, "")
	var got []string
	for _, row := range b.Rows() {
		if row.Kind == TrialRow {
			got = append(got, row.TreeText())
		}
	}
	if want := []string{"p2", "p2b", "p10", "p100"}; !slices.Equal(got, want) {
		t.Errorf("trials listed %q, want %q", got, want)
	}
}
