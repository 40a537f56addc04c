package view

import (
	"fmt"
	"image/color"

	"cubeview/analysis/cluster"
	"cubeview/colormap"
	"cubeview/model"
)

// Clusters is what the system pane's Clusters mode shows: the cluster of
// every location, and the cluster selected as a whole, whose members'
// sum or mean the metric and call panes show.
type Clusters struct {
	v        *View
	of       []int // per location: its cluster, -1 an outlier; nil: not clustered
	count    int
	metric   int   // the metric clustered
	node     []int // per system node: its leaves' common cluster, mixedCluster, or -1
	selected int   // the cluster selected as a whole, -1 the outliers; -2 none
	mean     bool
	subset   *model.Experiment // the selected cluster's members, or nil
}

// mixedCluster marks a system node whose locations lie in several clusters.
const mixedCluster = -2

// Clusters returns the view's clusters of locations.
func (v *View) Clusters() *Clusters { return &v.clusters }

// Set gives every location (data column) its cluster, -1 for an
// outlier, as a clustering of metric found them; nil forgets them. The
// cluster selected as a whole is dropped.
func (c *Clusters) Set(metric int, of []int, count int) {
	c.Select(-1, false)
	c.of, c.count, c.metric, c.node = of, count, metric, nil
	if of == nil {
		return
	}
	e := c.v.exp
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
func (c *Clusters) Clustered() (metric int, ok bool) { return c.metric, c.of != nil }

// Of returns the cluster of location l: -1 for an outlier, -2 when the
// locations are not clustered.
func (c *Clusters) Of(l int) int {
	if c.of == nil {
		return mixedCluster
	}
	return c.of[l]
}

// Members returns the locations of cluster j (-1: the outliers).
func (c *Clusters) Members(j int) []int {
	var out []int
	for l, k := range c.of {
		if k == j {
			out = append(out, l)
		}
	}
	return out
}

// Select selects cluster j (-1: the outliers) as a whole: the metric and
// call panes show the sum (or with mean the mean) of its members' values;
// j < -1 shows all locations again.
func (c *Clusters) Select(j int, mean bool) error {
	v := c.v
	if j == c.selected && mean == c.mean && (j < -1 || c.subset != nil) {
		return nil
	}
	if j < -1 || c.of == nil {
		if c.subset != nil {
			v.values.reset(len(v.exp.Metrics))
		}
		c.selected, c.mean, c.subset = -2, mean, nil
		return nil
	}
	if j >= c.count {
		return fmt.Errorf("no cluster %d of %d", j+1, c.count)
	}
	s, err := cluster.Subset(v.exp, c.Members(j), mean)
	if err != nil {
		return err
	}
	c.selected, c.mean, c.subset = j, mean, s
	v.values.reset(len(v.exp.Metrics))
	return nil
}

// Selected returns the cluster selected as a whole (-1: the outliers, -2:
// none) and whether its mean is shown rather than its sum.
func (c *Clusters) Selected() (j int, mean bool) {
	if c.subset == nil {
		return -2, c.mean
	}
	return c.selected, c.mean
}

// source returns the experiment whose values the metric and call panes
// show: the selected cluster's members, or the whole experiment.
func (c *Clusters) source() *model.Experiment {
	if c.subset != nil {
		return c.subset
	}
	return c.v.exp
}

// drop forgets the cluster selected as a whole (the experiment shown
// changed its metrics).
func (c *Clusters) drop() { c.selected, c.subset = -2, nil }

// clusterColors tell clusters apart (Tableau's ten categorical colours,
// which stay distinct for colour-blind readers as far as ten can).
var clusterColors = []color.NRGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0x59, 0xa1, 0x4f, 0xff}, {0xe1, 0x57, 0x59, 0xff},
	{0x76, 0xb7, 0xb2, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

// outlierColor marks outliers in the Clusters mode.
var outlierColor = color.NRGBA{0x20, 0x20, 0x20, 0xff}

// ClusterColor returns the colour of cluster j in the Clusters mode: -1
// (outliers) black, clusters beyond the palette's ten repeat it.
func ClusterColor(j int) color.NRGBA {
	if j < 0 {
		return outlierColor
	}
	return clusterColors[j%len(clusterColors)]
}

// color returns the colour of system node s in the Clusters mode:
// its locations' cluster, white when they lie in several, gray before
// the locations are clustered.
func (c *Clusters) color(s int) color.NRGBA {
	switch {
	case c.node == nil || s >= len(c.node):
		return colormap.Gray
	case c.node[s] == mixedCluster:
		return colormap.White
	}
	return ClusterColor(c.node[s])
}

// cell colours a system pane row by its cluster in the Clusters mode.
func (c *Clusters) cell(d Dim, n Node, x Cell) Cell {
	if d == SystemPane && n.Kind == SystemNode && c.v.panes[SystemPane].mode == ClusterMode {
		x.Color = c.color(n.Index)
		x.Relief = colormap.Raised
	}
	return x
}

// absolute reports whether mode m shows values as they are, in the
// metric's unit.
func (m Mode) absolute() bool { return m == Absolute || m == ClusterMode }
