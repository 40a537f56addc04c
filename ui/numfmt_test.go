package ui

import (
	"math"
	"testing"
)

func TestNumberFormat(t *testing.T) {
	f := DefaultNumberFormat()
	tests := []struct {
		v       float64
		integer bool
		want    string
	}{
		{0, false, "0.00"},
		{1.234, false, "1.23"},
		{1.235e-8, false, "0.00"},
		{-1e-9, false, "0.00"},
		{math.Copysign(0, -1), false, "0.00"},
		{-2.5, false, "-2.50"},
		{9999.994, false, "9999.99"},
		{12345.678, false, "1.23e4"},
		{-12345.678, false, "-1.23e4"},
		{99999.9, false, "1.00e5"},
		{3.52e10, true, "3.52e10"},
		{2576, true, "2576"},
		{-0.4, true, "0"},
		{16, true, "16"},
		{math.NaN(), false, "-"},
		{math.NaN(), true, "-"},
		{math.Inf(1), false, "inf"},
	}
	for _, tt := range tests {
		if got := f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("Format(%v, %v) = %q, want %q", tt.v, tt.integer, got, tt.want)
		}
	}
	f.Decimals = 0
	if got := f.Format(2.6, false); got != "3" {
		t.Errorf("0 decimals: %q", got)
	}
	f.Decimals, f.SciFrom = 3, 2
	if got := f.Format(123.4567, false); got != "1.235e2" {
		t.Errorf("scientific from 1e2 with 3 decimals: %q", got)
	}
}

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
			got.ExpandSystem != tt.want.ExpandSystem || len(got.Files) != len(tt.want.Files) {
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
