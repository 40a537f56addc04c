package cube

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/beevik/etree"

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

// build reads all metadata below root and completes the experiment's
// structure: links, location columns, metric availability.
func (b *builder) build(root *etree.Element) error {
	var metrics, program, system *etree.Element
	for _, el := range root.ChildElements() {
		switch el.Tag {
		case "attr":
			key, value := el.SelectAttrValue("key", ""), el.SelectAttrValue("value", "")
			if el.SelectAttr("key") == nil {
				return errors.New("<attr> without key")
			}
			b.e.Attrs = append(b.e.Attrs, model.Attr{Key: key, Value: value})
		case "doc":
			for _, mi := range el.SelectElements("mirrors") {
				for _, mu := range mi.SelectElements("murl") {
					b.e.Mirrors = append(b.e.Mirrors, textOf(mu))
				}
			}
		case "metrics", "behavior":
			metrics = el
		case "program":
			program = el
		case "system", "locations":
			system = el
		}
	}
	want := [3]string{"metrics", "program", "system"}
	if b.v2 {
		want = [3]string{"behavior", "program", "locations"}
	}
	for i, sec := range []*etree.Element{metrics, program, system} {
		if sec == nil {
			return fmt.Errorf("missing <%s> section", want[i])
		}
		if t := sec.SelectAttr("title"); t != nil {
			b.titles = append(b.titles, model.Attr{Key: titleKeyPrefix + want[i] + " title", Value: t.Value})
		}
	}
	for _, el := range metrics.ChildElements() {
		if el.Tag == "metric" {
			if err := b.metric(el, -1); err != nil {
				return err
			}
		}
	}
	if err := b.program(program); err != nil {
		return err
	}
	if err := b.system(system); err != nil {
		return err
	}
	b.e.Attrs = append(b.e.Attrs, b.titles...)
	return b.complete()
}

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
		if !b.explicitUnavailable[i] {
			m.Unavailable = metricUnavailable(m, voidAncestor)
		}
		b.skip[i] = m.Unavailable != ""
	}
	return nil
}

