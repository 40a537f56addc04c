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
	if err := p.Select(3, false); err != nil { // the outliers: all locations
		t.Fatal(err)
	}
	if j, _ := v.Clusters().Selected(); j != -1 {
		t.Errorf("outliers' row selected cluster %d", j)
	}
	p.K = 2
	p.Compute()
	if !strings.Contains(shown.Title, "(k given)") {
		t.Errorf("title %q", shown.Title)
	}
}
