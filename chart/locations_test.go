package chart

import (
	"bytes"
	"image/color"
	"strings"
	"testing"
)

// TestLocationChartHit draws eight bars and finds each again under the
// middle of its column, where the image shows the bar's colour (the
// selected one highlighted); outside the data area nothing is hit.
func TestLocationChartHit(t *testing.T) {
	vals := []float64{3, 5, 1, 4, 4, 2, 6, 5}
	c, err := NewLocationChart(Locations{Title: "t", ValueLabel: "sec", LocationLabel: "location", Values: vals, Min: 1, Mean: 3.75, Max: 6, Selected: 2})
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 600, 300
	img, err := c.Image(w, h)
	if err != nil {
		t.Fatal(err)
	}
	b := c.bars
	for i := range vals {
		x := b.left + (float64(i)+0.5)*(b.right-b.left)/float64(len(vals))
		y := h - (b.bottom + 2) // just above the axis: inside every bar
		if got := c.Hit(x, y); got != i {
			t.Errorf("column %d: hit %d", i, got)
		}
		r, g, bl, _ := img.At(int(x), int(y)).RGBA()
		col := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
		if i == 2 && col != (color.RGBA{230, 120, 0, 255}) {
			t.Errorf("selected bar %d drawn %v", i, col)
		}
		if i != 2 && (col == color.RGBA{255, 255, 255, 255} || col == color.RGBA{230, 120, 0, 255}) {
			t.Errorf("bar %d drawn %v", i, col)
		}
	}
	if c.Hit(2, 2) != -1 || c.Hit(w-2, h/2) != -1 {
		t.Error("a point outside the bars hits one")
	}
	var svg bytes.Buffer
	if err := c.Write(&svg, "svg", w, h); err != nil || !strings.Contains(svg.String(), "mean 3.75") {
		t.Errorf("svg: %v, legend missing", err)
	}
	if _, err := NewLocationChart(Locations{}); err == nil {
		t.Error("no locations: no error")
	}
}

// TestLocationTicks labels at most about ten locations, from 0.
func TestLocationTicks(t *testing.T) {
	for _, n := range []int{1, 8, 11, 64, 1024, 8192} {
		ticks := locationTicks{}.Ticks(-0.5, float64(n)-0.5)
		if len(ticks) == 0 || len(ticks) > 11 || ticks[0].Value != 0 {
			t.Errorf("%d locations: %d ticks from %v", n, len(ticks), ticks[0].Value)
		}
	}
}

// BenchmarkLocationChart draws 1,024 bars at the size of a window's panel.
func BenchmarkLocationChart(b *testing.B) {
	vals := make([]float64, 1024)
	for i := range vals {
		vals[i] = float64(i%97) + 10
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := NewLocationChart(Locations{Title: "t", Values: vals, Min: 10, Mean: 58, Max: 106, Selected: 5})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Image(1300, 300); err != nil {
			b.Fatal(err)
		}
	}
}
