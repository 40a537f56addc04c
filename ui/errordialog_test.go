package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestErrorDialogKeepsFileName: the error dialog starts with a capital
// letter without capitalising the file name a message starts with
// (Fyne's own error dialog showed "Trunc.cubex: …").
func TestErrorDialogKeepsFileName(t *testing.T) {
	app := test.NewTempApp(t)
	win := app.NewWindow("test")
	win.Resize(fyne.NewSize(800, 600))
	showErrorDialog(errors.New("trunc.cubex: truncated tar archive: header at byte 512"), win)
	top := win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shown")
	}
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			texts = append(texts, x.Text)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(top)
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "File trunc.cubex: truncated tar archive") || strings.Contains(all, "Trunc.cubex") {
		t.Errorf("dialog text %q", all)
	}
}
