package analysisview

import (
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/view"
)

func TestClusterPanel(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 12, Processes: 64, Threads: 1, Groups: 3, Noise: 0.02, Outliers: 1, Seed: 6})
	v := view.NewView(e)
	var shown *ClusterReport
	var msg string
	p := ClusterPanel{
		Run:     func(work, done func()) { work(); done() },
		View:    func() *view.View { return v },
		Busy:    func(string) {},
		Idle:    func() {},
		Show:    func(r *ClusterReport) { shown = r },
		Message: func(s string) { msg = s },
	}
	p.Compute()
	if shown == nil {
		t.Fatalf("no report; message %q", msg)
	}
	if !strings.HasPrefix(shown.Title, "Time: 3 clusters, 1 outlier (k by silhouette) of 64 locations") {
		t.Errorf("title %q", shown.Title)
	}
	if len(shown.Rows) != 4 || shown.Rows[3].Cluster != -1 || !strings.HasPrefix(shown.Rows[3].Label, "Outliers · 1 location · rank ") {
		t.Fatalf("rows %+v", shown.Rows)
	}
	if !strings.HasPrefix(shown.Rows[0].Label, "Cluster 1 · ") || shown.Rows[0].Color != view.ClusterColor(0) {
		t.Errorf("row 0 %+v", shown.Rows[0])
	}
	if v.Mode(view.SystemPane) != view.ClusterMode {
		t.Error("the system pane is not in the Clusters mode")
	}
	if _, ok := v.Clusters().Clustered(); !ok {
		t.Error("the view has no clusters")
	}
	if err := p.Select(1, true); err != nil {
		t.Fatal(err)
	}
	if j, mean := v.Clusters().Selected(); j != 1 || !mean {
		t.Errorf("selected %d mean %v", j, mean)
	}
	if s := p.Status(); !strings.Contains(s, "the mean of cluster 2's") {
		t.Errorf("status %q", s)
	}
	// The outliers' row selects the outliers as a whole: the panes show
	// their sum, here the one outlier's values.
	if err := p.Select(3, false); err != nil {
		t.Fatal(err)
	}
	if j, _ := v.Clusters().Selected(); j != -1 {
		t.Errorf("outliers' row selected cluster %d, want the outliers (-1)", j)
	}
	if s := p.Status(); !strings.Contains(s, "the sum of the outliers' 1 location") {
		t.Errorf("status %q", s)
	}
	out := v.Clusters().Members(-1)
	if len(out) != 1 {
		t.Fatalf("outliers %v", out)
	}
	b, err := e.Block(0)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for c := range e.Cnodes {
		want += b.Value(c, out[0])
	}
	time := view.Node{Kind: view.MetricNode, Index: 0}
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	if got := v.Values().Value(view.MetricPane, time); !near(got, want) {
		t.Errorf("outliers' time %v, want the outlier's %v", got, want)
	}
	if err := p.Select(-1, false); err != nil {
		t.Fatal(err)
	}
	if j, _ := v.Clusters().Selected(); j != -2 || !strings.Contains(p.Status(), "all locations") {
		t.Errorf("after selecting no row: cluster %d, %q", j, p.Status())
	}
	p.K = 2
	p.Compute()
	if !strings.Contains(shown.Title, "(k given)") {
		t.Errorf("title %q", shown.Title)
	}
}
