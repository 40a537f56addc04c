package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// showFormDialog shows content in a dialog titled title, at least width
// wide, with Cancel and a confirm button; confirming calls submit and
// passes its error to showErr.
func showFormDialog(parent fyne.Window, title, confirm string, content fyne.CanvasObject, width float32, submit func() error, showErr func(error)) {
	d := dialog.NewCustomConfirm(title, confirm, "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		if err := submit(); err != nil {
			showErr(err)
		}
	}, parent)
	d.Resize(fyne.NewSize(width, 0).Max(d.MinSize()))
	d.Show()
}
