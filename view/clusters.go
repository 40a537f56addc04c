package view

import (
	"fmt"
	"image/color"

	"cubeview/analysis/cluster"
	"cubeview/colormap"
	"cubeview/model"
)

// clusterState is what the system pane's Clusters mode shows: the
// cluster of every location, and the cluster selected as a whole, whose
// members' sum or mean the metric and call panes show.
type clusterState struct {
	of       []int // per location: its cluster, -1 an outlier; nil: not clustered
	count    int
	metric   int   // the metric clustered
	node     []int // per system node: its leaves' common cluster, mixedCluster, or -1
	selected int   // the cluster selected as a whole; -1 none
	mean     bool
	subset   *model.Experiment // the selected cluster's members, or nil
}

// mixedCluster marks a system node whose locations lie in several clusters.
const mixedCluster = -2

// SetClusters gives every location (data column) its cluster, -1 for an
// outlier, as a clustering of metric found them; nil forgets them. The
// cluster selected as a whole is dropped.
func (v *View) SetClusters(metric int, of []int, count int) {
	c := &v.clusters
	v.SelectCluster(-1, false)
	c.of, c.count, c.metric, c.node = of, count, metric, nil
	if of == nil {
		return
	}
	e := v.exp
	c.node = make([]int, len(e.System))
	set := make([]bool, len(e.System))
	for l, j := range of {
		for s := e.Locations[l]; s >= 0; s = e.System[s].Parent {
			switch {
			case !set[s]:
				c.node[s], set[s] = j, true
			case c.node[s] != j:
				c.node[s] = mixedCluster
			}
		}
	}
}

// Clustered returns the metric the locations were clustered by and
// whether they were.
func (v *View) Clustered() (metric int, ok bool) {
	return v.clusters.metric, v.clusters.of != nil
}

// ClusterOf returns the cluster of location l: -1 for an outlier, -2
// when the locations are not clustered.
func (v *View) ClusterOf(l int) int {
	if v.clusters.of == nil {
		return mixedCluster
	}
	return v.clusters.of[l]
}

// ClusterMembers returns the locations of cluster j (-1: the outliers).
func (v *View) ClusterMembers(j int) []int {
	var out []int
	for l, k := range v.clusters.of {
		if k == j {
			out = append(out, l)
		}
	}
	return out
}

// SelectCluster selects cluster j as a whole: the metric and call panes
// show the sum (or with mean the mean) of its members' values; j < 0
// shows all locations again.
func (v *View) SelectCluster(j int, mean bool) error {
	c := &v.clusters
	if j == c.selected && mean == c.mean && (j < 0 || c.subset != nil) {
		return nil
	}
	if j < 0 || c.of == nil {
		if c.subset != nil {
			v.values.reset(len(v.exp.Metrics))
		}
		c.selected, c.mean, c.subset = -1, mean, nil
		return nil
	}
	if j >= c.count {
		return fmt.Errorf("no cluster %d of %d", j+1, c.count)
	}
	s, err := cluster.Subset(v.exp, v.ClusterMembers(j), mean)
	if err != nil {
		return err
	}
	c.selected, c.mean, c.subset = j, mean, s
	v.values.reset(len(v.exp.Metrics))
	return nil
}

// SelectedCluster returns the cluster selected as a whole (-1: none) and
// whether its mean is shown rather than its sum.
func (v *View) SelectedCluster() (j int, mean bool) {
	if v.clusters.subset == nil {
		return -1, v.clusters.mean
	}
	return v.clusters.selected, v.clusters.mean
}

// source returns the experiment whose values the metric and call panes
// show: the selected cluster's members, or the whole experiment.
func (v *View) source() *model.Experiment {
	if v.clusters.subset != nil {
		return v.clusters.subset
	}
	return v.exp
}

// clusterColors tell clusters apart (Tableau's ten categorical colours,
// which stay distinct for colour-blind readers as far as ten can).
var clusterColors = []color.NRGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0x59, 0xa1, 0x4f, 0xff}, {0xe1, 0x57, 0x59, 0xff},
	{0x76, 0xb7, 0xb2, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

// OutlierColor marks outliers in the Clusters mode.
var OutlierColor = color.NRGBA{0x20, 0x20, 0x20, 0xff}

// ClusterColor returns the colour of cluster j in the Clusters mode: -1
// (outliers) black, clusters beyond the palette's ten repeat it.
func ClusterColor(j int) color.NRGBA {
	if j < 0 {
		return OutlierColor
	}
	return clusterColors[j%len(clusterColors)]
}

// clusterColor returns the colour of system node s in the Clusters mode:
// its locations' cluster, white when they lie in several, gray before
// the locations are clustered.
func (v *View) clusterColor(s int) color.NRGBA {
	c := &v.clusters
	switch {
	case c.node == nil || s >= len(c.node):
		return colormap.Gray
	case c.node[s] == mixedCluster:
		return colormap.White
	}
	return ClusterColor(c.node[s])
}

// clusterCell colours a system pane row by its cluster in the Clusters mode.
func (v *View) clusterCell(d Dim, n Node, c Cell) Cell {
	if d == SystemPane && n.Kind == SystemNode && v.panes[SystemPane].mode == ClusterMode {
		c.Color = v.clusterColor(n.Index)
		c.Relief = colormap.Raised
	}
	return c
}

// absolute reports whether mode m shows values as they are, in the
// metric's unit.
func (m Mode) absolute() bool { return m == Absolute || m == ClusterMode }
