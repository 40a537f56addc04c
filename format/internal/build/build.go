package build

import (
	"math"
	"slices"

	"cubeview/model"
)

// Builder assembles one experiment. Indices it returns are indices into
// the experiment's Metrics, Regions, Cnodes and System slices.
type Builder struct {
	E       *model.Experiment
	regions map[regionKey]int
	cnodes  map[cnodeKey]int
	// cnodesWide holds the cnodes whose key does not pack
	cnodesWide map[wideCnodeKey]int
	ids        [3]int // next system-node id per kind
}

type regionKey struct{ name, module string }

// cnodeKey packs a cnode's parent (+1) and region when both fit in 32
// bits, which keeps the map on its fast path for 64-bit keys; other pairs
// go to cnodesWide.
type cnodeKey uint64

type wideCnodeKey struct{ parent, region int }

func packCnodeKey(parent, region int) (cnodeKey, bool) {
	p := uint64(parent + 1)
	if p > math.MaxUint32 || region < 0 || uint64(region) > math.MaxUint32 {
		return 0, false
	}
	return cnodeKey(p<<32 | uint64(region)), true
}

// New starts an experiment of the given format description.
func New(format string) *Builder {
	return &Builder{
		E:       &model.Experiment{Format: format},
		regions: map[regionKey]int{},
		cnodes:  map[cnodeKey]int{},
	}
}

// Attr appends an experiment attribute when value is not empty.
func (b *Builder) Attr(key, value string) {
	if value != "" {
		b.E.Attrs = append(b.E.Attrs, model.Attr{Key: key, Value: value})
	}
}

// Metric appends a root metric and returns its index. The aggregation
// follows the data type.
func (b *Builder) Metric(uniq, disp, unit string, dataType model.DataType, descr string) int {
	m := model.Metric{
		ID: len(b.E.Metrics), UniqName: uniq, DispName: disp, Unit: unit,
		DataType: dataType, Descr: descr, Type: model.Exclusive, Parent: -1,
		Aggregation: model.AggregationOf(dataType),
	}
	b.E.Metrics = append(b.E.Metrics, m)
	return m.ID
}

// Region returns the region named name in module, adding it (with unknown
// lines) when it is new; added reports whether it was.
func (b *Builder) Region(name, module string) (r int, added bool) {
	k := regionKey{name, module}
	if r, ok := b.regions[k]; ok {
		return r, false
	}
	r = len(b.E.Regions)
	b.E.Regions = append(b.E.Regions, model.Region{ID: r, Name: name, Module: module, Begin: -1, End: -1})
	b.regions[k] = r
	return r, true
}

// Cnode returns the call-tree node for region under parent (-1 for a
// root), adding it when it is new; added reports whether it was.
func (b *Builder) Cnode(parent, region int) (c int, added bool) {
	k, ok := packCnodeKey(parent, region)
	if !ok {
		return b.wideCnode(parent, region)
	}
	if c, ok := b.cnodes[k]; ok {
		return c, false
	}
	c = b.NewCnode(parent, region)
	b.cnodes[k] = c
	return c, true
}

func (b *Builder) wideCnode(parent, region int) (c int, added bool) {
	k := wideCnodeKey{parent, region}
	if c, ok := b.cnodesWide[k]; ok {
		return c, false
	}
	if b.cnodesWide == nil {
		b.cnodesWide = map[wideCnodeKey]int{}
	}
	c = b.NewCnode(parent, region)
	b.cnodesWide[k] = c
	return c, true
}

// NewCnode always adds a call-tree node for region under parent, also when
// a sibling calls the same region (distinct call sites or statements).
func (b *Builder) NewCnode(parent, region int) int {
	c := len(b.E.Cnodes)
	if c == cap(b.E.Cnodes) && c >= 1024 {
		// Double: append's smaller steps for large slices would copy
		// hundreds of thousands of cnodes many times over.
		b.E.Cnodes = slices.Grow(b.E.Cnodes, c)
	}
	b.E.Cnodes = append(b.E.Cnodes, model.Cnode{ID: c, Region: region, Parent: parent, CallLine: -1})
	return c
}

