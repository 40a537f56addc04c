package model

import "strings"

// Aggregation is how values of a metric combine across cnodes and locations.
type Aggregation uint8

const (
	// Sum adds values; almost every metric aggregates this way.
	Sum Aggregation = iota
	// Min takes the minimum (CUBE data type MINDOUBLE).
	Min
	// Max takes the maximum (CUBE data type MAXDOUBLE).
	Max
)

// String returns "sum", "min" or "max".
func (a Aggregation) String() string {
	switch a {
	case Min:
		return "min"
	case Max:
		return "max"
	}
	return "sum"
}

// DataType is a CUBE data type name as read from a file (DOUBLE, UINT64,
// MINDOUBLE, …); names are compared without regard to case and spacing.
type DataType string

// Data types that importers and the algebra set; files may name others.
const (
	Double    DataType = "DOUBLE"
	Float     DataType = "FLOAT"
	MinDouble DataType = "MINDOUBLE"
	MaxDouble DataType = "MAXDOUBLE"
	Integer   DataType = "INTEGER"
	Int64     DataType = "INT64"
	Uint64    DataType = "UINT64"
)

// canonical returns t in upper case with single spaces.
func (t DataType) canonical() string {
	return strings.ToUpper(strings.Join(strings.Fields(string(t)), " "))
}

// IsInteger reports whether values of type t are integral.
func (t DataType) IsInteger() bool {
	switch t.canonical() {
	case "INTEGER", "SIGNED INTEGER", "INT64", "UNSIGNED INTEGER", "UINT64",
		"INT", "SIGNED INT", "INT32", "UNSIGNED INT", "UINT32",
		"SHORT INT", "SIGNED SHORT INT", "INT16", "UNSIGNED SHORT INT", "UINT16",
		"INT8", "UINT8", "CHAR":
		return true
	}
	return false
}

// Aggregation returns the aggregation implied by t: Min for MINDOUBLE, Max
// for MAXDOUBLE, else Sum.
func (t DataType) Aggregation() Aggregation {
	switch t.canonical() {
	case "MINDOUBLE":
		return Min
	case "MAXDOUBLE":
		return Max
	}
	return Sum
}

// AggregationOf returns the aggregation implied by a CUBE data type name.
func AggregationOf(dataType DataType) Aggregation { return dataType.Aggregation() }

// MetricType is the CUBE 4 metric type as read (EXCLUSIVE, INCLUSIVE,
// POSTDERIVED, …).
type MetricType string

// Metric types of CUBE 4.
const (
	Exclusive           MetricType = "EXCLUSIVE"
	Inclusive           MetricType = "INCLUSIVE"
	Simple              MetricType = "SIMPLE"
	PostDerived         MetricType = "POSTDERIVED"
	Derived             MetricType = "DERIVED"
	PrederivedExclusive MetricType = "PREDERIVED_EXCLUSIVE"
	PrederivedInclusive MetricType = "PREDERIVED_INCLUSIVE"
)

// IsDerived reports whether t is a derived metric type, whose values are
// computed from an expression instead of stored.
func (t MetricType) IsDerived() bool {
	switch MetricType(strings.ToUpper(strings.TrimSpace(string(t)))) {
	case PostDerived, Derived, PrederivedExclusive, PrederivedInclusive:
		return true
	}
	return false
}

// Combine aggregates two values with a.
func (a Aggregation) Combine(x, y float64) float64 {
	switch a {
	case Min:
		if y < x {
			return y
		}
		return x
	case Max:
		if y > x {
			return y
		}
		return x
	}
	return x + y
}

// Mask records which operands of an algebra operation contained an entity:
// bit i is set when operand i had it. A zero Mask means the entity is not
// the product of an operation (or was present everywhere in an original).
type Mask uint64

// Has reports whether operand i is in m.
func (m Mask) Has(i int) bool { return i >= 0 && i < 64 && m&(1<<uint(i)) != 0 }

// Attr is a key/value attribute, kept in file order.
type Attr struct {
	Key, Value string
}

// Metric is one node of the metric forest.
type Metric struct {
	ID       int    // identifier in the file (unique among metrics)
	UniqName string // identity used to match metrics across experiments
	DispName string
	// Identity is the canonical identity of what the metric measures
	// (IdentityTime, IdentityVisits, a PAPI preset name, …), set by the
	// importer, or "" when it means nothing other tools record. The
	// algebra matches metrics of different names by it.
	Identity string
	DataType DataType // as read, e.g. DOUBLE, UINT64, MINDOUBLE
	Unit     string   // sec, occ, bytes, …
	Descr    string
	URL      string
	Val      string // CUBE "val" element; VOID hides the metric
	// Type is the CUBE 4 metric type as read (EXCLUSIVE, INCLUSIVE,
	// POSTDERIVED, …); it records how the file stored values and is used
	// when writing, the stored block is always canonical.
	Type MetricType
	// Expression, InitExpression and AggrExpressions keep CubePL
	// definitions of derived metrics so that writing preserves them.
	Expression      string
	InitExpression  string
	AggrExpressions []Attr // key = cubeplaggrtype ("plus", "minus", "aggr")
	VizType         string
	// Formula, when not nil, makes the metric derived: it stores no
	// values, and every query evaluates the formula on the aggregated
	// values of the metrics it names at the node asked for (a ratio of
	// sums, never a sum of ratios). Such a metric has Type POSTDERIVED
	// and Expression = Formula.CubePL().
	Formula     *Formula
	Aggregation Aggregation
	// Unavailable, when not empty, says why this metric has no values
	// (a derived metric, a data type that is not a single number, VOID).
	Unavailable string
	// Approximate marks a derived min/max metric whose aggregated values
	// are element-wise results and therefore only approximate.
	Approximate bool
	Attrs       []Attr
	Present     Mask

	Parent   int // index in Experiment.Metrics, -1 for a root
	Children []int
}

