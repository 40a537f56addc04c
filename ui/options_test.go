package ui

import (
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args    []string
		want    Options
		wantErr bool
	}{
		{nil, Options{Width: 1280, Height: 800}, false},
		{[]string{"a.cubex", "b.cube"}, Options{Files: []string{"a.cubex", "b.cube"}, Width: 1280, Height: 800}, false},
		{[]string{"--snapshot", "o.png", "--size", "800x600", "--select-metric", "time", "--select-cnode=main/foo", "--expand-system", "f.cubex"},
			Options{Files: []string{"f.cubex"}, Snapshot: "o.png", Width: 800, Height: 600, SelectMetric: "time", SelectCnode: "main/foo", ExpandSystem: true}, false},
		{[]string{"--", "--odd-name.cube"}, Options{Files: []string{"--odd-name.cube"}, Width: 1280, Height: 800}, false},
		{[]string{"--size", "800"}, Options{}, true},
		{[]string{"--snapshot"}, Options{}, true},
		{[]string{"--bogus"}, Options{}, true},
		{[]string{"--select-metric", "time"}, Options{}, true},
		{[]string{"--snapshot", "o.png", "a", "b"}, Options{}, true},
		{[]string{"--system-mode", "peer-distribution"}, Options{}, true},
		{[]string{"--snapshot", "o.png", "--system-mode", "peer", "f.cubex"}, Options{}, true},
		{[]string{"--snapshot", "o.png", "--system-mode", "peer-distribution", "f.cubex"},
			Options{Files: []string{"f.cubex"}, Snapshot: "o.png", Width: 1280, Height: 800, SystemMode: "peer-distribution"}, false},
	}
	for _, tt := range tests {
		got, err := ParseArgs(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseArgs(%q) error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if tt.wantErr {
			continue
		}
		if got.Snapshot != tt.want.Snapshot || got.Width != tt.want.Width || got.Height != tt.want.Height ||
			got.SelectMetric != tt.want.SelectMetric || got.SelectCnode != tt.want.SelectCnode ||
			got.ExpandSystem != tt.want.ExpandSystem || got.SystemMode != tt.want.SystemMode || len(got.Files) != len(tt.want.Files) {
			t.Errorf("ParseArgs(%q) = %+v, want %+v", tt.args, got, tt.want)
			continue
		}
		for i := range got.Files {
			if got.Files[i] != tt.want.Files[i] {
				t.Errorf("ParseArgs(%q) files = %q, want %q", tt.args, got.Files, tt.want.Files)
			}
		}
	}
}
