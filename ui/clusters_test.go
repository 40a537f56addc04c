package ui

import (
	"strings"
	"testing"

	"cubeview/view"
)

// TestClustersPanel opens View › Clusters of locations on BT-MZ (2 ranks
// × 4 threads), where the master threads and the workers form two
// clusters, colours the system pane by cluster and selects the master
// threads as a whole: the panes show their sum, then their mean.
func TestClustersPanel(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/quirks/cube4.8_with_checksum_bug.cubex"))
	e := w.Document().Exp
	time := view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")}
	w.view.Select(view.MetricPane, time)
	w.refresh()
	total := w.view.Values().Value(view.MetricPane, time)
	it := menuItem(w, "View", "Clusters of locations")
	if it == nil || it.Disabled {
		t.Fatalf("View › Clusters of locations missing or disabled: %+v", it)
	}
	it.Action()
	p := w.panels.clusters
	if !w.panels.ClustersShown() || p.m.Report() == nil {
		t.Fatal("the clusters panel is not shown")
	}
	if w.view.Mode(view.SystemPane) != view.ClusterMode || w.modes[view.SystemPane].Selected != "Clusters" {
		t.Errorf("system pane mode %v, selector %q", w.view.Mode(view.SystemPane), w.modes[view.SystemPane].Selected)
	}
	rows := p.rows()
	if len(rows) != 2 || !strings.HasSuffix(rows[1].Label, "2 locations · ranks 0-1.0") {
		t.Fatalf("rows %+v", rows)
	}
	master := e.Locations[0] // rank 0, master thread
	if got := w.view.Row(view.SystemPane, view.Node{Kind: view.SystemNode, Index: master}).Color; got != view.ClusterColor(1) {
		t.Errorf("master thread's colour %v, want cluster 2's", got)
	}
	p.list.Select(1)
	sum := w.view.Values().Value(view.MetricPane, time)
	var want float64
	b, err := e.Block(time.Index)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range w.view.Clusters().Members(1) {
		for c := range e.Cnodes {
			want += b.Value(c, l)
		}
	}
	if !near(sum, want) || near(sum, total) {
		t.Errorf("time of the master threads %v, want %v (all: %v)", sum, want, total)
	}
	p.mean.SetSelected("Mean")
	if got := w.view.Values().Value(view.MetricPane, time); !near(got, want/2) {
		t.Errorf("mean %v, want %v", got, want/2)
	}
	if !strings.Contains(p.status.Text, "mean of cluster 2's 2 locations") {
		t.Errorf("status %q", p.status.Text)
	}
	w.panels.ShowClusters(false)
	if w.panels.ClustersShown() {
		t.Error("the panel stays")
	}
}

// TestClustersOutliersAsGroup: on LULESH with 64 ranks (two clusters
// and nine outliers) the outliers' row selects the outliers as a whole:
// the metric pane shows the sum of their time, then its mean, and the
// row stays the list's selection.
func TestClustersOutliersAsGroup(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p64.size25.r1.cubex"))
	e := w.Document().Exp
	time := view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")}
	w.view.Select(view.MetricPane, time)
	w.refresh()
	total := w.view.Values().Value(view.MetricPane, time)
	menuItem(w, "View", "Clusters of locations").Action()
	p := w.panels.clusters
	if p == nil || p.m.Report() == nil {
		t.Fatal("no clusters panel")
	}
	rows := p.rows()
	last := len(rows) - 1
	if last < 1 || rows[last].Cluster != -1 || !strings.HasPrefix(rows[last].Label, "Outliers · 9 locations · ") {
		t.Fatalf("rows %+v", rows)
	}
	p.list.Select(last)
	out := w.view.Clusters().Members(-1)
	b, err := e.Block(time.Index)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for _, l := range out {
		for c := range e.Cnodes {
			want += b.Value(c, l)
		}
	}
	if got := w.view.Values().Value(view.MetricPane, time); len(out) != 9 || !near(got, want) || near(got, total) {
		t.Errorf("time of the %d outliers %v, want %v (all: %v)", len(out), got, want, total)
	}
	if !strings.Contains(p.status.Text, "sum of the outliers' 9 locations") || p.selectedRow() != last {
		t.Errorf("status %q, selected row %d of %d", p.status.Text, p.selectedRow(), last)
	}
	p.mean.SetSelected("Mean")
	if got := w.view.Values().Value(view.MetricPane, time); !near(got, want/9) {
		t.Errorf("mean of the outliers %v, want %v", got, want/9)
	}
}
