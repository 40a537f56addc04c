package synth

import (
	"fmt"
	"math/rand/v2"

	"cubeview/model"
)

// Config sizes a generated experiment.
type Config struct {
	Cnodes    int     // number of call-tree nodes (≥ 1)
	Locations int     // number of locations (threads)
	Threads   int     // threads per process (≥ 1); Locations is rounded up to a multiple
	Nodes     int     // compute nodes the processes are spread over (≥ 1)
	Metrics   int     // number of metrics (≥ 1); the first is "time", a parent of the next two
	Regions   int     // distinct regions (0: Cnodes/4 + 1)
	Density   float64 // fraction of cnode rows with data (0: 1.0)
	Seed      uint64
	// MinMax adds a MINDOUBLE and a MAXDOUBLE metric (counted in Metrics).
	MinMax bool
	// Flat makes every metric a DOUBLE root named m0, m1, … (the layout
	// of the big-file benchmarks) instead of the default metric tree.
	Flat bool
	// OnDemand leaves the data out of memory: each row is generated
	// when it is read (model.NewSourceBlock), from a generator seeded by
	// metric and cnode, so experiments larger than memory can be made
	// and written. Values differ from those generated in memory.
	OnDemand bool
	// ValueSeed, when not 0, seeds the values of an OnDemand experiment
	// instead of Seed, so that two experiments with the same call tree
	// and rows hold different values. A row is then scaled by a factor
	// from 0.5 to 1.5 drawn for it, from the values Seed gives.
	ValueSeed uint64
}

