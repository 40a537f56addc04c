package ui

import (
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
