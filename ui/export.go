package ui

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"io"
	"net/url"
	"path/filepath"

	"fyne.io/fyne/v2"

	"cubeview/dialogform"
	"cubeview/view"
)

// exportCSV asks where to write the rows shown in pane d as CSV.
func (dl *dialogs) exportCSV(d view.Dim) {
	w := dl.w
	if w.view == nil {
		return
	}
	rows := w.panes[d].VisibleRows()
	what := d.String()
	w.dialogs.export("the "+what+" as CSV", dialogform.ExportName(w.doc, what, ".csv"), []string{".csv"}, func(path string) {
		var buf bytes.Buffer
		if err := view.PaneCSV(w.view, d, rows, &buf); err != nil {
			w.showError(err)
			return
		}
		w.dialogs.writeExport(path, buf.Bytes())
	})
}

// exportPanePNG asks where to write an image of pane d as it is drawn.
func (dl *dialogs) exportPanePNG(d view.Dim) {
	w := dl.w
	if w.view == nil {
		return
	}
	what := d.String()
	w.dialogs.export("the "+what+" as PNG", dialogform.ExportName(w.doc, what, ".png"), []string{".png"}, func(path string) {
		img, err := w.dialogs.objectImage(w.panes[d])
		if err != nil {
			w.showError(err)
			return
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			w.showError(err)
			return
		}
		w.dialogs.writeExport(path, buf.Bytes())
	})
}

// export shows the export form for what, suggesting name.
func (dl *dialogs) export(what, name string, exts []string, do func(path string)) {
	w := dl.w
	showForm(w.win, dialogform.ExportForm(what, name, w.app.startFolder(), exts, w.dialogs.chooseFolder, do), w.showError)
}

// writeExport writes data to path in the background.
func (dl *dialogs) writeExport(path string, data []byte) {
	w := dl.w
	w.busy.start("Writing " + filepath.Base(path) + " …")
	var err error
	w.app.async(func() {
		err = view.WriteExport(path, func(out io.Writer) error {
			_, err := out.Write(data)
			return err
		})
	}, func() {
		w.busy.stop()
		if err != nil {
			w.showError(err)
			return
		}
		w.hint.SetText("Exported " + path)
	})
}

// objectImage returns obj as the window draws it now.
func (dl *dialogs) objectImage(obj fyne.CanvasObject) (image.Image, error) {
	w := dl.w
	c := w.win.Canvas()
	full := c.Capture()
	if full == nil || c.Size().Width <= 0 {
		return nil, errors.New("the window has not been drawn yet")
	}
	scale := float32(full.Bounds().Dx()) / c.Size().Width
	pos := w.app.fy.Driver().AbsolutePositionForObject(obj)
	size := obj.Size()
	rect := image.Rect(int(pos.X*scale), int(pos.Y*scale), int((pos.X+size.Width)*scale), int((pos.Y+size.Height)*scale)).Intersect(full.Bounds())
	sub, ok := full.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok || rect.Empty() {
		return nil, errors.New("the pane is not on screen")
	}
	return sub.SubImage(rect), nil
}

// openMetricURL opens the documentation of metric row n.
func (m *menus) openMetricURL(n view.Node) {
	w := m.w
	if w.view == nil {
		return
	}
	u, err := url.Parse(view.MetricURL(w.view, n))
	if err != nil || u.String() == "" {
		w.hint.SetText("The metric names no documentation.")
		return
	}
	if err := w.app.fy.OpenURL(u); err != nil {
		w.showError(err)
		return
	}
	w.hint.SetText("Opened " + u.String())
}

// paneOf returns the pane a command is for: a context menu's (row n of
// pane d), else the pane the user worked in last.
func (m *menus) paneOf(d view.Dim, n view.Node) view.Dim {
	if n.Valid() {
		return d
	}
	return m.w.active
}