// Hidden reports whether the display hides the metric (val VOID).
func (m *Metric) Hidden() bool { return strings.EqualFold(m.Val, "VOID") }

// IsInteger reports whether the metric holds integral values.
func (m *Metric) IsInteger() bool { return m.DataType.IsInteger() }

// Region is a code region: a function, loop or user-defined region.
type Region struct {
	ID          int
	Name        string
	MangledName string
	Module      string // source file
	Begin, End  int    // lines, -1 when unknown
	Paradigm    string
	Role        string
	URL         string
	Descr       string
	Attrs       []Attr
}

// Param is a call-path parameter (CUBE 4 cnode parameter).
type Param struct {
	Type, Key, Value string // Type is "numeric" or "string"
}

// Cnode is one node of the call forest: a call path ending in a region.
type Cnode struct {
	ID       int
	Region   int    // index in Experiment.Regions
	CallFile string // call-site file, may be empty
	CallLine int    // call-site line, -1 when unknown
	Params   []Param
	Attrs    []Attr
	Present  Mask

	Parent   int // index in Experiment.Cnodes, -1 for a root
	Children []int
}

// SystemKind tells which level of the system tree a node is.
type SystemKind uint8

const (
	// TreeNode is a structural node: machine, node, node card, …
	TreeNode SystemKind = iota
	// Group is a location group, typically a process.
	Group
	// Leaf is a location, typically a thread; only locations carry values.
	Leaf
)

// String returns the CUBE 4 element name of the kind.
func (k SystemKind) String() string {
	switch k {
	case Group:
		return "locationgroup"
	case Leaf:
		return "location"
	}
	return "systemtreenode"
}

// SystemNode is a node of the system tree. CUBE 3 machines and nodes are
// TreeNodes with Class "machine" and "node", processes are Groups of Class
// "process" and threads Leaves of Class "thread".
type SystemNode struct {
	ID       int // identifier in the file, unique per kind
	Kind     SystemKind
	Class    string // tree-node class or group/location type
	Name     string
	Descr    string
	Rank     int
	Attrs    []Attr
	Present  Mask
	Location int // column of the data blocks for a Leaf, -1 otherwise

	Parent   int // index in Experiment.System, -1 for a root
	Children []int
}

// Cart is a Cartesian topology over system entities.
type Cart struct {
	Name   string
	Dims   []CartDim
	Coords []CartCoord
}

// CartDim is one dimension of a Cart.
type CartDim struct {
	Name     string
	Size     int
	Periodic bool
}

// CartCoord places one system entity (an index in Experiment.System) on the grid.
type CartCoord struct {
	Node  int
	Coord []int
}

// Loader reads the data block of one metric on first use. A loader may
// return an on-demand block (NewSourceBlock) for a metric larger than
// MemoryBudget.
type Loader interface {
	LoadBlock(metric int) (*Block, error)
}

// RowStreamer is implemented by loaders that can pass a metric's rows
// (canonical values: exclusive along the call tree) once, in any order,
// without building its block. The experiment uses it for per-cnode and
// per-location aggregates, so that a call tree's values need one pass
// over the file and no memory for the block.
type RowStreamer interface {
	// StreamRows calls fn with every stored row of metric once; row is
	// only valid during the call.
	StreamRows(metric int, fn func(c int, row []float64) error) error
}

// RowBatchStreamer is implemented by row streamers that can pass several
// rows at once, in the order StreamRows would pass them one at a time;
// rows[i] belongs to cnode cs[i], and both are only valid during the call.
// Whole batches let the aggregation add several rows side by side.
type RowBatchStreamer interface {
	StreamRowBatches(metric int, fn func(cs []int, rows [][]float64) error) error
}

// CnodeSummer is implemented by loaders that keep a stored metric's
// per-cnode aggregate over all locations — what a pass over its rows
// would compute — so that call-tree values and totals need not read the
// rows. CnodeSums returns nil when it keeps none for the metric.
type CnodeSummer interface {
	CnodeSums(metric int) ([]float64, error)
}

