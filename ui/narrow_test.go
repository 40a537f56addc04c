package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeview/algebra"
	"cubeview/assets"
)

// longNamedPair writes the bundled example's runs under long names that
// differ in their middle, as Scalasca's experiment directories do.
func longNamedPair(t *testing.T) (before, after string) {
	t.Helper()
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	long := func(src, name string) string {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return long(files.Before, "scorep_tea_leaf_baseline_8x12_trace_with_a_long_suffix.cubex"),
		long(files.After, "scorep_tea_leaf_optimized_8x12_trace_with_a_long_suffix.cubex")
}

// longDiffWindow opens the difference of longNamedPair's runs.
func longDiffWindow(t *testing.T, a *App) *Window {
	t.Helper()
	before, after := longNamedPair(t)
	a.OpenExpression("diff("+before+", "+after+")", algebra.Options{}, nil)
	return lastWindow(t, a)
}

// TestDifferenceWindowFitsLaptop checks that a difference window of two
// runs with long names needs no more width than a small laptop screen
// has: it opened 1,687 px wide, as wide as its legend's line of badges.
func TestDifferenceWindowFitsLaptop(t *testing.T) {
	a := newTestApp(t)
	w := longDiffWindow(t, a)
	w.refresh()
	if got := w.legend.MinSize().Width; got > 500 {
		t.Errorf("legend needs %v px", got)
	}
	t.Logf("legend %v, content %v", w.legend.MinSize(), w.win.Content().MinSize())
	if got := w.win.Content().MinSize().Width; got > 800 {
		t.Errorf("window content needs %v px, more than 800", got)
	}
	w.win.Resize(fyne.NewSize(700, 500))
	if got := w.win.Canvas().Size().Width; got > 710 {
		t.Errorf("resized to 700 px, the window is %v px wide", got)
	}
	// The operands' line keeps what tells the runs apart.
	w.win.Resize(fyne.NewSize(1100, 500))
	for _, part := range []string{"A …baseline", "B …optimized"} {
		if got := w.legend.operands.Shown(); !strings.Contains(got, part) {
			t.Errorf("legend 1100 px wide shows %q, without %q", got, part)
		}
	}
	// Nothing of the legend overlaps: bar, its ends, the operands' line and
	// the swatches follow each other left to right.
	for _, width := range []float32{1100, 700, 400} {
		w.win.Resize(fyne.NewSize(width, 500))
		r := test.WidgetRenderer(w.legend)
		right := float32(-1)
		for _, o := range r.Objects() {
			if !o.Visible() || o.Size().Width == 0 {
				continue
			}
			if o.Position().X < right-0.5 {
				t.Errorf("%v px: %T at x=%v overlaps what ends at %v", width, o, o.Position().X, right)
			}
			right = max(right, o.Position().X+o.Size().Width)
		}
		if right > w.legend.Size().Width+0.5 {
			t.Errorf("%v px: the legend's parts end at %v, beyond its width %v", width, right, w.legend.Size().Width)
		}
	}
}
