package repo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cubeview/internal/testkit"
)

func TestDefaultName(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/runs/scorep_tea_leaf_baseline_8x12_sum/profile.cubex", "scorep_tea_leaf_baseline_8x12_sum"},
		{"/runs/scorep_tea_leaf_baseline_8x12_trace/summary.cubex", "scorep_tea_leaf_baseline_8x12_trace"},
		{"/runs/scorep_tea_leaf_baseline_8x12_trace/scout.cubex", "scorep_tea_leaf_baseline_8x12_trace (scout)"},
		{"/runs/scorep_tea_leaf_baseline_8x12_trace/trace.cubex", "scorep_tea_leaf_baseline_8x12_trace (trace)"},
		{"/runs/epik_sweep3d_32_sum/epitome.cube", "epik_sweep3d_32_sum"},
		{"/runs/epik_sweep3d_32_trace/expert.cube.gz", "epik_sweep3d_32_trace (expert)"},
		{"/runs/epik_sweep3d_32_sum/summary.cube.gz", "epik_sweep3d_32_sum"},
		{"/runs/lulesh/lulesh.p27.size25.r1.cubex", "lulesh.p27.size25.r1.cubex"}, // names itself
		{"/runs/x/profile.0.0.0", "profile.0.0.0"},                                // TAU's names differ per rank
		{"profile.cubex", "profile.cubex"},                                        // no folder to name it
	} {
		if got := defaultName(tt.path); got != tt.want {
			t.Errorf("defaultName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestImportNamesByFolder imports real Score-P and CUBE 3 files with the
// names every experiment has (profile.cubex; a KOJAK file copied to a
// Scalasca 1 folder as epitome.cube): each trial is named by its folder.
func TestImportNamesByFolder(t *testing.T) {
	dir := t.TempDir()
	epik := filepath.Join(dir, "epik_ctest_8x4_sum", "epitome.cube")
	if err := os.MkdirAll(filepath.Dir(epik), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(testkit.Data(t, "cube3", "ctest-pomp.cube"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(epik, b, 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		testkit.Data(t, "cube4", "cpi", "profile.cubex"):                 "cpi",
		testkit.Data(t, "cube4", "time.p4.n2000.x1.r0", "profile.cubex"): "time.p4.n2000.x1.r0",
		epik: "epik_ctest_8x4_sum",
	}
	r := openRepo(t, sqliteLoc(t))
	ctx := context.Background()
	for path, want := range files {
		id, err := r.Import(ctx, path, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := r.Trial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Name != want {
			t.Errorf("%s imported as %q, want %q", path, tr.Name, want)
		}
	}
}