// Experiment is a CUBE experiment: metadata and a lazily loaded severity
// function. Its exported fields must not be changed once it is handed out.
type Experiment struct {
	// Source names where the experiment came from (a file path or an
	// expression); Format describes the file format, e.g. "CUBE 4.4 (.cubex)".
	Source string
	Format string

	Attrs   []Attr
	Mirrors []string

	Metrics     []Metric
	MetricRoots []int
	Regions     []Region
	Cnodes      []Cnode
	CnodeRoots  []int
	System      []SystemNode
	SystemRoots []int
	// Locations maps a data column to its index in System.
	Locations  []int
	Topologies []Cart
	// CallGraph, when not nil, holds the caller → callee arcs of a tool
	// that records a call graph instead of call paths.
	CallGraph *CallGraph
	// Warnings lists what a reader tolerated in the input without
	// changing any value (e.g. surplus data it ignored), one sentence each.
	Warnings []string

	data metricData // the stored values: see stored

	contentSum func() (sha256 string, size int64, err error) // see ContentSum
	lateAttrs  *lateAttrs                                    // see SetAttrsLater
}

// SetLoader installs the lazy loader of metric data. It must be called
// before the experiment is handed out.
func (e *Experiment) SetLoader(l Loader) { e.data.loader = l }

// SetBlock installs the data of metric m directly (for builders and
// operators). It must be called before the experiment is handed out.
func (e *Experiment) SetBlock(m int, b *Block) { e.stored().set(m, b) }

// Block returns the data of metric m, loading it on first use. A metric
// without data (Unavailable, or nothing stored) yields an all-zero block;
// a derived metric (IsDerived) an error wrapping ErrDerived.
func (e *Experiment) Block(m int) (*Block, error) { return e.stored().block(m) }

// Summarize computes metric m's aggregates (per call path over all
// locations, per location over all call paths) now, so that Summarized
// holds: one pass over its rows unless its block is in memory.
func (e *Experiment) Summarize(m int) error {
	_, _, err := e.stored().aggregates(m)
	return err
}

// Summarized reports whether metric m's aggregates (per call path over
// all locations, per location over all call paths) are computed, so that
// call-tree values, metric totals and whole-forest location values need
// no reading.
func (e *Experiment) Summarized(m int) bool { return e.stored().summarized(m) }

// Loaded reports whether metric m's data are already in memory.
func (e *Experiment) Loaded(m int) bool { return e.stored().loaded(m) }

// stored returns e's stored values, set up on first use.
func (e *Experiment) stored() *metricData {
	d := &e.data
	d.once.Do(func() {
		d.e = e
		d.slots = make([]blockSlot, len(e.Metrics))
	})
	return d
}

// Attr returns the value of the experiment attribute key.
func (e *Experiment) Attr(key string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// MetricByName returns the index of the metric with the given uniq_name, or -1.
func (e *Experiment) MetricByName(uniq string) int {
	for i := range e.Metrics {
		if e.Metrics[i].UniqName == uniq {
			return i
		}
	}
	return -1
}

// NumLocations returns the number of locations (data columns).
func (e *Experiment) NumLocations() int { return len(e.Locations) }

// Location returns the system node of data column l.
func (e *Experiment) Location(l int) *SystemNode { return &e.System[e.Locations[l]] }

// CnodeRegion returns the region of cnode c.
func (e *Experiment) CnodeRegion(c int) *Region { return &e.Regions[e.Cnodes[c].Region] }

// CallPath returns cnode c's call path as region names joined by "/".
func (e *Experiment) CallPath(c int) string {
	var parts []string
	for ; c >= 0; c = e.Cnodes[c].Parent {
		parts = append(parts, e.Regions[e.Cnodes[c].Region].Name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// CnodeByPath returns the cnode whose CallPath is path, or -1.
func (e *Experiment) CnodeByPath(path string) int {
	for c := range e.Cnodes {
		if e.CallPath(c) == path {
			return c
		}
	}
	return -1
}

// ThreadLevelHidden reports whether every location group holds exactly one
// location, in which case displays hide the location level.
func (e *Experiment) ThreadLevelHidden() bool {
	groups := 0
	for i := range e.System {
		n := &e.System[i]
		if n.Kind != Group {
			continue
		}
		groups++
		if len(n.Children) != 1 || e.System[n.Children[0]].Kind != Leaf {
			return false
		}
	}
	return groups > 0
}

// DepthFirst returns the nodes of a forest in depth-first pre-order.
func DepthFirst(roots []int, children func(int) []int) []int {
	var out []int
	stack := make([]int, 0, 64)
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, roots[i])
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, n)
		ch := children(n)
		for i := len(ch) - 1; i >= 0; i-- {
			stack = append(stack, ch[i])
		}
	}
	return out
}

// CnodeOrder returns all cnodes in depth-first pre-order.
func (e *Experiment) CnodeOrder() []int {
	return DepthFirst(e.CnodeRoots, func(c int) []int { return e.Cnodes[c].Children })
}

// MetricOrder returns all metrics in depth-first pre-order.
func (e *Experiment) MetricOrder() []int {
	return DepthFirst(e.MetricRoots, func(m int) []int { return e.Metrics[m].Children })
}

// SystemOrder returns all system nodes in depth-first pre-order.
func (e *Experiment) SystemOrder() []int {
	return DepthFirst(e.SystemRoots, func(s int) []int { return e.System[s].Children })
}
