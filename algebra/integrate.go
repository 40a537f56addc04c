package algebra

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"cubeview/model"
)

// MaxOperands is the largest number of operands of one operation: the
// Present masks of the result hold one bit per operand.
const MaxOperands = 64

// Integration is the common metadata of a list of operands and, per
// operand, where each of its entities went in the result.
type Integration struct {
	// Result holds the integrated metadata and no data. Arithmetic builds
	// each result from it without changing it.
	Result *model.Experiment
	// Operands are the experiments integrated: the operands given, except
	// that when some are flat profiles and others call trees, the trees
	// are replaced by their flat profiles (see MatchReport.Flat). Maps
	// below refer to these.
	Operands []*model.Experiment
	Options  Options

	// Metrics[i][m] is the index in Result.Metrics of operand i's metric
	// m; Regions, Cnodes and System likewise for regions, call-tree nodes
	// and system nodes, and Locations[i][l] is the result data column of
	// operand i's data column l. The entry is -1 where the entity has no
	// counterpart, which happens only for machine and node entries of the
	// system tree that were not copied.
	Metrics   [][]int
	Regions   [][]int
	Cnodes    [][]int
	System    [][]int
	Locations [][]int

	// SystemOutcome tells how the result's system tree was built.
	SystemOutcome SystemOutcome
	// RootsMatched, when not empty, says in a sentence which call-tree
	// roots of different regions were matched (see Options.StrictRoots).
	RootsMatched string
	// Report says what was matched other than by equal names, and what
	// was not compared and why.
	Report MatchReport

	invOnce sync.Once
	inverse [][]int // per operand: result cnode → operand cnode
}

// SystemOutcome describes how the machine/node hierarchy of a result was
// built.
type SystemOutcome struct {
	// Donor is the operand whose hierarchy was copied, or -1 when the
	// hierarchy was collapsed to one machine and one node.
	Donor int
	// DonorName is the donor's source (file name or expression).
	DonorName string
	// Reason explains the choice in a sentence.
	Reason string
}

// Collapsed reports whether the hierarchy was collapsed.
func (s SystemOutcome) Collapsed() bool { return s.Donor < 0 }

// String describes the outcome for the result's attributes.
func (s SystemOutcome) String() string {
	if s.Collapsed() {
		return "collapsed: " + s.Reason
	}
	if s.DonorName != "" {
		return fmt.Sprintf("copied from operand %d (%s): %s", s.Donor, s.DonorName, s.Reason)
	}
	return fmt.Sprintf("copied from operand %d: %s", s.Donor, s.Reason)
}

func bit(i int) model.Mask { return model.Mask(1) << uint(i) }

// operandName names operand i of ops in error messages.
func operandName(ops []*model.Experiment, i int) string {
	if s := ops[i].Source; s != "" {
		return fmt.Sprintf("operand %d (%s)", i, s)
	}
	return fmt.Sprintf("operand %d", i)
}

// Integrate builds the common metadata of the operands: a top-down
// structural merge of the metric, call and system dimensions. Walking each
// operand's trees from the roots, a node that equals an already integrated
// node under the same (matched) parent is mapped onto it; any other node
// is copied with its whole subtree, so once two nodes differ their
// subtrees stay apart. Definitions come from the first operand that has
// the entity. The equality relations are:
//
//   - metric: the same unique name anywhere in the tree. The same name with
//     a different unit or a different aggregation (sum, min, max) is an
//     error naming the metric.
//   - region: the same name and module; with Options.StrictLines also the
//     same begin and end lines. Names are compared after Options.Renames;
//     a result region has the renamed name. When every operand has a
//     single call-tree root, the root regions count as equal whatever
//     their names and modules (the first operand's definition is kept,
//     and RootsMatched says so), unless Options.StrictRoots is set.
//     Operands recorded by different tools (their formats name different
//     tools, e.g. a .cubex and an HPCToolkit database) match regions by
//     name alone, since every tool records a region's file differently;
//     among same-named regions one with the same module is preferred.
//   - call-tree node: the same callee region and parameters under a matched
//     parent; with Options.StrictLines also the same call-site file and
//     line. Siblings that are equal under this relation are matched in
//     order, preferring a sibling with the same call site, so a node never
//     absorbs two nodes of one operand.
//   - process (location group): the same rank; thread (location): the same
//     rank within its process. Equal ranks within one operand are matched
//     in order of appearance.
//
// The result holds the union of all processes, and of all threads of each
// process. The machine/node hierarchy above the processes is not matched.
// With SystemAuto it is copied from the first operand D that holds every
// process of the result and whose hierarchy is compatible with every
// operand O: any two processes that share a parent node in O share a
// parent node in D, i.e. every node of the copied hierarchy covers whole
// nodes of every operand, so node-level values in the result still
// combine whole nodes. Two runs of one program on differently named nodes
// with the same rank layout are compatible; so are a run on one node and a
// larger run whose first node holds all of its ranks. Without such a D the
// hierarchy is collapsed to one machine "Virtual machine" with one node
// "Virtual node" holding all processes in rank order. SystemCollapse
// always collapses; SystemCopy copies from the first compatible operand or,
// failing that, from the first operand with the most processes, and puts
// processes that operand lacks under an extra machine named "Other
// processes".
//
// Result ids are dense, in depth-first order of each tree; result indices
// of metrics and call-tree nodes equal their ids.
func Integrate(operands []*model.Experiment, opt Options) (*Integration, error) {
	if len(operands) == 0 {
		return nil, errors.New("no operands")
	}
	if len(operands) > MaxOperands {
		return nil, fmt.Errorf("%d operands, at most %d are supported", len(operands), MaxOperands)
	}
	for i, e := range operands {
		if e == nil {
			return nil, fmt.Errorf("operand %d is missing", i)
		}
	}
	operands, flat, err := flattenMixed(operands)
	if err != nil {
		return nil, err
	}
	ig := &Integration{
		Result:   &model.Experiment{Format: "derived"},
		Operands: operands,
		Options:  opt,
	}
	ig.Report.Flat = flat
	if err := ig.integrateMetrics(); err != nil {
		return nil, err
	}
	if err := ig.integrateRegions(); err != nil {
		return nil, err
	}
	if err := ig.integrateCnodes(); err != nil {
		return nil, err
	}
	if err := ig.integrateSystem(); err != nil {
		return nil, err
	}
	ig.integrateTopologies()
	for _, e := range operands {
		for _, m := range e.Mirrors {
			if !slices.Contains(ig.Result.Mirrors, m) {
				ig.Result.Mirrors = append(ig.Result.Mirrors, m)
			}
		}
	}
	res := ig.Result
	res.Link()
	reorderMetrics(res, ig.Metrics)
	reorderCnodes(res, ig.Cnodes)
	res.NumberLocations()
	ig.Locations = make([][]int, len(operands))
	for i, e := range operands {
		lm := make([]int, len(e.Locations))
		for l, s := range e.Locations {
			lm[l] = -1
			if r := ig.System[i][s]; r >= 0 {
				lm[l] = res.System[r].Location
			}
		}
		ig.Locations[i] = lm
	}
	if err := res.Validate(); err != nil {
		return nil, fmt.Errorf("integrated metadata are inconsistent: %w", err)
	}
	ig.reportCoverage()
	return ig, nil
}

