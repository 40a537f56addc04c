package repo

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// readableData returns every file or folder of the real data that
// format.Open reads, with the experiment it reads.
func readableData(t *testing.T) []string {
	dir := testkit.DataDir(t)
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir || d.Name() == "LICENSES" {
			if d.IsDir() && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if _, err := format.Open(p); err == nil {
			paths = append(paths, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d readable experiments in %s", len(paths), dir)
	}
	return paths
}

// TestRoundTripRealData imports every readable real experiment, reopens
// it from the repository and exports it, and compares each with the file.
func TestRoundTripRealData(t *testing.T) {
	paths := readableData(t)
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		out := t.TempDir()
		for _, p := range paths {
			rel, _ := filepath.Rel(testkit.DataDir(t), p)
			t.Run(rel, func(t *testing.T) {
				id, err := r.Import(ctx, p, ImportOptions{App: "data", Experiment: filepath.Dir(rel)})
				if err != nil {
					t.Fatal(err)
				}
				orig, err := format.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				want := dump(t, orig)
				got, err := r.Open(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if d := testkit.Diff(want, dump(t, got)); d != "" {
					t.Fatalf("reopened trial differs from %s: %s", p, d)
				}
				checkSameExtras(t, orig, got)
				// Export: the trial written as .cubex reads back as the
				// original written the same way does.
				direct := filepath.Join(out, strings.ReplaceAll(rel, "/", "_")+".direct.cubex")
				exported := filepath.Join(out, strings.ReplaceAll(rel, "/", "_")+".cubex")
				if err := format.Write(direct, orig); err != nil {
					t.Skipf("the original does not write as .cubex: %v", err)
				}
				if err := r.Export(ctx, id, exported); err != nil {
					t.Fatal(err)
				}
				a, err := format.Open(direct)
				if err != nil {
					t.Fatal(err)
				}
				b, err := format.Open(exported)
				if err != nil {
					t.Fatal(err)
				}
				if d := testkit.Diff(dump(t, a), dump(t, b)); d != "" {
					t.Fatalf("exported trial differs from the original written as .cubex: %s", d)
				}
				os.Remove(direct)
				os.Remove(exported)
			})
		}
	})
}

// checkSameExtras compares what Dump leaves out but the repository keeps.
func checkSameExtras(t *testing.T, a, b *model.Experiment) {
	t.Helper()
	if a.Format != b.Format {
		t.Errorf("format %q, want %q", b.Format, a.Format)
	}
	for i := range a.Metrics {
		if a.Metrics[i].Type != b.Metrics[i].Type {
			t.Errorf("metric %d type %q, want %q", i, b.Metrics[i].Type, a.Metrics[i].Type)
		}
	}
	if (a.CallGraph == nil) != (b.CallGraph == nil) {
		t.Fatalf("call graph present %v, want %v", b.CallGraph != nil, a.CallGraph != nil)
	}
	if a.CallGraph != nil {
		if len(a.CallGraph.Arcs) != len(b.CallGraph.Arcs) {
			t.Fatalf("%d call-graph arcs, want %d", len(b.CallGraph.Arcs), len(a.CallGraph.Arcs))
		}
		for i, x := range a.CallGraph.Arcs {
			y := b.CallGraph.Arcs[i]
			if x.Caller != y.Caller || x.Callee != y.Callee || x.Calls != y.Calls || len(x.Values) != len(y.Values) {
				t.Fatalf("arc %d = %+v, want %+v", i, y, x)
			}
			for k, v := range x.Values {
				if y.Values[k] != v {
					t.Fatalf("arc %d value %d = %v, want %v", i, k, y.Values[k], v)
				}
			}
		}
		for k, v := range a.CallGraph.Inclusive {
			w := b.CallGraph.Inclusive[k]
			if len(w) != len(v) {
				t.Fatalf("inclusive %d: %d values, want %d", k, len(w), len(v))
			}
			for i := range v {
				if v[i] != w[i] {
					t.Fatalf("inclusive %d[%d] = %v, want %v", k, i, w[i], v[i])
				}
			}
		}
	}
	if len(a.Topologies) != len(b.Topologies) {
		t.Errorf("%d topologies, want %d", len(b.Topologies), len(a.Topologies))
	}
}
