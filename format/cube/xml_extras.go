package cube

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// What a target format cannot hold natively travels in top-level
// attributes <attr key="cubeview::KIND::ID" value="JSON"/>, one per entity.
// The files stay valid for the original CUBE tools, which show them as
// plain attributes, and the reader decodes and removes them again, so a
// write → read round trip is lossless. KIND is metric, region, cnode, or
// the CUBE 4 element name of a system node (systemtreenode, locationgroup,
// location); ID is the entity's id as written in the same file. The
// experiment's call graph travels in one attribute cubeview::callgraph.

type metricExtra struct {
	Type        model.MetricType `json:"type,omitempty"`
	VizType     string           `json:"viztype,omitempty"`
	Expr        string           `json:"expr,omitempty"`
	Init        string           `json:"init,omitempty"`
	Aggr        []model.Attr     `json:"aggr,omitempty"`
	Attrs       []model.Attr     `json:"attrs,omitempty"`
	Present     model.Mask       `json:"present,omitempty"`
	Approximate bool             `json:"approximate,omitempty"`
	Unavailable *string          `json:"unavailable,omitempty"`
	Aggregation string           `json:"aggregation,omitempty"`
}

type regionExtra struct {
	Mangled  string       `json:"mangled,omitempty"`
	Paradigm string       `json:"paradigm,omitempty"`
	Role     string       `json:"role,omitempty"`
	Attrs    []model.Attr `json:"attrs,omitempty"`
}

type cnodeExtra struct {
	Params  []model.Param `json:"params,omitempty"`
	Attrs   []model.Attr  `json:"attrs,omitempty"`
	Present model.Mask    `json:"present,omitempty"`
}

type systemExtra struct {
	ID      *int         `json:"id,omitempty"`
	Class   *string      `json:"class,omitempty"`
	Descr   string       `json:"descr,omitempty"`
	Rank    int          `json:"rank,omitempty"`
	Attrs   []model.Attr `json:"attrs,omitempty"`
	Present model.Mask   `json:"present,omitempty"`
}

func extraKey(kind string, id int) string {
	return extrasPrefix + kind + "::" + strconv.Itoa(id)
}

// extraAttr encodes v as the attribute for entity kind/id, or reports
// false when v is empty.
func extraAttr(kind string, id int, v any) (model.Attr, bool) {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "{}" {
		return model.Attr{}, false
	}
	return model.Attr{Key: extraKey(kind, id), Value: string(b)}, true
}

// applyExtras decodes the cubeview:: attributes into the entities they
// describe and removes them from the experiment's attributes. Attributes
// for entities that no longer exist (a file edited by another tool) are
// dropped; keys of any other form stay ordinary attributes.
func (b *builder) applyExtras() error {
	e := b.e
	var sysIndex map[string]int
	kept := e.Attrs[:0]
	for _, a := range e.Attrs {
		if a.Key == callGraphKey {
			if err := b.applyCallGraph(a.Value); err != nil {
				return fmt.Errorf("attr %s: %w", importer.Quote(a.Key), err)
			}
			continue
		}
		kind, id, ok := parseExtraKey(a.Key)
		if !ok {
			kept = append(kept, a)
			continue
		}
		idText := strconv.Itoa(id)
		bad := func(err error) error { return fmt.Errorf("attr %s: %w", importer.Quote(a.Key), err) }
		switch kind {
		case "metric":
			i, ok := b.metricByID[id]
			if !ok {
				continue
			}
			var x metricExtra
			if err := json.Unmarshal([]byte(a.Value), &x); err != nil {
				return bad(err)
			}
			m := &e.Metrics[i]
			if x.Type != "" {
				m.Type = x.Type
			}
			if x.VizType != "" {
				m.VizType = x.VizType
			}
			if x.Expr != "" {
				m.Expression = x.Expr
			}
			if x.Init != "" {
				m.InitExpression = x.Init
			}
			m.AggrExpressions = append(m.AggrExpressions, x.Aggr...)
			m.Attrs = append(m.Attrs, x.Attrs...)
			m.Present |= x.Present
			m.Approximate = m.Approximate || x.Approximate
			if x.Unavailable != nil {
				m.Unavailable = *x.Unavailable
				if b.explicitUnavailable == nil {
					b.explicitUnavailable = map[int]bool{}
				}
				b.explicitUnavailable[i] = true
			}
			switch x.Aggregation {
			case "sum":
				m.Aggregation = model.Sum
			case "min":
				m.Aggregation = model.Min
			case "max":
				m.Aggregation = model.Max
			}
		case "region":
			i, ok := b.regionByID[id]
			if !ok {
				continue
			}
			var x regionExtra
			if err := json.Unmarshal([]byte(a.Value), &x); err != nil {
				return bad(err)
			}
			r := &e.Regions[i]
			if x.Mangled != "" {
				r.MangledName = x.Mangled
			}
			if x.Paradigm != "" {
				r.Paradigm = x.Paradigm
			}
			if x.Role != "" {
				r.Role = x.Role
			}
			r.Attrs = append(r.Attrs, x.Attrs...)
		case "cnode":
			i, ok := b.cnodeByID[id]
			if !ok {
				continue
			}
			var x cnodeExtra
			if err := json.Unmarshal([]byte(a.Value), &x); err != nil {
				return bad(err)
			}
			c := &e.Cnodes[i]
			c.Params = append(c.Params, x.Params...)
			c.Attrs = append(c.Attrs, x.Attrs...)
			c.Present |= x.Present
		case model.TreeNode.String(), model.Group.String(), model.Leaf.String():
			if sysIndex == nil {
				sysIndex = make(map[string]int, len(e.System))
				for i := range e.System {
					sysIndex[e.System[i].Kind.String()+"::"+strconv.Itoa(e.System[i].ID)] = i
				}
			}
			i, ok := sysIndex[kind+"::"+idText]
			if !ok {
				continue
			}
			var x systemExtra
			if err := json.Unmarshal([]byte(a.Value), &x); err != nil {
				return bad(err)
			}
			n := &e.System[i]
			if x.ID != nil {
				n.ID = *x.ID
			}
			if x.Class != nil {
				n.Class = *x.Class
			}
			if x.Descr != "" {
				n.Descr = x.Descr
			}
			if x.Rank != 0 {
				n.Rank = x.Rank
			}
			n.Attrs = append(n.Attrs, x.Attrs...)
			n.Present |= x.Present
		}
	}
	e.Attrs = kept
	return nil
}

