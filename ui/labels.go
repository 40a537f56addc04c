package ui

import (
	"cubeview/form"
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Constructors of the kinds of label the windows repeat.

// truncLabel returns a label that ends in "…" where it is too narrow.
func truncLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

// noteLabel returns a label of low importance that wraps at word
// boundaries, for hints and notes below the content.
func noteLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.LowImportance
	return l
}

// titleLabel returns a bold label, for the title of a pane or panel.
func titleLabel(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// fixedWidth is a layout that gives its objects one width and their
// own height, for a widget that would otherwise take all the width it is
// given or none.
type fixedWidth struct{ width float32 }

// MinSize is the width and the tallest object's height, nothing while
// every object is hidden.
func (f fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var size fyne.Size
	for _, o := range objs {
		if o.Visible() {
			size = fyne.NewSize(f.width, max(size.Height, o.MinSize().Height))
		}
	}
	return size
}

func (f fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(fyne.NewSize(f.width, size.Height))
	}
}

// showErrorDialog reports err in a dialog over win, in the words of
// form.ErrorText: a capital first letter, file names as they are.
func showErrorDialog(err error, win fyne.Window) {
	dialog.ShowError(errors.New(form.ErrorText(err)), win)
}