// Generate builds the experiment described by cfg with all data in memory.
func Generate(cfg Config) *model.Experiment {
	if cfg.Cnodes < 1 {
		cfg.Cnodes = 1
	}
	if cfg.Threads < 1 {
		cfg.Threads = 1
	}
	if cfg.Locations < cfg.Threads {
		cfg.Locations = cfg.Threads
	}
	procs := (cfg.Locations + cfg.Threads - 1) / cfg.Threads
	if cfg.Nodes < 1 {
		cfg.Nodes = 1
	}
	if cfg.Nodes > procs {
		cfg.Nodes = procs
	}
	if cfg.Metrics < 1 {
		cfg.Metrics = 1
	}
	if cfg.Regions < 1 {
		cfg.Regions = cfg.Cnodes/4 + 1
	}
	if cfg.Density <= 0 || cfg.Density > 1 {
		cfg.Density = 1
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	e := &model.Experiment{Source: "synthetic", Format: "generated"}
	e.Attrs = []model.Attr{{Key: "Creator", Value: "cubeview synth"}}

	for i := 0; i < cfg.Metrics; i++ {
		m := model.Metric{ID: i, Parent: -1, DataType: "DOUBLE", Unit: "sec", Type: "EXCLUSIVE"}
		switch {
		case i == 0:
			m.UniqName, m.DispName = "time", "Time"
		case i <= 2:
			m.UniqName, m.DispName, m.Parent = fmt.Sprintf("time_part%d", i), fmt.Sprintf("Time part %d", i), 0
		default:
			m.UniqName, m.DispName = fmt.Sprintf("metric%d", i), fmt.Sprintf("Metric %d", i)
			m.DataType, m.Unit = "UINT64", "occ"
		}
		if cfg.MinMax && i >= 3 && i == cfg.Metrics-2 {
			m.UniqName, m.DispName, m.DataType, m.Unit = "min_time", "Minimum time", "MINDOUBLE", "sec"
		}
		if cfg.MinMax && i >= 3 && i == cfg.Metrics-1 {
			m.UniqName, m.DispName, m.DataType, m.Unit = "max_time", "Maximum time", "MAXDOUBLE", "sec"
		}
		if cfg.Flat {
			m.UniqName, m.DispName, m.DataType, m.Unit, m.Parent = fmt.Sprintf("m%d", i), fmt.Sprintf("Metric %d", i), "DOUBLE", "sec", -1
		}
		m.Aggregation = model.AggregationOf(m.DataType)
		e.Metrics = append(e.Metrics, m)
	}
	for r := 0; r < cfg.Regions; r++ {
		e.Regions = append(e.Regions, model.Region{
			ID: r, Name: fmt.Sprintf("region_%d", r), Module: fmt.Sprintf("src/file%d.c", r%17),
			Begin: 10 + r, End: 20 + r, Paradigm: "user", Role: "function",
		})
	}
	for c := 0; c < cfg.Cnodes; c++ {
		parent := -1
		if c > 0 {
			// Prefer recent nodes as parents for deep, bushy trees.
			lo := c - 1 - rng.IntN(min(c, 8))
			parent = lo
			if rng.IntN(4) == 0 {
				parent = rng.IntN(c)
			}
		}
		e.Cnodes = append(e.Cnodes, model.Cnode{
			ID: c, Region: rng.IntN(cfg.Regions), Parent: parent, CallLine: 5 + rng.IntN(500),
			CallFile: fmt.Sprintf("src/file%d.c", c%17),
		})
	}

	add := func(n model.SystemNode) int {
		n.Location = -1
		e.System = append(e.System, n)
		return len(e.System) - 1
	}
	mach := add(model.SystemNode{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "cluster", Parent: -1})
	nodes := make([]int, cfg.Nodes)
	for i := range nodes {
		nodes[i] = add(model.SystemNode{ID: 1 + i, Kind: model.TreeNode, Class: "node", Name: fmt.Sprintf("node%03d", i), Parent: mach})
	}
	loc := 0
	perNode := (procs + cfg.Nodes - 1) / cfg.Nodes
	for p := 0; p < procs; p++ {
		g := add(model.SystemNode{ID: p, Kind: model.Group, Class: "process", Name: fmt.Sprintf("MPI Rank %d", p), Rank: p, Parent: nodes[min(p/perNode, cfg.Nodes-1)]})
		for t := 0; t < cfg.Threads; t++ {
			add(model.SystemNode{ID: loc, Kind: model.Leaf, Class: "thread", Name: fmt.Sprintf("Thread %d", t), Rank: t, Parent: g})
			loc++
		}
	}
	e.Link()
	e.NumberLocations()

	nl := len(e.Locations)
	if cfg.OnDemand {
		for m := range e.Metrics {
			e.SetBlock(m, model.NewSourceBlock(cfg.Cnodes, nl, &rowGen{e: e, cfg: cfg, m: m}))
		}
		return e
	}
	for m := range e.Metrics {
		b := model.NewBlock(cfg.Cnodes, nl)
		var rows []int
		for c := 0; c < cfg.Cnodes; c++ {
			if c == 0 || rng.Float64() < cfg.Density {
				rows = append(rows, c)
			}
		}
		b.AllocRows(rows)
		for _, c := range rows {
			r := b.MutableRow(c)
			for l := range r {
				switch {
				case e.Metrics[m].DataType == "UINT64":
					r[l] = float64(rng.IntN(1000))
				default:
					r[l] = rng.Float64() * 10
				}
			}
		}
		e.SetBlock(m, b)
	}
	// Make parent metrics include their children, as CUBE stores them.
	for _, m := range e.MetricOrder() {
		if e.Metrics[m].Parent != -1 {
			continue
		}
		addChildren(e, m)
	}
	return e
}

func addChildren(e *model.Experiment, m int) {
	pb, _ := e.Block(m)
	for _, ch := range e.Metrics[m].Children {
		addChildren(e, ch)
		if e.Metrics[ch].Aggregation != model.Sum || e.Metrics[m].Aggregation != model.Sum {
			continue
		}
		cb, _ := e.Block(ch)
		for c := 0; c < cb.NumCnodes(); c++ {
			src := cb.Row(c)
			if src == nil {
				continue
			}
			dst := pb.MutableRow(c)
			for l, v := range src {
				dst[l] += v
			}
		}
	}
}

// rowGen generates the rows of one metric on demand: a row's presence and
// values depend only on the seed, the metric and the cnode.
type rowGen struct {
	e   *model.Experiment
	cfg Config
	m   int
}

func (g *rowGen) rng(m, c int) *rand.Rand {
	return rand.New(rand.NewPCG(g.cfg.Seed^uint64(m+1)*0x9e3779b97f4a7c15, uint64(c)))
}

// HasRow implements model.RowSource; a parent metric has a row where any
// of its children has one.
func (g *rowGen) HasRow(c int) bool { return g.has(g.m, c) }

func (g *rowGen) has(m, c int) bool {
	if c == 0 || g.rng(m, c).Float64() < g.cfg.Density {
		return true
	}
	for _, ch := range g.e.Metrics[m].Children {
		if g.has(ch, c) && g.e.Metrics[ch].Aggregation == model.Sum && g.e.Metrics[m].Aggregation == model.Sum {
			return true
		}
	}
	return false
}

// ReadRow implements model.RowSource: the metric's own values plus those
// of its child metrics, as CUBE stores them.
func (g *rowGen) ReadRow(c int, dst []float64) error {
	clear(dst)
	g.add(g.m, c, dst)
	return nil
}

func (g *rowGen) add(m, c int, dst []float64) {
	met := &g.e.Metrics[m]
	rng := g.rng(m, c)
	if c == 0 || rng.Float64() < g.cfg.Density {
		scale := 1.0
		if g.cfg.ValueSeed != 0 {
			scale = 0.5 + rand.New(rand.NewPCG(g.cfg.ValueSeed^uint64(m+1)*0x9e3779b97f4a7c15, uint64(c))).Float64()
		}
		for l := range dst {
			if met.DataType == "UINT64" {
				dst[l] += float64(rng.IntN(1000))
			} else {
				dst[l] += rng.Float64() * 10 * scale
			}
		}
	}
	for _, ch := range met.Children {
		if g.e.Metrics[ch].Aggregation == model.Sum && met.Aggregation == model.Sum {
			g.add(ch, c, dst)
		}
	}
}