// parseExtraKey splits "cubeview::KIND::ID".
func parseExtraKey(key string) (kind string, id int, ok bool) {
	rest, ok := strings.CutPrefix(key, extrasPrefix)
	if !ok {
		return "", 0, false
	}
	kind, idText, ok := strings.Cut(rest, "::")
	if !ok {
		return "", 0, false
	}
	switch kind {
	case "metric", "region", "cnode", model.TreeNode.String(), model.Group.String(), model.Leaf.String():
	default:
		return "", 0, false
	}
	id, err := strconv.Atoi(idText)
	if err != nil || strconv.Itoa(id) != idText {
		return "", 0, false
	}
	return kind, id, true
}

// callGraphKey is the top-level attribute that carries an experiment's
// call graph (model.CallGraph), which no CUBE format holds natively.
const callGraphKey = extrasPrefix + "callgraph"

// callGraphExtra is the JSON form of a call graph: regions and metrics
// are named by their ids in the same file.
type callGraphExtra struct {
	Arcs []arcExtra `json:"arcs,omitempty"`
	// Inclusive maps a metric id to region id → value (non-zero values).
	Inclusive map[string]map[string]float64 `json:"inclusive,omitempty"`
}

type arcExtra struct {
	Caller *int               `json:"caller,omitempty"` // absent: unknown caller
	Callee int                `json:"callee"`
	Calls  int64              `json:"calls"`
	Values map[string]float64 `json:"values,omitempty"` // metric id → value
}

// callGraphAttr encodes e's call graph, or reports false when it has none.
func callGraphAttr(e *model.Experiment) (model.Attr, bool) {
	g := e.CallGraph
	if g == nil {
		return model.Attr{}, false
	}
	x := callGraphExtra{Arcs: make([]arcExtra, len(g.Arcs))}
	metricKey := func(m int) string { return strconv.Itoa(e.Metrics[m].ID) }
	for i, a := range g.Arcs {
		xa := arcExtra{Callee: e.Regions[a.Callee].ID, Calls: a.Calls}
		if a.Caller >= 0 {
			id := e.Regions[a.Caller].ID
			xa.Caller = &id
		}
		if len(a.Values) > 0 {
			xa.Values = make(map[string]float64, len(a.Values))
			for m, v := range a.Values {
				xa.Values[metricKey(m)] = v
			}
		}
		x.Arcs[i] = xa
	}
	if len(g.Inclusive) > 0 {
		x.Inclusive = make(map[string]map[string]float64, len(g.Inclusive))
		for m, vals := range g.Inclusive {
			row := map[string]float64{}
			for r, v := range vals {
				if v != 0 {
					row[strconv.Itoa(e.Regions[r].ID)] = v
				}
			}
			x.Inclusive[metricKey(m)] = row
		}
	}
	b, err := json.Marshal(x)
	if err != nil {
		return model.Attr{}, false
	}
	return model.Attr{Key: callGraphKey, Value: string(b)}, true
}

// applyCallGraph decodes the call-graph attribute into b.e.CallGraph.
// Arcs and values that name regions or metrics the file does not have
// (a file edited by another tool) are dropped.
func (b *builder) applyCallGraph(value string) error {
	var x callGraphExtra
	if err := json.Unmarshal([]byte(value), &x); err != nil {
		return err
	}
	e := b.e
	metricOf := func(key string) (int, bool) {
		id, err := strconv.Atoi(key)
		if err != nil {
			return 0, false
		}
		m, ok := b.metricByID[id]
		return m, ok
	}
	g := &model.CallGraph{}
	for _, xa := range x.Arcs {
		callee, ok := b.regionByID[xa.Callee]
		if !ok {
			continue
		}
		caller := -1
		if xa.Caller != nil {
			if caller, ok = b.regionByID[*xa.Caller]; !ok {
				continue
			}
		}
		calls := xa.Calls
		if calls < -1 {
			return fmt.Errorf("arc to region id %d has %d calls", xa.Callee, calls)
		}
		a := model.CallArc{Caller: caller, Callee: callee, Calls: calls}
		for key, v := range xa.Values {
			if m, ok := metricOf(key); ok {
				if a.Values == nil {
					a.Values = map[int]float64{}
				}
				a.Values[m] = v
			}
		}
		g.Arcs = append(g.Arcs, a)
	}
	for key, row := range x.Inclusive {
		m, ok := metricOf(key)
		if !ok {
			continue
		}
		vals := make([]float64, len(e.Regions))
		for rk, v := range row {
			id, err := strconv.Atoi(rk)
			if err != nil {
				continue
			}
			if r, ok := b.regionByID[id]; ok {
				vals[r] = v
			}
		}
		if g.Inclusive == nil {
			g.Inclusive = map[int][]float64{}
		}
		g.Inclusive[m] = vals
	}
	e.CallGraph = g
	return nil
}