func newMap(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = -1
	}
	return m
}

// firstOperand returns the lowest operand index in m.
func firstOperand(m model.Mask) int {
	for i := 0; i < MaxOperands; i++ {
		if m.Has(i) {
			return i
		}
	}
	return -1
}

type regionKey struct {
	name, module string
	begin, end   int
}

// toolOf names the tool whose file an experiment was read from: the first
// word of its format ("CUBE", "HPCToolkit", "pprof", …), or "" for a
// derived experiment.
func toolOf(e *model.Experiment) string {
	tool, _, _ := strings.Cut(strings.TrimSpace(e.Format), " ")
	if strings.EqualFold(tool, "derived") {
		return ""
	}
	return strings.ToLower(tool)
}

// reorderMetrics puts the metrics of a linked experiment into depth-first
// order, sets ids to indices and rewrites the per-operand maps.
func reorderMetrics(e *model.Experiment, maps [][]int) {
	e.Metrics = reorder(e.Metrics, e.MetricOrder(), maps, func(m *model.Metric, id int) *int {
		m.ID = id
		return &m.Parent
	})
	e.Link()
}

// reorderCnodes puts the call-tree nodes of a linked experiment into
// depth-first order, sets ids to indices and rewrites the per-operand maps.
func reorderCnodes(e *model.Experiment, maps [][]int) {
	e.Cnodes = reorder(e.Cnodes, e.CnodeOrder(), maps, func(c *model.Cnode, id int) *int {
		c.ID = id
		return &c.Parent
	})
	e.Link()
}

// reorder returns items permuted into order (new position p holds
// items[order[p]]), giving each its position as id through setID, which
// also returns the item's parent index to rewrite. Per-operand maps into
// items are rewritten to the new positions.
func reorder[T any](items []T, order []int, maps [][]int, setID func(item *T, id int) (parent *int)) []T {
	pos := make([]int, len(order))
	for p, i := range order {
		pos[i] = p
	}
	out := make([]T, len(order))
	for p, i := range order {
		out[p] = items[i]
		if parent := setID(&out[p], p); *parent >= 0 {
			*parent = pos[*parent]
		}
	}
	for _, mp := range maps {
		for k, v := range mp {
			if v >= 0 {
				mp[k] = pos[v]
			}
		}
	}
	return out
}

// integrateTopologies copies every operand's topologies through its system
// map, dropping coordinates of entities without a counterpart, topologies
// left without coordinates and exact duplicates.
func (ig *Integration) integrateTopologies() {
	res := ig.Result
	for i, e := range ig.Operands {
		for _, t := range e.Topologies {
			nt := model.Cart{Name: t.Name, Dims: slices.Clone(t.Dims)}
			for _, c := range t.Coords {
				if c.Node < 0 || c.Node >= len(ig.System[i]) || ig.System[i][c.Node] < 0 {
					continue
				}
				nt.Coords = append(nt.Coords, model.CartCoord{Node: ig.System[i][c.Node], Coord: slices.Clone(c.Coord)})
			}
			if len(nt.Coords) == 0 || slices.ContainsFunc(res.Topologies, func(o model.Cart) bool { return equalCart(o, nt) }) {
				continue
			}
			res.Topologies = append(res.Topologies, nt)
		}
	}
}

func equalCart(a, b model.Cart) bool {
	return a.Name == b.Name && slices.Equal(a.Dims, b.Dims) &&
		slices.EqualFunc(a.Coords, b.Coords, func(x, y model.CartCoord) bool {
			return x.Node == y.Node && slices.Equal(x.Coord, y.Coord)
		})
}
