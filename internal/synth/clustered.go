package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"cubeview/model"
)

// Planted sizes an experiment whose locations fall into groups of known
// behaviour, for tests of clustering.
type Planted struct {
	Cnodes    int // call paths (≥ 2)
	Processes int
	Threads   int // per process (≥ 1)
	// Groups is the number of behaviours. Processes are dealt to them in
	// runs: with B = max(1, Processes/(2·Groups)) processes per run,
	// process p behaves as group (p/B) mod Groups, so that every group
	// owns several rank ranges. Group 0 is the base profile; group g > 0
	// doubles Shifted call paths of its own.
	Groups  int
	Shifted int // 0: 3
	// Noise is the relative standard deviation of every value (e.g. 0.02).
	Noise float64
	// Outliers locations, drawn at random, each add half of a location's
	// total to a call path of their own.
	Outliers int
	Seed     uint64
}

// Clustered returns an experiment of one metric, time, built as p says,
// and the planted group of each location (data column), -1 for an
// outlier.
func Clustered(p Planted) (*model.Experiment, []int) {
	p.Cnodes = max(p.Cnodes, 2)
	p.Threads = max(p.Threads, 1)
	p.Groups = max(p.Groups, 1)
	if p.Shifted < 1 {
		p.Shifted = 3
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0xc1a5))
	e := &model.Experiment{Source: "planted", Format: "generated"}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1}}
	for c := range p.Cnodes {
		parent := -1
		if c > 0 {
			parent = rng.IntN(c)
		}
		e.Regions = append(e.Regions, model.Region{ID: c, Name: fmt.Sprintf("f%d", c), Module: "app.c", Begin: -1, End: -1})
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: c, Region: c, Parent: parent, CallLine: -1})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "machine", Parent: -1},
		{ID: 1, Kind: model.TreeNode, Class: "node", Name: "node", Parent: 0},
	}
	for r := range p.Processes {
		g := len(e.System)
		e.System = append(e.System, model.SystemNode{ID: r, Kind: model.Group, Class: "process", Name: fmt.Sprintf("MPI Rank %d", r), Rank: r, Parent: 1})
		for t := range p.Threads {
			e.System = append(e.System, model.SystemNode{ID: r*p.Threads + t, Kind: model.Leaf, Class: "thread", Name: fmt.Sprintf("Thread %d", t), Rank: t, Parent: g})
		}
	}
	e.Link()
	e.NumberLocations()

	n := e.NumLocations()
	base := make([]float64, p.Cnodes)
	total := 0.0
	for c := range base {
		base[c] = 1 + 9*rng.Float64()
		total += base[c]
	}
	// Each group g > 0 doubles call paths of its own.
	shifted := make([]map[int]bool, p.Groups)
	perm := rng.Perm(p.Cnodes)
	for g := 1; g < p.Groups; g++ {
		shifted[g] = map[int]bool{}
		for i := range p.Shifted {
			shifted[g][perm[(p.Shifted*(g-1)+i)%p.Cnodes]] = true
		}
	}
	run := max(1, p.Processes/(2*p.Groups))
	group := make([]int, n)
	for l := range group {
		group[l] = (l / p.Threads / run) % p.Groups
	}
	odd := map[int]int{} // outlier location → its call path
	for _, l := range rng.Perm(n)[:min(p.Outliers, n)] {
		odd[l] = rng.IntN(p.Cnodes)
		group[l] = -1
	}
	b := model.NewBlock(p.Cnodes, n)
	for c := range p.Cnodes {
		row := b.MutableRow(c)
		for l := range row {
			v := base[c]
			if g := group[l]; g > 0 && shifted[g][c] {
				v *= 2
			}
			if oc, ok := odd[l]; ok && oc == c {
				v += total / 2
			}
			row[l] = v * (1 + p.Noise*rng.NormFloat64())
		}
	}
	e.SetBlock(0, b)
	return e, group
}

// ShuffleLocations returns a copy of e whose system tree lists every
// node's children in a shuffled order, so that the locations (data
// columns) come in another order, each keeping its names, ranks and
// values. Only stored metrics are copied; perm[l] is the new column of
// e's location l.
func ShuffleLocations(e *model.Experiment, seed uint64) (*model.Experiment, []int) {
	rng := rand.New(rand.NewPCG(seed, 0x5ff1e))
	s := &model.Experiment{Source: e.Source, Format: e.Format, Attrs: e.Attrs,
		Metrics: e.Metrics, MetricRoots: e.MetricRoots, Regions: e.Regions,
		Cnodes: e.Cnodes, CnodeRoots: e.CnodeRoots, SystemRoots: slices.Clone(e.SystemRoots)}
	s.System = slices.Clone(e.System)
	for i := range s.System {
		ch := slices.Clone(s.System[i].Children)
		rng.Shuffle(len(ch), func(a, b int) { ch[a], ch[b] = ch[b], ch[a] })
		s.System[i].Children = ch
	}
	s.NumberLocations()
	perm := make([]int, e.NumLocations())
	for l, node := range e.Locations {
		perm[l] = s.System[node].Location
	}
	for m := range e.Metrics {
		if !e.Metrics[m].HasStoredValues() {
			continue
		}
		old, err := e.Block(m)
		if err != nil {
			panic(err) // generated experiments load without error
		}
		b := model.NewBlock(old.NumCnodes(), old.NumLocations())
		for c := range old.NumCnodes() {
			r := old.Row(c)
			if r == nil {
				continue
			}
			dst := b.MutableRow(c)
			for l, v := range r {
				dst[perm[l]] = v
			}
		}
		s.SetBlock(m, b)
	}
	return s, perm
}
