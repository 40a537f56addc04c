package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// appTheme is Fyne's theme with disclosure triangles, as Cube and most
// tree views draw them, instead of arrows: Fyne's tree draws the
// navigate-next and move-down icons for closed and open branches.
type appTheme struct{ fyne.Theme }

func (t appTheme) Icon(n fyne.ThemeIconName) fyne.Resource {
	switch n {
	case theme.IconNameNavigateNext:
		return t.Theme.Icon(theme.IconNameMenuExpand)
	case theme.IconNameMoveDown:
		return t.Theme.Icon(theme.IconNameArrowDropDown)
	}
	return t.Theme.Icon(n)
}

// darkPaper returns the theme's background when it is dark, for plots to
// draw light on it; nil for a light theme (plots black on white).
func darkPaper() color.Color {
	bg := theme.Color(theme.ColorNameBackground)
	r, g, b, _ := bg.RGBA()
	// Relative luminance, roughly: dark below the middle grey.
	if 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(b) < 0.5*0xffff {
		return bg
	}
	return nil
}
