package analysisview

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/analysis/cluster"
	"cubeview/model"
	"cubeview/view"
)

// ClusterPanel is the state of the clusters panel below a window's panes
// (View › Clusters of locations): it clusters the locations by the
// selected metric in the background, puts the system pane in the
// Clusters mode, lists the clusters and the outliers, and selects a
// cluster as a whole, whose members' sum or mean the metric and call
// panes then show. The widgets show what Show and Message give them.
type ClusterPanel struct {
	Run  view.Runner
	View func() *view.View // the window's view; nil while no experiment is open
	Busy func(text string) // long work starts
	Idle func()            // and ends
	// Show shows a report; the window refreshes its panes after it.
	Show    func(rep *ClusterReport)
	Message func(text string) // shown instead of the clusters

	// K is the number of clusters asked for; 0 chooses it.
	K int

	gen int            // the latest computation; older results are dropped
	rep *ClusterReport // what is shown
}

// ClusterReport is what the clusters panel shows.
type ClusterReport struct {
	Title string // metric, number of clusters and how k was chosen
	Note  string // what the distances are made of
	Rows  []ClusterRow
	exp   *model.Experiment
}

// ClusterRow is one cluster, or the outliers, of a ClusterReport.
type ClusterRow struct {
	Cluster int // its index; -1 for the outliers
	Color   color.NRGBA
	Label   string // "Cluster 1 · 512 locations · ranks 0-511"
	Detail  string // its top call path and how it differs from the others
}

// Report returns the report shown, nil before the first.
func (p *ClusterPanel) Report() *ClusterReport { return p.rep }

// Drop drops the results on their way (the panel is hidden).
func (p *ClusterPanel) Drop() { p.gen++ }

// Compute clusters the locations by the selected metric (collapsed, as
// it is stored along the metric tree) in the background.
func (p *ClusterPanel) Compute() {
	v := p.View()
	if v == nil {
		return
	}
	n := v.Selected(view.MetricPane)
	if n.Kind != view.MetricNode {
		p.Message("Select a metric to cluster the locations by.")
		return
	}
	e, m, k := v.Experiment(), n.Index, p.K
	p.gen++
	gen := p.gen
	p.Busy("Clustering locations by " + e.Metrics[m].UniqName + " …")
	var r *cluster.Result
	var rep *ClusterReport
	var err error
	p.Run(func() {
		if r, err = cluster.Locations(e, m, cluster.Options{K: k}); err == nil {
			rep = clusterReport(e, r)
		}
	}, func() {
		p.Idle()
		if gen != p.gen {
			return
		}
		v := p.View()
		if v == nil || v.Experiment() != e {
			return // the window shows another experiment now
		}
		if err != nil {
			p.Message(err.Error())
			return
		}
		v.Clusters().Set(m, r.Of, len(r.Clusters))
		v.SetMode(view.SystemPane, view.ClusterMode)
		p.rep = rep
		p.Show(rep)
	})
}

// Select selects row i of the report as a whole (a cluster, or the
// outliers; i < 0 selects all locations again), showing the sum of its
// members' values or, with mean, their mean.
func (p *ClusterPanel) Select(i int, mean bool) error {
	v := p.View()
	if v == nil || p.rep == nil || v.Experiment() != p.rep.exp {
		return nil
	}
	j := -2 // all locations
	if i >= 0 && i < len(p.rep.Rows) {
		j = p.rep.Rows[i].Cluster
	}
	return v.Clusters().Select(j, mean)
}

// Status says what the metric and call panes show: all locations, or
// the sum or mean of a cluster's members.
func (p *ClusterPanel) Status() string {
	v := p.View()
	if v == nil {
		return ""
	}
	j, mean := v.Clusters().Selected()
	if j < -1 {
		return "Metric and call panes: all locations."
	}
	what, whose := "sum", fmt.Sprintf("cluster %d's", j+1)
	if mean {
		what = "mean"
	}
	if j == -1 {
		whose = "the outliers'"
	}
	return fmt.Sprintf("Metric and call panes: the %s of %s %s.", what, whose, view.Count(len(v.Clusters().Members(j)), "location"))
}

func clusterReport(e *model.Experiment, r *cluster.Result) *ClusterReport {
	met := &e.Metrics[r.Metric]
	unit := ""
	if met.Unit != "" && met.Unit != "#" {
		unit = " " + met.Unit
	}
	val := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) + unit }
	how := "k given"
	if r.Auto {
		how = "k by silhouette"
		if len(r.Clusters) == 1 {
			how = "no separated groups"
		}
	}
	name := met.DispName
	if name == "" {
		name = met.UniqName
	}
	rep := &ClusterReport{exp: e,
		Title: fmt.Sprintf("%s: %s, %s (%s) of %s", name, view.Count(len(r.Clusters), "cluster"),
			view.Count(len(r.Outliers), "outlier"), how, view.Count(e.NumLocations(), "location")),
		Note: fmt.Sprintf("Each location's own values of %s per call path; distances over %d of %d call paths (%.1f %% of their variance), in units of the average location's total, %s.",
			met.UniqName, r.Used, r.Paths, 100*r.VarianceKept, val(r.Scale)),
	}
	names := analysis.NewPathNames(e)
	for j, cl := range r.Clusters {
		row := ClusterRow{Cluster: j, Color: view.ClusterColor(j),
			Label: fmt.Sprintf("Cluster %d · %s · %s", j+1, view.Count(len(cl.Members), "location"), cluster.Members(e, cl.Members))}
		total := 0.0
		for _, x := range cl.Centroid {
			total += x
		}
		var detail []string
		detail = append(detail, "mean "+val(total))
		if top := r.Top(j, 1); len(top) > 0 {
			detail = append(detail, fmt.Sprintf("top %s %s", lastParts(names.CallPath(top[0].Cnode)), val(top[0].Value)))
		}
		if d := r.Differences(j, 1); len(d) > 0 {
			detail = append(detail, fmt.Sprintf("vs the others %s %s", signedValue(d[0].Diff(), val), lastParts(names.CallPath(d[0].Cnode))))
		}
		row.Detail = strings.Join(detail, " · ")
		rep.Rows = append(rep.Rows, row)
	}
	if len(r.Outliers) > 0 {
		locs := make([]int, len(r.Outliers))
		var far []string
		for o, out := range r.Outliers {
			locs[o] = out.Location
			if o < 3 {
				s := fmt.Sprintf("%s %.2f from cluster %d", cluster.Name(e, out.Location), out.Distance, out.Nearest+1)
				if d := r.OutlierDifferences(o, 1); len(d) > 0 {
					s += fmt.Sprintf(" (%s %s)", signedValue(d[0].Diff(), val), lastParts(names.CallPath(d[0].Cnode)))
				}
				far = append(far, s)
			}
		}
		rep.Rows = append(rep.Rows, ClusterRow{Cluster: -1, Color: view.ClusterColor(-1),
			Label:  fmt.Sprintf("Outliers · %s · %s", view.Count(len(locs), "location"), cluster.Members(e, slices.Sorted(slices.Values(locs)))),
			Detail: strings.Join(far, "; ")})
	}
	return rep
}

func signedValue(x float64, val func(float64) string) string {
	if x > 0 || math.IsInf(x, 1) {
		return "+" + val(x)
	}
	return val(x)
}

// lastParts shortens a call path to its last region.
func lastParts(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return path
	}
	return "…/" + path[i+1:]
}
