package document

import "testing"

func TestDistinctNames(t *testing.T) {
	paths := []string{
		"/scratch/tea_leaf_baseline_8x12_trace/scout.cubex",
		"/scratch/tea_leaf_optimized_8x12_trace/scout.cubex",
		"/runs/before.cubex",
		"/a/r1/mm.cubex", "/b/r1/mm.cubex",
	}
	want := map[string]string{
		paths[0]: "…/tea_leaf_baseline_8x12_trace/scout.cubex",
		paths[1]: "…/tea_leaf_optimized_8x12_trace/scout.cubex",
		paths[2]: "before.cubex",
		paths[3]: "/a/r1/mm.cubex",
		paths[4]: "/b/r1/mm.cubex",
	}
	got := distinctPaths(append(paths, paths[2]))
	for p, w := range want {
		if got[p] != w {
			t.Errorf("distinctPaths: %s → %q, want %q", p, got[p], w)
		}
	}
	short := shortNames(paths)
	for p, w := range map[string]string{paths[0]: "tea_leaf_baseline_8x12_trace/scout", paths[2]: "before", paths[4]: "b/r1/mm"} {
		if short[p] != w {
			t.Errorf("shortNames: %s → %q, want %q", p, short[p], w)
		}
	}
}
