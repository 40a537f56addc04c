package cube

import (
	"fmt"
	"strconv"
	"strings"

	"cubeview/model"
)

// Keys of model attributes that stand for XML attributes of CUBE elements
// the model has no field for; the writers turn them back into XML
// attributes.
const (
	titleKeyPrefix = "cube::"        // experiment: + "metrics title", "program title", "system title"
	metricXMLAttr  = "cube::"        // metric: + "convertible", "cacheable"
	cubeplXMLAttr  = "cube::cubepl " // metric: + "rowwise", "locationwise" of <cubepl>
)

// extrasPrefix starts the keys of the top-level attributes that carry what
// a format cannot hold (see xml_extras.go).
const extrasPrefix = "cubeview::"

// Reasons for Metric.Unavailable.
const (
	derivedUnavail    = "derived metric: CubePL expression not evaluated"
	voidUnavail       = "VOID metric: no data"
	dataTypeUnavailFn = "data type %s is not a single number"
)

// id spaces of system entities in the file
const (
	spaceMachine = iota // CUBE 3 <machine Id>
	spaceNode           // CUBE 3 <node Id>
	spaceSTN            // CUBE 4 <systemtreenode Id>
	spaceGroup          // <process Id>, <locationgroup Id>
	spaceLeaf           // <thread Id>, <location Id>
	numSpaces
)

// builder turns the metadata tree of a CUBE document into an experiment.
type builder struct {
	version string
	v2      bool
	e       *model.Experiment

	metricByID map[int]int
	regionByID map[int]int
	cnodeByID  map[int]int
	modules    map[int]string // CUBE 2 module names
	csites     map[int]csite  // CUBE 2 call sites

	sysByID [numSpaces]map[int]int // file id → system index, per id space
	locids  map[int]int            // CUBE 2: one id space for all levels
	fileID  []int                  // per system index: the id in the file
	leaves  []int                  // locations in document order
	titles  []model.Attr

	locationColumn      map[int]int
	explicitUnavailable map[int]bool // metrics whose Unavailable came from a cubeview:: attr
	skip                []bool       // per metric: no values to read
	blocks              []*model.Block
}

type csite struct {
	line   int
	module string
	callee int // region index
}

func newBuilder(version string) *builder {
	b := &builder{
		version:    version,
		v2:         version == "2.0",
		e:          &model.Experiment{Format: "CUBE " + version + " (XML)"},
		metricByID: map[int]int{},
		regionByID: map[int]int{},
		cnodeByID:  map[int]int{},
		modules:    map[int]string{},
		csites:     map[int]csite{},
		locids:     map[int]int{},
	}
	for i := range b.sysByID {
		b.sysByID[i] = map[int]int{}
	}
	return b
}

func (b *builder) hasSeverity() bool { return b.version == "2.0" || b.version == "3.0" }

// complete applies the cubeview:: attributes and derives what the model
// keeps precomputed.
func (b *builder) complete() error {
	e := b.e
	if err := b.applyExtras(); err != nil {
		return err
	}
	e.Link()
	e.NumberLocations()
	b.locationColumn = make(map[int]int, len(e.Locations))
	for col, s := range e.Locations {
		b.locationColumn[b.fileID[s]] = col
	}
	b.skip = make([]bool, len(e.Metrics))
	hidden := make([]bool, len(e.Metrics)) // VOID or below a VOID metric
	for i := range e.Metrics {             // parents precede children
		m := &e.Metrics[i]
		voidAncestor := m.Parent >= 0 && hidden[m.Parent]
		hidden[i] = voidAncestor || m.Hidden()
		bindFormula(m)
		if !b.explicitUnavailable[i] {
			m.Unavailable = metricUnavailable(m, voidAncestor)
		}
		b.skip[i] = m.Unavailable != "" || m.Formula != nil
	}
	e.BindFormulas()
	return nil
}

// bindFormula parses the CubePL expression of a POSTDERIVED metric into
// its Formula when it uses only what cubeview evaluates (numbers, metric
// references, + − × ÷ and parentheses); other derived metrics keep only
// their definition.
func bindFormula(m *model.Metric) {
	m.Formula = nil
	if m.Type != model.PostDerived && m.Type != model.Derived || strings.TrimSpace(m.Expression) == "" {
		return
	}
	if f, err := model.ParseFormula(m.Expression); err == nil {
		m.Formula = f
	}
}

// metricUnavailable returns why metric m has no values, or "".
func metricUnavailable(m *model.Metric, voidAncestor bool) string {
	switch {
	case voidAncestor || m.Hidden():
		return voidUnavail
	case m.Formula != nil:
		return ""
	case m.Type.IsDerived():
		return derivedUnavail
	case strings.TrimSpace(string(m.DataType)) != "":
		if _, ok := scalarTypeOf(m.DataType); !ok {
			return fmt.Sprintf(dataTypeUnavailFn, m.DataType)
		}
	}
	return ""
}

// metricType normalises the CUBE 4 type attribute; CubeLib reads an
// absent or unknown type as EXCLUSIVE.
func metricType(t string) model.MetricType {
	mt := model.MetricType(strings.ToUpper(strings.TrimSpace(t)))
	switch mt {
	case model.Exclusive, model.Inclusive, model.Simple, model.PostDerived, model.Derived, model.PrederivedExclusive, model.PrederivedInclusive:
		return mt
	}
	return model.Exclusive
}

// sysTag describes a system element.
type sysTag struct {
	kind  model.SystemKind
	class string // fixed class; "" = read from <class> or <type>
	space int
}

var sysTags = map[string]sysTag{
	"machine":        {model.TreeNode, "machine", spaceMachine},
	"node":           {model.TreeNode, "node", spaceNode},
	"systemtreenode": {model.TreeNode, "", spaceSTN},
	"process":        {model.Group, "process", spaceGroup},
	"locationgroup":  {model.Group, "", spaceGroup},
	"thread":         {model.Leaf, "thread", spaceLeaf},
	"location":       {model.Leaf, "", spaceLeaf},
}

// renumberTreeNodes gives all tree nodes fresh ids 0, 1, … in document
// order when machine, node and system-tree-node ids collide (CUBE 3 keeps
// separate id spaces for machines and nodes, the model one for all).
func (b *builder) renumberTreeNodes() {
	seen := map[int]bool{}
	collide := false
	for _, sp := range []int{spaceMachine, spaceNode, spaceSTN} {
		for id := range b.sysByID[sp] {
			if seen[id] {
				collide = true
			}
			seen[id] = true
		}
	}
	if !collide || b.v2 {
		return
	}
	next := 0
	for i := range b.e.System {
		if b.e.System[i].Kind == model.TreeNode {
			b.e.System[i].ID = next
			next++
		}
	}
}

// coordTargets maps a coord attribute to the id spaces it may refer to.
var coordTargets = []struct {
	attr   string
	spaces []int
}{
	{"thrdId", []int{spaceLeaf}},
	{"locId", []int{spaceLeaf}},
	{"procId", []int{spaceGroup}},
	{"lgId", []int{spaceGroup}},
	{"nodeId", []int{spaceNode, spaceSTN}},
	{"machId", []int{spaceMachine, spaceSTN}},
	{"stnId", []int{spaceSTN, spaceMachine, spaceNode}},
}

func parseInt(s, what string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s: %s is not an integer", what, clip(s))
	}
	return v, nil
}
