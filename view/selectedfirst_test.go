package view

import (
	"os"
	"path/filepath"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
)

// TestSelectedFirst: with SelectedFirst on, a window's first Update needs
// only the selected metric's data (SelectedFirst.Missing) and shows it with the
// same values as a complete view, the other metrics' rows pending ("…",
// nothing read for them); after reading Missing, every row equals the
// complete view's. Real Score-P files with several metrics.
func TestSelectedFirst(t *testing.T) {
	for _, f := range [][]string{
		{"cube4", "cpi", "profile.cubex"},
		{"cube4", "lulesh", "lulesh.p64.size25.r1.cubex"},
		{"cube4", "time.p4.n2000.x1.r0", "profile.cubex"},
	} {
		path := testkit.Data(t, f...)
		full, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		want := NewView(full)
		if err := want.Update(); err != nil {
			t.Fatal(err)
		}
		e, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		v := NewView(e)
		vs := v.Values()
		vs.SelectedFirst().Set(true)
		sel, ok := metricSel(v)
		if !ok {
			t.Fatalf("%s: no metric selected", path)
		}
		first := vs.SelectedFirst().Missing()
		for _, r := range first {
			if r.Metric != sel.Metric {
				t.Errorf("%s: the first read includes metric %q besides the selected %q", path, e.Metrics[r.Metric].UniqName, e.Metrics[sel.Metric].UniqName)
			}
		}
		Read(first)
		if err := v.Update(); err != nil {
			t.Fatal(err)
		}
		roots := v.Roots(MetricPane)
		if len(roots) < 2 || !vs.SelectedFirst().Pending() {
			t.Fatalf("%s: %d metric roots, pending %v: want several, some pending", path, len(roots), vs.SelectedFirst().Pending())
		}
		pending := 0
		for _, n := range roots {
			got := vs.Text(MetricPane, n)
			switch {
			case n.Index == sel.Metric:
				if w := want.Values().Text(MetricPane, n); got != w {
					t.Errorf("%s: selected metric shows %q, want %q", path, got, w)
				}
			case got == pendingText:
				pending++
				if e.Summarized(n.Index) || e.Loaded(n.Index) {
					t.Errorf("%s: metric %q was read for the first paint", path, e.Metrics[n.Index].UniqName)
				}
			}
		}
		if pending == 0 {
			t.Errorf("%s: no metric row pending at the first paint", path)
		}
		for _, c := range v.Roots(CallPane) {
			if got, w := vs.Text(CallPane, c), want.Values().Text(CallPane, c); got != w {
				t.Errorf("%s: call root %s shows %q, want %q", path, v.Label(c), got, w)
			}
		}
		Read(vs.Missing())
		vs.SelectedFirst().Set(false)
		if err := v.Update(); err != nil {
			t.Fatal(err)
		}
		for _, n := range roots {
			if got, w := vs.Text(MetricPane, n), want.Values().Text(MetricPane, n); got != w {
				t.Errorf("%s: metric %q shows %q after reading the rest, want %q", path, e.Metrics[n.Index].UniqName, got, w)
			}
		}
	}
}

// BenchmarkWindowStart: from opening a file to the window's first values
// (what a window computes before its first paint), reading every shown
// metric's totals first ("all-metrics", as before) or only the selected
// metric's ("selected-first", SelectedFirst on). The file: 10k call
// paths × 1,024 locations × 4 metrics (≈ 330 MB), generated into
// $TMPDIR/cubeview-bench on first use and kept.
func BenchmarkWindowStart(b *testing.B) {
	path := bigCubex(b)
	for _, mode := range []string{"all-metrics", "selected-first"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := testkit.CPUTime()
			for b.Loop() {
				exp, err := format.Open(path) // as document.Read does
				if err != nil {
					b.Fatal(err)
				}
				PrimeFirstMetric(exp)
				v := NewView(exp)
				v.Values().SelectedFirst().Set(mode == "selected-first")
				Read(v.Values().SelectedFirst().Missing())
				if err := v.Update(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((testkit.CPUTime()-cpu0).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

func bigCubex(b *testing.B) string {
	dir := filepath.Join(os.TempDir(), "cubeview-bench")
	path := filepath.Join(dir, "window-10k-1024-4.cubex")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	e := synth.Generate(synth.Config{Cnodes: 10000, Locations: 1024, Threads: 4, Nodes: 32, Metrics: 4, Seed: 1, Flat: true})
	if err := format.Write(path, e); err != nil {
		b.Fatal(err)
	}
	return path
}
