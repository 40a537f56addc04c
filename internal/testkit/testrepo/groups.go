package testrepo

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/model"
	"cubeview/repo"
)

// RunFile writes a generated repeated run to a .cubex file in dir and
// returns its path and the experiment: a 30-call-path experiment of 4
// locations whose every call path is scaled by 1 + 2 %·N(0, 1) drawn from
// (seed, run), and call path planted (if ≥ 0) by 1 + shift as well.
func RunFile(t testing.TB, dir, name string, seed uint64, run int, planted int, shift float64) (string, *model.Experiment) {
	t.Helper()
	e := synth.NoisyRun(synth.Config{Cnodes: 30, Locations: 4, Metrics: 1, Seed: 7}, seed, run, synth.Sigma(0.02), synth.ShiftAt(planted, shift))
	path := filepath.Join(dir, name)
	if err := format.Write(path, e); err != nil {
		t.Fatal(err)
	}
	return path, e
}

// Groups returns an open SQLite repository in a temporary folder holding
// n generated repeated runs (RunFile) of each of two configurations,
// application "synth", experiments "base" and "slower": in "slower" call
// path planted takes 1 + shift times as long. It returns the trial ids
// of each experiment and the planted call path.
func Groups(t testing.TB, n, planted int, shift float64) (r *repo.Repo, base, slower []int64, plantedPath string) {
	t.Helper()
	r, err := repo.Init(context.Background(), Location(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	dir := t.TempDir()
	for g, exp := range []string{"base", "slower"} {
		for i := range n {
			path, e := RunFile(t, dir, fmt.Sprintf("%s%d.cubex", exp, i+1), uint64(g), i, planted, float64(g)*shift)
			plantedPath = e.CallPath(planted)
			id, err := r.Import(context.Background(), path, repo.ImportOptions{App: "synth", Experiment: exp,
				Attrs: []model.Attr{{Key: "run", Value: fmt.Sprint(i + 1)}}})
			if err != nil {
				t.Fatal(err)
			}
			if g == 0 {
				base = append(base, id)
			} else {
				slower = append(slower, id)
			}
		}
	}
	return r, base, slower, plantedPath
}
