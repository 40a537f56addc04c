package view

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLaunch(t *testing.T) {
	tests := []struct {
		args    []string
		want    Launch
		wantErr bool
	}{
		{nil, Launch{Width: 1280, Height: 800}, false},
		{[]string{"a.cubex", "b.cube"}, Launch{Files: []string{"a.cubex", "b.cube"}, Width: 1280, Height: 800}, false},
		{[]string{"--snapshot", "o.png", "--size", "800x600", "--select-metric", "time", "--select-cnode=main/foo", "--expand-system", "f.cubex"},
			Launch{Files: []string{"f.cubex"}, Snapshot: "o.png", Width: 800, Height: 600, SelectMetric: "time", SelectCnode: "main/foo", ExpandSystem: true}, false},
		{[]string{"--", "--odd-name.cube"}, Launch{Files: []string{"--odd-name.cube"}, Width: 1280, Height: 800}, false},
		{[]string{"--size", "800"}, Launch{}, true},
		{[]string{"--snapshot"}, Launch{}, true},
		{[]string{"--bogus"}, Launch{}, true},
		{[]string{"--select-metric", "time"}, Launch{}, true},
		{[]string{"--snapshot", "o.png", "a", "b"}, Launch{}, true},
		{[]string{"--system-mode", "peer-distribution"}, Launch{}, true},
		{[]string{"--snapshot", "o.png", "--system-mode", "peer", "f.cubex"}, Launch{}, true},
		{[]string{"--snapshot", "o.png", "--system-mode", "peer-distribution", "f.cubex"},
			Launch{Files: []string{"f.cubex"}, Snapshot: "o.png", Width: 1280, Height: 800, SystemMode: "peer-distribution"}, false},
	}
	for _, tt := range tests {
		got, err := ParseLaunch(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseLaunch(%q) error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if tt.wantErr {
			continue
		}
		if got.Snapshot != tt.want.Snapshot || got.Width != tt.want.Width || got.Height != tt.want.Height ||
			got.SelectMetric != tt.want.SelectMetric || got.SelectCnode != tt.want.SelectCnode ||
			got.ExpandSystem != tt.want.ExpandSystem || got.SystemMode != tt.want.SystemMode || len(got.Files) != len(tt.want.Files) {
			t.Errorf("ParseLaunch(%q) = %+v, want %+v", tt.args, got, tt.want)
			continue
		}
		for i := range got.Files {
			if got.Files[i] != tt.want.Files[i] {
				t.Errorf("ParseLaunch(%q) files = %q, want %q", tt.args, got.Files, tt.want.Files)
			}
		}
	}
}

func TestParseCalcFlag(t *testing.T) {
	o, err := ParseLaunch([]string{"--calc", "diff(a.cubex, b.cubex)", "--snapshot", "x.png", "--select-metric", "time"})
	if err != nil || o.Calc != "diff(a.cubex, b.cubex)" || o.Snapshot != "x.png" {
		t.Errorf("ParseLaunch: %+v, %v", o, err)
	}
	if _, err := ParseLaunch([]string{"--calc", "diff(a, b)", "--snapshot", "x.png", "c.cubex"}); err == nil {
		t.Error("--snapshot with --calc and a file should fail")
	}
	if _, err := ParseLaunch([]string{"--calc"}); err == nil {
		t.Error("--calc without a value should fail")
	}
}

// TestLaunchSelect selects what --select-metric and --select-cnode name,
// with their ancestors expanded; the flat profile selects the region.
func TestLaunchSelect(t *testing.T) {
	v := NewView(handMade())
	o := Launch{SelectMetric: "mpi", SelectCnode: "main/foo/foo/bar"}
	if err := o.Select(v, "x.cubex"); err != nil {
		t.Fatal(err)
	}
	if v.Selected(MetricPane) != mMPI || !v.Expanded(MetricPane, mTime) {
		t.Errorf("metric pane: selected %v, time expanded %v", v.Selected(MetricPane), v.Expanded(MetricPane, mTime))
	}
	if v.Selected(CallPane) != cBar3 || !v.Expanded(CallPane, cMain) || !v.Expanded(CallPane, cFoo2) {
		t.Errorf("call pane: selected %v, main expanded %v, foo expanded %v", v.Selected(CallPane), v.Expanded(CallPane, cMain), v.Expanded(CallPane, cFoo2))
	}
	v.SetFlat(true)
	if err := o.Select(v, "x.cubex"); err != nil || v.Selected(CallPane) != rBar {
		t.Errorf("flat profile: selected %v, %v; want bar's region", v.Selected(CallPane), err)
	}
	for _, o := range []Launch{{SelectMetric: "nosuch"}, {SelectCnode: "main/nosuch"}} {
		if err := o.Select(v, "x.cubex"); err == nil || !strings.Contains(err.Error(), "nosuch") || !strings.Contains(err.Error(), "x.cubex") {
			t.Errorf("%+v: error %v, want one naming nosuch and the file", o, err)
		}
	}
}

func TestSnapshotFile(t *testing.T) {
	if f, err := (Launch{Files: []string{"a.cubex"}}).SnapshotFile(); f != "a.cubex" || err != nil {
		t.Errorf("with a file: %q, %v", f, err)
	}
	if f, err := (Launch{Calc: "diff(a, b)"}).SnapshotFile(); f != "" || err != nil {
		t.Errorf("with --calc: %q, %v", f, err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	f, err := (Launch{}).SnapshotFile()
	if errors.Is(err, ErrNoExample) {
		t.Skip("this build has no bundled example")
	}
	if err != nil || filepath.Base(f) == "" {
		t.Fatalf("the example: %q, %v", f, err)
	}
	if _, err := os.Stat(f); err != nil {
		t.Errorf("the example's file is not written: %v", err)
	}
}
