package cube

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"cubeview/model"
)

// What a target format cannot hold natively travels in top-level
// attributes <attr key="cubeview::KIND::ID" value="JSON"/>, one per entity.
// The files stay valid for the original CUBE tools, which show them as
// plain attributes, and the reader decodes and removes them again, so a
// write → read round trip is lossless. KIND is metric, region, cnode, or
// the CUBE 4 element name of a system node (systemtreenode, locationgroup,
// location); ID is the entity's id as written in the same file.

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
		kind, id, ok := parseExtraKey(a.Key)
		if !ok {
			kept = append(kept, a)
			continue
		}
		idText := strconv.Itoa(id)
		bad := func(err error) error { return fmt.Errorf("attr %q: %w", a.Key, err) }
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
