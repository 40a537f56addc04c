package ui

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestBoxPlotsOnDarkTheme: in a dark window the statistics panel's box
// plots are drawn on the window's background with light text and lines
// (they were white pictures, glaring and hard to read there); in a light
// window they stay black on white.
func TestBoxPlotsOnDarkTheme(t *testing.T) {
	for _, tt := range []struct {
		name string
		dark bool
	}{{"dark", true}, {"light", false}} {
		a := newTestApp(t)
		variant := theme.VariantLight
		if tt.dark {
			variant = theme.VariantDark
		}
		test.ApplyTheme(t, variantTheme{theme.DefaultTheme(), variant})
		w := openWindow(t, a, dataFile(t, "cube3/example3.cube"))
		menuItem(w, "View", "Statistics").Action()
		for name, img := range map[string]image.Image{"selection": w.panels.stats.selImg.Image, "top call paths": w.panels.stats.topImg.Image} {
			if img == nil {
				t.Fatalf("%s: no box plot of the %s", tt.name, name)
			}
			dark, light := shares(img)
			if tt.dark && (dark < 0.8 || light < 0.002) {
				t.Errorf("dark theme, box plot of the %s: %.1f %% dark and %.2f %% light pixels; want a dark picture with light text", name, 100*dark, 100*light)
			}
			if !tt.dark && light < 0.8 {
				t.Errorf("light theme, box plot of the %s: %.1f %% light pixels", name, 100*light)
			}
		}
	}
}

// variantTheme is a theme of one variant, whatever the settings say.
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// shares returns the fractions of img's pixels that are dark (luminance
// below 25 %) and light (above 75 %).
func shares(img image.Image) (dark, light float64) {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 0xffff
			switch {
			case l < 0.25:
				dark++
			case l > 0.75:
				light++
			}
			n++
		}
	}
	return dark / float64(n), light / float64(n)
}