// TreeNode adds a structural system-tree node (class "machine", "node", …)
// under parent (-1 for a root).
func (b *Builder) TreeNode(parent int, class, name string) int {
	return b.system(model.SystemNode{Kind: model.TreeNode, Class: class, Name: name, Parent: parent})
}

// Process adds a location group of class "process" under parent.
func (b *Builder) Process(parent, rank int, name string) int {
	return b.system(model.SystemNode{Kind: model.Group, Class: "process", Name: name, Rank: rank, Parent: parent})
}

// Location adds a location (class "thread", "gpu", …) to group.
func (b *Builder) Location(group, rank int, class, name string) int {
	return b.system(model.SystemNode{Kind: model.Leaf, Class: class, Name: name, Rank: rank, Parent: group})
}

func (b *Builder) system(n model.SystemNode) int {
	n.ID = b.ids[n.Kind]
	b.ids[n.Kind]++
	n.Location = -1
	b.E.System = append(b.E.System, n)
	return len(b.E.System) - 1
}

// Columns links the system tree and numbers the locations depth-first; it
// returns, per system index, the data column of a location (-1 for other
// nodes). Call it once the system tree is complete.
func (b *Builder) Columns() []int {
	b.E.Link()
	b.E.NumberLocations()
	cols := make([]int, len(b.E.System))
	for i := range b.E.System {
		cols[i] = b.E.System[i].Location
	}
	return cols
}

// SingleThread adds the system tree of a profile of one process with one
// thread — machine, node, process rank 0, thread 0 — and returns the
// location's system index.
func (b *Builder) SingleThread(machine, node, process string) int {
	m := b.TreeNode(-1, "machine", machine)
	n := b.TreeNode(m, "node", node)
	p := b.Process(n, 0, process)
	return b.Location(p, 0, "thread", "thread 0")
}

// Finish links the call tree and the metric tree (the system tree too,
// when Columns was not called) and installs vals as the metrics' data.
func (b *Builder) Finish(vals *Values) *model.Experiment {
	b.E.Link()
	if len(b.E.Locations) == 0 {
		b.E.NumberLocations()
	}
	if vals != nil {
		vals.install(b.E)
	}
	return b.E
}

// Values accumulates per (cnode, metric, location) values densely per
// cnode: a cnode's row is allocated on its first value.
type Values struct {
	nm, nl int
	rows   [][]float64
}

// NewValues returns an accumulator for nmetrics metrics and nlocations
// locations.
func NewValues(nmetrics, nlocations int) *Values {
	return &Values{nm: nmetrics, nl: nlocations}
}

// Row returns cnode c's values, metric-major (index m*nlocations + l),
// allocating the row when needed.
func (v *Values) Row(c int) []float64 {
	if c >= len(v.rows) {
		v.rows = append(v.rows, make([][]float64, c+1-len(v.rows))...)
	}
	r := v.rows[c]
	if r == nil {
		r = make([]float64, v.nm*v.nl)
		v.rows[c] = r
	}
	return r
}

// Add adds x to the value of metric m at cnode c and location column l.
func (v *Values) Add(c, m, l int, x float64) {
	v.Row(c)[m*v.nl+l] += x
}

// Scale multiplies every value of metric m by f (a unit conversion).
func (v *Values) Scale(m int, f float64) {
	if f == 1 {
		return
	}
	for _, r := range v.rows {
		if r == nil {
			continue
		}
		seg := r[m*v.nl : (m+1)*v.nl]
		for i := range seg {
			seg[i] *= f
		}
	}
}

// install sets one block per metric; rows that are zero for a metric stay
// absent.
func (v *Values) install(e *model.Experiment) {
	nc := len(e.Cnodes)
	for m := 0; m < v.nm && m < len(e.Metrics); m++ {
		blk := model.NewBlock(nc, v.nl)
		var present []int
		for c, r := range v.rows {
			if c < nc && r != nil && !allZero(r[m*v.nl:(m+1)*v.nl]) {
				present = append(present, c)
			}
		}
		blk.AllocRows(present)
		for _, c := range present {
			copy(blk.MutableRow(c), v.rows[c][m*v.nl:(m+1)*v.nl])
		}
		e.SetBlock(m, blk)
	}
}

func allZero(s []float64) bool {
	for _, x := range s {
		if x != 0 {
			return false
		}
	}
	return true
}
