package cluster

import (
	"fmt"

	"cubeview/model"
)

// Subset returns an experiment of e's locations listed (data columns)
// only, with their system tree ancestors, sharing e's metrics and call
// tree: its totals and call-tree values are those of the members — a
// cluster selected as a whole. With mean, the values of sum metrics are
// divided by the number of members, so that totals are those of the
// average member; minimum and maximum metrics keep theirs. Data are read
// from e when first asked for.
func Subset(e *model.Experiment, locations []int, mean bool) (*model.Experiment, error) {
	if len(locations) == 0 {
		return nil, fmt.Errorf("%s: no locations to keep", e.Source)
	}
	keep := make([]bool, len(e.System))
	for _, l := range locations {
		if l < 0 || l >= e.NumLocations() {
			return nil, fmt.Errorf("%s: no location %d", e.Source, l)
		}
		for s := e.Locations[l]; s >= 0 && !keep[s]; s = e.System[s].Parent {
			keep[s] = true
		}
	}
	renum := make([]int, len(e.System))
	s := &model.Experiment{Source: e.Source, Format: e.Format, Attrs: e.Attrs,
		Metrics: e.Metrics, Regions: e.Regions, Cnodes: e.Cnodes}
	for i, n := range e.System {
		renum[i] = -1
		if keep[i] {
			renum[i] = len(s.System)
			n.Children = nil
			s.System = append(s.System, n)
		}
	}
	for i := range s.System {
		if p := s.System[i].Parent; p >= 0 {
			s.System[i].Parent = renum[p]
		}
	}
	s.Link()
	s.NumberLocations()
	cols := make([]int, s.NumLocations()) // new column → e's column
	for i, n := range e.System {
		if keep[i] && n.Kind == model.Leaf {
			cols[s.System[renum[i]].Location] = n.Location
		}
	}
	share := 1.0
	if mean {
		share = 1 / float64(len(cols))
	}
	s.SetLoader(&subsetLoader{e: e, cols: cols, share: share})
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: subset of %d locations: %w", e.Source, len(cols), err)
	}
	return s, nil
}

// subsetLoader reads the blocks of a Subset from the whole experiment.
type subsetLoader struct {
	e     *model.Experiment
	cols  []int
	share float64 // factor of sum metrics' values
}

func (l *subsetLoader) LoadBlock(m int) (*model.Block, error) {
	b, err := l.e.Block(m)
	if err != nil {
		return nil, err
	}
	f := 1.0
	if l.e.Metrics[m].Aggregation == model.Sum {
		f = l.share
	}
	out := model.NewBlock(b.NumCnodes(), len(l.cols))
	var rows []int
	for c := range b.NumCnodes() {
		if b.HasRow(c) {
			rows = append(rows, c)
		}
	}
	out.AllocRows(rows)
	for _, c := range rows {
		src, dst := b.Row(c), out.MutableRow(c)
		if src == nil {
			continue
		}
		for i, col := range l.cols {
			dst[i] = src[col] * f
		}
	}
	if err := b.Err(); err != nil {
		return nil, err
	}
	out.Compact()
	return out, nil
}