// metricUnavailable returns why metric m has no values, or "".
func metricUnavailable(m *model.Metric, voidAncestor bool) string {
	switch {
	case voidAncestor || m.Hidden():
		return voidUnavail
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

func (b *builder) metric(el *etree.Element, parent int) error {
	id, err := idAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.metricByID[id]; dup {
		return fmt.Errorf("metric id %d is declared twice", id)
	}
	m := model.Metric{ID: id, Parent: parent, Type: "EXCLUSIVE"}
	if !b.v2 {
		m.Type = metricType(el.SelectAttrValue("type", ""))
		m.VizType = el.SelectAttrValue("viztype", "")
		for _, k := range []string{"convertible", "cacheable"} {
			if a := el.SelectAttr(k); a != nil {
				m.Attrs = append(m.Attrs, model.Attr{Key: metricXMLAttr + k, Value: a.Value})
			}
		}
	}
	hasDtype := false
	var name string
	var children []*etree.Element
	for _, ch := range el.ChildElements() {
		switch ch.Tag {
		case "disp_name":
			m.DispName = textOf(ch)
		case "uniq_name":
			m.UniqName = textOf(ch)
		case "name":
			name = textOf(ch)
		case "dtype":
			m.DataType, hasDtype = model.DataType(textOf(ch)), true
		case "uom":
			m.Unit = textOf(ch)
		case "val":
			m.Val = textOf(ch)
		case "url":
			m.URL = textOf(ch)
		case "descr":
			m.Descr = textOf(ch)
		case "cubepl":
			m.Expression = textOf(ch)
			for _, a := range ch.Attr {
				m.Attrs = append(m.Attrs, model.Attr{Key: cubeplXMLAttr + a.Key, Value: a.Value})
			}
		case "cubeplinit":
			m.InitExpression = textOf(ch)
		case "cubeplaggr":
			m.AggrExpressions = append(m.AggrExpressions, model.Attr{Key: ch.SelectAttrValue("cubeplaggrtype", ""), Value: textOf(ch)})
		case "attr":
			m.Attrs = append(m.Attrs, attrElem(ch))
		case "metric":
			children = append(children, ch)
		}
	}
	if b.v2 {
		m.DispName = name
		m.UniqName = strconv.Itoa(id) + name
		if !hasDtype || m.DataType == "" {
			m.DataType = "INTEGER"
			if m.Unit == "sec" {
				m.DataType = "FLOAT"
			}
		}
	}
	m.Aggregation = model.AggregationOf(m.DataType)
	idx := len(b.e.Metrics)
	b.e.Metrics = append(b.e.Metrics, m)
	b.metricByID[id] = idx
	for _, ch := range children {
		if err := b.metric(ch, idx); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) program(sec *etree.Element) error {
	var cnodes []*etree.Element
	for _, el := range sec.ChildElements() {
		var err error
		switch el.Tag {
		case "module":
			err = b.module(el)
		case "region":
			err = b.region(el)
		case "csite":
			err = b.csite(el)
		case "cnode":
			cnodes = append(cnodes, el)
		}
		if err != nil {
			return err
		}
	}
	for _, el := range cnodes {
		if err := b.cnode(el, -1); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) module(el *etree.Element) error {
	id, err := idAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.modules[id]; dup {
		return fmt.Errorf("module id %d is declared twice", id)
	}
	name := childText(el, "name")
	if name == "UNKNOWN" {
		name = ""
	}
	b.modules[id] = name
	return nil
}

// moduleName resolves a CUBE 2 module reference; an absent one is "".
func (b *builder) moduleName(el *etree.Element, what string) (string, error) {
	mod := el.SelectElement("mod")
	if mod == nil {
		return "", nil
	}
	id, err := parseInt(textOf(mod), "module id")
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if id < 0 {
		return "", nil
	}
	name, ok := b.modules[id]
	if !ok {
		return "", fmt.Errorf("%s refers to unknown module id %d", what, id)
	}
	return name, nil
}

func (b *builder) region(el *etree.Element) error {
	id, err := idAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.regionByID[id]; dup {
		return fmt.Errorf("region id %d is declared twice", id)
	}
	what := fmt.Sprintf("region id %d", id)
	r := model.Region{ID: id, Begin: -1, End: -1}
	if b.v2 {
		if r.Module, err = b.moduleName(el, what); err != nil {
			return err
		}
		if r.Begin, err = childInt(el, "begin", -1, what); err != nil {
			return err
		}
		if r.End, err = childInt(el, "end", -1, what); err != nil {
			return err
		}
	} else {
		r.Module = el.SelectAttrValue("mod", "")
		if r.Begin, err = optIntAttr(el, "begin", -1, what); err != nil {
			return err
		}
		if r.End, err = optIntAttr(el, "end", -1, what); err != nil {
			return err
		}
	}
	for _, ch := range el.ChildElements() {
		switch ch.Tag {
		case "name":
			r.Name = textOf(ch)
		case "mangled_name":
			r.MangledName = textOf(ch)
		case "paradigm":
			r.Paradigm = textOf(ch)
		case "role":
			r.Role = textOf(ch)
		case "url":
			r.URL = textOf(ch)
		case "descr":
			r.Descr = textOf(ch)
		case "attr":
			r.Attrs = append(r.Attrs, attrElem(ch))
		}
	}
	b.regionByID[id] = len(b.e.Regions)
	b.e.Regions = append(b.e.Regions, r)
	return nil
}

func (b *builder) csite(el *etree.Element) error {
	id, err := idAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.csites[id]; dup {
		return fmt.Errorf("csite id %d is declared twice", id)
	}
	what := fmt.Sprintf("csite id %d", id)
	cs := csite{}
	if cs.line, err = childInt(el, "line", -1, what); err != nil {
		return err
	}
	if cs.module, err = b.moduleName(el, what); err != nil {
		return err
	}
	callee, err := childInt(el, "callee", -1, what)
	if err != nil {
		return err
	}
	r, ok := b.regionByID[callee]
	if !ok {
		return fmt.Errorf("%s: unknown callee region id %d", what, callee)
	}
	cs.callee = r
	b.csites[id] = cs
	return nil
}

func (b *builder) cnode(el *etree.Element, parent int) error {
	id, err := idAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.cnodeByID[id]; dup {
		return fmt.Errorf("cnode id %d is declared twice", id)
	}
	what := fmt.Sprintf("cnode id %d", id)
	c := model.Cnode{ID: id, Parent: parent, CallLine: -1}
	if b.v2 {
		sid, err := requiredIntAttr(el, "csiteId", what)
		if err != nil {
			return err
		}
		cs, ok := b.csites[sid]
		if !ok {
			return fmt.Errorf("%s: unknown csiteId %d", what, sid)
		}
		c.Region, c.CallFile, c.CallLine = cs.callee, cs.module, cs.line
	} else {
		callee, err := requiredIntAttr(el, "calleeId", what)
		if err != nil {
			return err
		}
		r, ok := b.regionByID[callee]
		if !ok {
			return fmt.Errorf("%s: unknown calleeId %d (no region with that id)", what, callee)
		}
		c.Region = r
		c.CallFile = el.SelectAttrValue("mod", "")
		if c.CallLine, err = optIntAttr(el, "line", -1, what); err != nil {
			return err
		}
	}
	var children []*etree.Element
	for _, ch := range el.ChildElements() {
		switch ch.Tag {
		case "parameter":
			c.Params = append(c.Params, model.Param{
				Type:  ch.SelectAttrValue("partype", ""),
				Key:   ch.SelectAttrValue("parkey", ""),
				Value: ch.SelectAttrValue("parvalue", ""),
			})
		case "attr":
			c.Attrs = append(c.Attrs, attrElem(ch))
		case "cnode":
			children = append(children, ch)
		}
	}
	idx := len(b.e.Cnodes)
	b.cnodeByID[id] = idx
	b.e.Cnodes = append(b.e.Cnodes, c)
	for _, ch := range children {
		if err := b.cnode(ch, idx); err != nil {
			return err
		}
	}
	return nil
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

func (b *builder) system(sec *etree.Element) error {
	var topologies []*etree.Element
	for _, el := range sec.ChildElements() {
		if el.Tag == "topologies" {
			topologies = append(topologies, el)
			continue
		}
		if _, ok := sysTags[el.Tag]; ok {
			if err := b.sysNode(el, -1); err != nil {
				return err
			}
		}
	}
	b.renumberTreeNodes()
	for _, t := range topologies {
		for _, cart := range t.SelectElements("cart") {
			if err := b.cart(cart); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *builder) sysNode(el *etree.Element, parent int) error {
	tag := sysTags[el.Tag]
	var id int
	var err error
	if b.v2 {
		id, err = requiredIntAttr(el, "locid", "<"+el.Tag+">")
	} else {
		id, err = idAttr(el, "Id")
	}
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%s Id %d", el.Tag, id)
	if b.v2 {
		if _, dup := b.locids[id]; dup {
			return fmt.Errorf("locid %d is declared twice", id)
		}
	} else if _, dup := b.sysByID[tag.space][id]; dup {
		return fmt.Errorf("%s is declared twice", what)
	}
	n := model.SystemNode{ID: id, Kind: tag.kind, Class: tag.class, Parent: parent, Location: -1}
	hasName := false
	var children []*etree.Element
	for _, ch := range el.ChildElements() {
		switch ch.Tag {
		case "name":
			n.Name, hasName = textOf(ch), true
		case "descr":
			n.Descr = textOf(ch)
		case "class", "type":
			if tag.class == "" {
				n.Class = textOf(ch)
			}
		case "rank":
			if n.Rank, err = parseInt(textOf(ch), what+": rank"); err != nil {
				return err
			}
		case "attr":
			n.Attrs = append(n.Attrs, attrElem(ch))
		default:
			if _, ok := sysTags[ch.Tag]; ok {
				if tag.kind == model.Leaf {
					return fmt.Errorf("%s contains <%s>, but locations cannot have children", what, ch.Tag)
				}
				children = append(children, ch)
			}
		}
	}
	if (el.Tag == "process" || el.Tag == "thread") && (!hasName || n.Name == "") {
		// CUBE 2/3 name unnamed processes and threads after their rank.
		n.Name = fmt.Sprintf("Process %d", n.Rank)
		if el.Tag == "thread" {
			n.Name = fmt.Sprintf("Thread %d", n.Rank)
		}
	}
	idx := len(b.e.System)
	b.e.System = append(b.e.System, n)
	b.fileID = append(b.fileID, id)
	b.sysByID[tag.space][id] = idx
	if b.v2 {
		b.locids[id] = idx
	}
	if tag.kind == model.Leaf {
		b.leaves = append(b.leaves, idx)
	}
	for _, ch := range children {
		if err := b.sysNode(ch, idx); err != nil {
			return err
		}
	}
	return nil
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

func (b *builder) cart(el *etree.Element) error {
	t := model.Cart{Name: el.SelectAttrValue("name", "")}
	what := fmt.Sprintf("topology %q", t.Name)
	for _, d := range el.SelectElements("dim") {
		size, err := requiredIntAttr(d, "size", what+": <dim>")
		if err != nil {
			return err
		}
		if size <= 0 {
			return fmt.Errorf("%s: dimension size %d is not positive", what, size)
		}
		t.Dims = append(t.Dims, model.CartDim{
			Name:     d.SelectAttrValue("name", ""),
			Size:     size,
			Periodic: strings.EqualFold(strings.TrimSpace(d.SelectAttrValue("periodic", "")), "true"),
		})
	}
	if nd := el.SelectAttr("ndims"); nd != nil {
		n, err := parseInt(nd.Value, what+": ndims")
		if err != nil {
			return err
		}
		if n != len(t.Dims) {
			return fmt.Errorf("%s: ndims=%d but %d <dim> elements", what, n, len(t.Dims))
		}
	}
	for _, c := range el.SelectElements("coord") {
		node, err := b.coordNode(c, what)
		if err != nil {
			return err
		}
		fields := strings.Fields(textOf(c))
		if len(fields) != len(t.Dims) {
			return fmt.Errorf("%s: coordinate %q has %d values for %d dimensions", what, clip(textOf(c)), len(fields), len(t.Dims))
		}
		coord := make([]int, len(fields))
		for i, f := range fields {
			if coord[i], err = parseInt(f, what+": coordinate"); err != nil {
				return err
			}
			if coord[i] < 0 || coord[i] >= t.Dims[i].Size {
				return fmt.Errorf("%s: coordinate %d outside dimension %d of size %d", what, coord[i], i, t.Dims[i].Size)
			}
		}
		t.Coords = append(t.Coords, model.CartCoord{Node: node, Coord: coord})
	}
	b.e.Topologies = append(b.e.Topologies, t)
	return nil
}

func (b *builder) coordNode(c *etree.Element, what string) (int, error) {
	if b.v2 {
		id, err := requiredIntAttr(c, "locid", what+": <coord>")
		if err != nil {
			return 0, err
		}
		idx, ok := b.locids[id]
		if !ok {
			return 0, fmt.Errorf("%s: coordinate of unknown locid %d", what, id)
		}
		return idx, nil
	}
	for _, ct := range coordTargets {
		a := c.SelectAttr(ct.attr)
		if a == nil {
			continue
		}
		id, err := parseInt(a.Value, what+": "+ct.attr)
		if err != nil {
			return 0, err
		}
		for _, sp := range ct.spaces {
			if idx, ok := b.sysByID[sp][id]; ok {
				return idx, nil
			}
		}
		return 0, fmt.Errorf("%s: coordinate of unknown %s %d", what, ct.attr, id)
	}
	return 0, fmt.Errorf("%s: <coord> names no system entity", what)
}

// textOf returns all character data directly inside el.
func textOf(el *etree.Element) string {
	var s string
	n := 0
	for _, t := range el.Child {
		if cd, ok := t.(*etree.CharData); ok {
			if n == 0 {
				s = cd.Data
			} else {
				s += cd.Data
			}
			n++
		}
	}
	return s
}

func childText(el *etree.Element, tag string) string {
	if ch := el.SelectElement(tag); ch != nil {
		return textOf(ch)
	}
	return ""
}

func attrElem(el *etree.Element) model.Attr {
	return model.Attr{Key: el.SelectAttrValue("key", ""), Value: el.SelectAttrValue("value", "")}
}

func parseInt(s, what string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not an integer", what, clip(s))
	}
	return v, nil
}

// idAttr reads the non-negative id of el from attribute key or its other
// capitalisation (CUBE accepts both id and Id).
func idAttr(el *etree.Element, key string) (int, error) {
	a := el.SelectAttr(key)
	if a == nil {
		other := "Id"
		if key == "Id" {
			other = "id"
		}
		a = el.SelectAttr(other)
	}
	if a == nil {
		return 0, fmt.Errorf("<%s> without %s", el.Tag, key)
	}
	id, err := parseInt(a.Value, "<"+el.Tag+"> "+key)
	if err != nil {
		return 0, err
	}
	if id < 0 {
		return 0, fmt.Errorf("<%s> has negative %s %d", el.Tag, key, id)
	}
	return id, nil
}

func requiredIntAttr(el *etree.Element, key, what string) (int, error) {
	a := el.SelectAttr(key)
	if a == nil {
		return 0, fmt.Errorf("%s: missing attribute %s", what, key)
	}
	return parseInt(a.Value, what+": "+key)
}

func optIntAttr(el *etree.Element, key string, dflt int, what string) (int, error) {
	a := el.SelectAttr(key)
	if a == nil {
		return dflt, nil
	}
	return parseInt(a.Value, what+": "+key)
}

func childInt(el *etree.Element, tag string, dflt int, what string) (int, error) {
	ch := el.SelectElement(tag)
	if ch == nil {
		return dflt, nil
	}
	return parseInt(textOf(ch), what+": <"+tag+">")
}
