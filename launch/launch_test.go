package launch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit/handmade"
	"cubeview/view"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args    []string
		want    Args
		wantErr bool
	}{
		{nil, Args{Width: 1280, Height: 800}, false},
		{[]string{"a.cubex", "b.cube"}, Args{Files: []string{"a.cubex", "b.cube"}, Width: 1280, Height: 800}, false},
		{[]string{"--snapshot", "o.png", "--size", "800x600", "--select-metric", "time", "--select-cnode=main/foo", "--expand-system", "f.cubex"},
			Args{Files: []string{"f.cubex"}, Snapshot: "o.png", Width: 800, Height: 600, SelectMetric: "time", SelectCnode: "main/foo", ExpandSystem: true}, false},
		{[]string{"--", "--odd-name.cube"}, Args{Files: []string{"--odd-name.cube"}, Width: 1280, Height: 800}, false},
		{[]string{"--size", "800"}, Args{}, true},
		{[]string{"--snapshot"}, Args{}, true},
		{[]string{"--bogus"}, Args{}, true},
		{[]string{"--select-metric", "time"}, Args{}, true},
		{[]string{"--snapshot", "o.png", "a", "b"}, Args{}, true},
		{[]string{"--system-mode", "peer-distribution"}, Args{}, true},
		{[]string{"--snapshot", "o.png", "--system-mode", "peer", "f.cubex"}, Args{}, true},
		{[]string{"--snapshot", "o.png", "--system-mode", "peer-distribution", "f.cubex"},
			Args{Files: []string{"f.cubex"}, Snapshot: "o.png", Width: 1280, Height: 800, SystemMode: "peer-distribution"}, false},
	}
	for _, tt := range tests {
		got, err := Parse(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if tt.wantErr {
			continue
		}
		if got.Snapshot != tt.want.Snapshot || got.Width != tt.want.Width || got.Height != tt.want.Height ||
			got.SelectMetric != tt.want.SelectMetric || got.SelectCnode != tt.want.SelectCnode ||
			got.ExpandSystem != tt.want.ExpandSystem || got.SystemMode != tt.want.SystemMode || len(got.Files) != len(tt.want.Files) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.args, got, tt.want)
			continue
		}
		for i := range got.Files {
			if got.Files[i] != tt.want.Files[i] {
				t.Errorf("Parse(%q) files = %q, want %q", tt.args, got.Files, tt.want.Files)
			}
		}
	}
}

func TestParseCalcFlag(t *testing.T) {
	o, err := Parse([]string{"--calc", "diff(a.cubex, b.cubex)", "--snapshot", "x.png", "--select-metric", "time"})
	if err != nil || o.Calc != "diff(a.cubex, b.cubex)" || o.Snapshot != "x.png" {
		t.Errorf("ParseLaunch: %+v, %v", o, err)
	}
	if _, err := Parse([]string{"--calc", "diff(a, b)", "--snapshot", "x.png", "c.cubex"}); err == nil {
		t.Error("--snapshot with --calc and a file should fail")
	}
	if _, err := Parse([]string{"--calc"}); err == nil {
		t.Error("--calc without a value should fail")
	}
}

// TestLaunchSelect selects what --select-metric and --select-cnode name,
// with their ancestors expanded; the flat profile selects the region.
func TestLaunchSelect(t *testing.T) {
	v := view.NewView(handmade.Experiment())
	o := Args{SelectMetric: "mpi", SelectCnode: "main/foo/foo/bar"}
	if err := o.Select(v, "x.cubex"); err != nil {
		t.Fatal(err)
	}
	if v.Selected(view.MetricPane) != mMPI || !v.Expanded(view.MetricPane, mTime) {
		t.Errorf("metric pane: selected %v, time expanded %v", v.Selected(view.MetricPane), v.Expanded(view.MetricPane, mTime))
	}
	if v.Selected(view.CallPane) != cBar3 || !v.Expanded(view.CallPane, cMain) || !v.Expanded(view.CallPane, cFoo2) {
		t.Errorf("call pane: selected %v, main expanded %v, foo expanded %v", v.Selected(view.CallPane), v.Expanded(view.CallPane, cMain), v.Expanded(view.CallPane, cFoo2))
	}
	v.SetFlat(true)
	if err := o.Select(v, "x.cubex"); err != nil || v.Selected(view.CallPane) != rBar {
		t.Errorf("flat profile: selected %v, %v; want bar's region", v.Selected(view.CallPane), err)
	}
	for _, o := range []Args{{SelectMetric: "nosuch"}, {SelectCnode: "main/nosuch"}} {
		if err := o.Select(v, "x.cubex"); err == nil || !strings.Contains(err.Error(), "nosuch") || !strings.Contains(err.Error(), "x.cubex") {
			t.Errorf("%+v: error %v, want one naming nosuch and the file", o, err)
		}
	}
}

func TestSnapshotFile(t *testing.T) {
	if f, err := (Args{Files: []string{"a.cubex"}}).SnapshotFile(); f != "a.cubex" || err != nil {
		t.Errorf("with a file: %q, %v", f, err)
	}
	if f, err := (Args{Calc: "diff(a, b)"}).SnapshotFile(); f != "" || err != nil {
		t.Errorf("with --calc: %q, %v", f, err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	f, err := (Args{}).SnapshotFile()
	if errors.Is(err, view.ErrNoExample) {
		t.Skip("this build has no bundled example")
	}
	if err != nil || filepath.Base(f) == "" {
		t.Fatalf("the example: %q, %v", f, err)
	}
	if _, err := os.Stat(f); err != nil {
		t.Errorf("the example's file is not written: %v", err)
	}
}

// TestClusterFlags checks --select-cluster with and without the Clusters
// mode.
func TestClusterFlags(t *testing.T) {
	if _, err := Parse([]string{"--snapshot", "x.png", "--system-mode", "clusters", "--select-cluster", "2", "f.cubex"}); err != nil {
		t.Error(err)
	}
	if _, err := Parse([]string{"--snapshot", "x.png", "--select-cluster", "2", "f.cubex"}); err == nil {
		t.Error("--select-cluster without the Clusters mode")
	}
}

// Rows of the hand-made experiment the tests select.
var (
	mTime = view.Node{Kind: view.MetricNode, Index: 0}
	mMPI  = view.Node{Kind: view.MetricNode, Index: 1}
	cMain = view.Node{Kind: view.CnodeNode, Index: 0}
	cFoo2 = view.Node{Kind: view.CnodeNode, Index: 2}
	cBar3 = view.Node{Kind: view.CnodeNode, Index: 3}
	rBar  = view.Node{Kind: view.RegionNode, Index: 2}
)
