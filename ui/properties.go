package ui

import (
	"cubeview/document"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

func (dl *dialogs) showProperties() {
	w := dl.w
	if w.doc == nil {
		return
	}
	text := document.Properties(w.doc)
	label := widget.NewLabel(text)
	label.Selectable = true
	label.TextStyle = fyne.TextStyle{Monospace: true}
	copyButton := widget.NewButton("Copy", func() { w.app.fy.Clipboard().SetContent(text) })
	content := container.NewBorder(nil, container.NewHBox(copyButton), nil, nil, container.NewScroll(label))
	d := dialog.NewCustom("Properties of "+w.doc.Name, "Close", content, w.win)
	d.Resize(fyne.NewSize(900, 560))
	d.Show()
}
