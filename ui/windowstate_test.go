package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeview/numfmt"
	"cubeview/view"
)

// TestWindowStateRemembered: what the user set in a window — the panes'
// value modes, the sort order, the number format, the hottest-path
// threshold, the statistics panel and the window's size — is what the
// next session's window opens with (modes, order, panel and size were
// forgotten).
func TestWindowStateRemembered(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // both sessions' preferences
	session := func() *App {
		a := NewApp(test.NewTempApp(t))
		a.async = func(work, done func()) { work(); done() }
		a.fatal = func(err error) { t.Errorf("unexpected error: %v", err) }
		return a
	}
	file := dataFile(t, "cube3/example3.cube")
	a := session()
	a.OpenFile(file, nil)
	w := a.Windows()[0]
	w.SetMode(view.SystemPane, view.PeerDistribution)
	w.SetMode(view.CallPane, view.OwnRootPercent)
	w.SetOrder(view.ByValue)
	w.SetNumberStyle(len(numfmt.Styles) - 1)
	w.SetHotThreshold(0.3)
	menuItem(w, "View", "Statistics").Action()
	if !w.panels.StatsShown() {
		t.Fatal("View › Statistics shows no panel")
	}
	w.win.Resize(fyne.NewSize(1000, 700))
	wantFormat := w.view.Appearance().NumberFormat()
	w.win.Close()

	b := session()
	b.OpenFile(file, nil)
	v := b.Windows()[0]
	for d, want := range map[view.Dim]view.Mode{view.MetricPane: view.Absolute, view.CallPane: view.OwnRootPercent, view.SystemPane: view.PeerDistribution} {
		if got := v.view.Mode(d); got != want {
			t.Errorf("pane %d opens in mode %v, want %v", d, got, want)
		}
		if got := v.modes[d].Selected; got != want.String() {
			t.Errorf("pane %d's mode selector shows %q, want %q", d, got, want)
		}
	}
	if got := v.view.Order(); got != view.ByValue {
		t.Errorf("sort order %v, want by value", got)
	}
	if got := v.view.Appearance().NumberFormat(); got != wantFormat {
		t.Errorf("number format %+v, want %+v", got, wantFormat)
	}
	if got := v.view.HotPath().Threshold(); got != 0.3 {
		t.Errorf("hottest-path threshold %v, want 0.3", got)
	}
	if !v.panels.StatsShown() {
		t.Error("the statistics panel is not open again")
	}
	if got := v.win.Canvas().Size(); got.Width != 1000 || got.Height != 700 {
		t.Errorf("window opens %v, want 1000×700", got)
	}
}
