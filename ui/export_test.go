package ui

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/analysisview"
	"cubeview/view"
)

// TestExport writes what the window shows: the call pane as the window
// draws it (PNG of the pane's size), the per-location chart as PNG and
// SVG, and the bottom-up rows shown (one branch open) as CSV.
func TestExport(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	dir := t.TempDir()
	e := w.Document().Exp
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})

	img, err := w.dialogs.objectImage(w.panes[view.CallPane])
	if err != nil {
		t.Fatal(err)
	}
	scale := w.win.Canvas().Scale()
	if s := w.panes[view.CallPane].Size(); img.Bounds().Dx() != int(s.Width*scale) || img.Bounds().Dy() != int(s.Height*scale) {
		t.Errorf("pane image %v, pane %v", img.Bounds(), s)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	pngPath := filepath.Join(dir, "call.png")
	w.dialogs.writeExport(pngPath, buf.Bytes())
	if data, err := os.ReadFile(pngPath); err != nil || !bytes.Equal(data, buf.Bytes()) || !strings.Contains(w.hint.Text, "Exported") {
		t.Errorf("pane PNG: %v, hint %q", err, w.hint.Text)
	}

	w.panels.ShowLocations(true)
	for _, name := range []string{"loc.png", "loc.svg"} {
		if err := w.panels.locations.rep.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) < 1000 {
			t.Errorf("%s: %d bytes, %v", name, len(data), err)
		}
		if strings.HasSuffix(name, ".svg") && !strings.Contains(string(data), "mean") {
			t.Error("the SVG has no mean line's legend")
		}
	}

	w.panels.ShowBottomUp(true)
	p := w.panels.bottomUp
	top := p.childIDs("")
	p.tree.OpenBranch(top[2])
	ids := p.visibleIDs()
	if want := len(top) + len(p.childIDs(top[2])); len(ids) != want {
		t.Fatalf("%d rows shown, want %d", len(ids), want)
	}
	buf.Reset()
	if err := analysisview.BottomUpCSV(p.b, ids, &buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(recs) != len(ids)+1 || recs[4][2] != "1" {
		t.Errorf("%v: %d records; the first caller %q", err, len(recs), recs[4])
	}
	for _, l := range []string{"Export active pane as CSV…", "Export active pane as PNG…"} {
		if it := menuItem(w, "File", l); it == nil || it.Disabled {
			t.Errorf("File › %s: %+v", l, it)
		}
	}
}
