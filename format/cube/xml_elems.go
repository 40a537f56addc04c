package cube

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// The element readers below consume one element of the metadata sections
// from the scanner, its start tag being current, and put what it holds
// straight into the builder's experiment; nothing is kept as a tree.
// Entities are appended when their start tag is read, so that their
// indices follow document pre-order, and completed from their fields by
// index as those arrive.

// attrString returns the value of attribute key of the current start tag.
func (p *xmlParser) attrString(key string) (string, bool) {
	v, ok := p.s.attr(key)
	return string(v), ok
}

// what names an entity in error messages; the text is built only when an
// error needs it.
type what struct {
	prefix string // "cnode id ", "<thread> Id ", …
	id     int
	noID   bool
}

func (w what) String() string {
	if w.noID {
		return w.prefix
	}
	return w.prefix + strconv.Itoa(w.id)
}

// fastInt parses a plain decimal integer of at most 18 digits.
func fastInt(b []byte) (int, bool) {
	n := len(b)
	if n == 0 || n > 18 {
		return 0, false
	}
	neg := b[0] == '-'
	i := 0
	if neg {
		i = 1
		if n == 1 {
			return 0, false
		}
	}
	v := 0
	for ; i < n; i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int(c)
	}
	if neg {
		v = -v
	}
	return v, true
}

// intBytes parses a decimal integer without allocating in the common case.
func intBytes(b []byte, what string) (int, error) {
	if n := len(b); n > 0 && n <= 18 {
		neg := b[0] == '-'
		i := 0
		if neg {
			i = 1
		}
		if i < n {
			v := 0
			for ; i < n; i++ {
				c := b[i]
				if c < '0' || c > '9' {
					break
				}
				v = v*10 + int(c-'0')
			}
			if i == n {
				if neg {
					v = -v
				}
				return v, nil
			}
		}
	}
	return parseInt(string(b), what)
}

// idAttr reads the non-negative id of the current element from attribute
// key or its other capitalisation (CUBE accepts both id and Id).
func (p *xmlParser) idAttr(key string) (int, error) {
	s := p.s
	v, ok := s.attr(key)
	if !ok {
		other := "Id"
		if key == "Id" {
			other = "id"
		}
		v, ok = s.attr(other)
	}
	if !ok {
		return 0, fmt.Errorf("<%s> without %s", s.name, key)
	}
	id, ok := fastInt(v)
	if !ok {
		var err error
		if id, err = parseInt(string(v), "<"+string(s.name)+"> "+key); err != nil {
			return 0, err
		}
	}
	if id < 0 {
		return 0, fmt.Errorf("<%s> has negative %s %d", s.name, key, id)
	}
	return id, nil
}

func (p *xmlParser) requiredIntAttr(key string, w what) (int, error) {
	v, ok := p.s.attr(key)
	if !ok {
		return 0, fmt.Errorf("%s: missing attribute %s", w, key)
	}
	if n, ok := fastInt(v); ok {
		return n, nil
	}
	return parseInt(string(v), w.String()+": "+key)
}

func (p *xmlParser) optIntAttr(key string, dflt int, w what) (int, error) {
	v, ok := p.s.attr(key)
	if !ok {
		return dflt, nil
	}
	if n, ok := fastInt(v); ok {
		return n, nil
	}
	return parseInt(string(v), w.String()+": "+key)
}

// internAttr returns the value of attribute key as a string shared with
// earlier equal values (file names repeat on every cnode and region).
func (p *xmlParser) internAttr(key string) string {
	v, _ := p.s.attr(key)
	return p.intern(v)
}

func (p *xmlParser) intern(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	if len(v) > 256 {
		return string(v)
	}
	if s, ok := p.strs[string(v)]; ok {
		return s
	}
	if p.strs == nil {
		p.strs = map[string]string{}
	}
	s := string(v)
	p.strs[s] = s
	return s
}

// attrElem reads an <attr key=… value=…> element.
func (p *xmlParser) attrElem() model.Attr {
	k, _ := p.attrString("key")
	v, _ := p.attrString("value")
	return model.Attr{Key: k, Value: v}
}

// grow doubles a full slice's capacity: the entity slices of a large
// document grow to tens of thousands of elements, and append's smaller
// steps for large slices would copy them several times over.
func grow[S ~[]E, E any](s S) S {
	if len(s) < cap(s) || len(s) < 256 {
		return s
	}
	return slices.Grow(s, len(s))
}

// firstText records the text of the first child element of a kind.
type firstText struct {
	text string
	ok   bool
}

func (p *xmlParser) keepFirst(f *firstText) error {
	if f.ok {
		return nil
	}
	t, err := p.text()
	f.text, f.ok = t, err == nil
	return err
}

func (p *xmlParser) metric(parent int) error {
	b := p.b
	id, err := p.idAttr("id")
	if err != nil {
		return err
	}
	if _, dup := b.metricByID[id]; dup {
		return fmt.Errorf("metric id %d is declared twice", id)
	}
	m := model.Metric{ID: id, Parent: parent, Type: model.Exclusive}
	if !b.v2 {
		t, _ := p.attrString("type")
		m.Type = metricType(t)
		m.VizType, _ = p.attrString("viztype")
		for _, k := range []string{"convertible", "cacheable"} {
			if v, ok := p.attrString(k); ok {
				m.Attrs = append(m.Attrs, model.Attr{Key: metricXMLAttr + k, Value: v})
			}
		}
	}
	idx := len(b.e.Metrics)
	b.e.Metrics = append(b.e.Metrics, m)
	b.metricByID[id] = idx
	hasDtype := false
	var name string
	err = p.children(func() error {
		s := p.s
		field := func(dst *string) (err error) {
			*dst, err = p.text()
			return err
		}
		met := func() *model.Metric { return &b.e.Metrics[idx] }
		switch string(s.name) {
		case "disp_name":
			return field(&met().DispName)
		case "uniq_name":
			return field(&met().UniqName)
		case "name":
			return field(&name)
		case "dtype":
			hasDtype = true
			t, err := p.text()
			met().DataType = model.DataType(t)
			return err
		case "uom":
			return field(&met().Unit)
		case "val":
			return field(&met().Val)
		case "url":
			return field(&met().URL)
		case "descr":
			return field(&met().Descr)
		case "cubepl":
			var attrs []model.Attr
			for _, a := range s.attrs {
				attrs = append(attrs, model.Attr{Key: cubeplXMLAttr + string(a.key), Value: string(a.val)})
			}
			t, err := p.text()
			met().Expression = t
			met().Attrs = append(met().Attrs, attrs...)
			return err
		case "cubeplinit":
			return field(&met().InitExpression)
		case "cubeplaggr":
			kind, _ := p.attrString("cubeplaggrtype")
			t, err := p.text()
			met().AggrExpressions = append(met().AggrExpressions, model.Attr{Key: kind, Value: t})
			return err
		case "attr":
			met().Attrs = append(met().Attrs, p.attrElem())
		case "metric":
			return p.metric(idx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	mp := &b.e.Metrics[idx]
	if b.v2 {
		mp.DispName = name
		mp.UniqName = strconv.Itoa(id) + name
		if !hasDtype || mp.DataType == "" {
			mp.DataType = "INTEGER"
			if mp.Unit == "sec" {
				mp.DataType = "FLOAT"
			}
		}
	}
	mp.Aggregation = model.AggregationOf(mp.DataType)
	return nil
}

// programChild reads one child of <program>.
func (p *xmlParser) programChild() error {
	switch string(p.s.name) {
	case "module":
		return p.module()
	case "region":
		return p.region()
	case "csite":
		return p.csite()
	case "cnode":
		return p.cnode(-1)
	}
	return nil
}

func (p *xmlParser) module() error {
	b := p.b
	id, err := p.idAttr("id")
	if err != nil {
		return err
	}
	if _, dup := b.modules[id]; dup {
		return fmt.Errorf("module id %d is declared twice", id)
	}
	var name firstText
	err = p.children(func() error {
		if string(p.s.name) == "name" {
			return p.keepFirst(&name)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if name.text == "UNKNOWN" {
		name.text = ""
	}
	b.modules[id] = name.text
	return nil
}

// moduleName resolves a CUBE 2 module reference; an absent one is "".
func (b *builder) moduleName(mod firstText, what string) (string, error) {
	if !mod.ok {
		return "", nil
	}
	id, err := parseInt(mod.text, "module id")
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

// childInt parses the text of a CUBE 2 child element, dflt when absent.
func childInt(f firstText, tag string, dflt int, what string) (int, error) {
	if !f.ok {
		return dflt, nil
	}
	return parseInt(f.text, what+": <"+tag+">")
}

func (p *xmlParser) region() error {
	b := p.b
	id, err := p.idAttr("id")
	if err != nil {
		return err
	}
	if _, dup := b.regionByID[id]; dup {
		return fmt.Errorf("region id %d is declared twice", id)
	}
	w := what{prefix: "region id ", id: id}
	r := model.Region{ID: id, Begin: -1, End: -1}
	if !b.v2 {
		r.Module = p.internAttr("mod")
		if r.Begin, err = p.optIntAttr("begin", -1, w); err != nil {
			return err
		}
		if r.End, err = p.optIntAttr("end", -1, w); err != nil {
			return err
		}
	}
	var mod, begin, end firstText
	err = p.children(func() error {
		switch string(p.s.name) {
		case "name":
			return p.field(&r.Name)
		case "mangled_name":
			return p.field(&r.MangledName)
		case "paradigm":
			return p.field(&r.Paradigm)
		case "role":
			return p.field(&r.Role)
		case "url":
			return p.field(&r.URL)
		case "descr":
			return p.field(&r.Descr)
		case "attr":
			r.Attrs = append(r.Attrs, p.attrElem())
		case "mod":
			return p.keepFirst(&mod)
		case "begin":
			return p.keepFirst(&begin)
		case "end":
			return p.keepFirst(&end)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if b.v2 {
		what := w.String()
		if r.Module, err = b.moduleName(mod, what); err != nil {
			return err
		}
		if r.Begin, err = childInt(begin, "begin", -1, what); err != nil {
			return err
		}
		if r.End, err = childInt(end, "end", -1, what); err != nil {
			return err
		}
	}
	b.regionByID[id] = len(b.e.Regions)
	b.e.Regions = append(grow(b.e.Regions), r)
	return nil
}

// internField reads the text of the current element into dst as an
// interned string.
func (p *xmlParser) internField(dst *string) error {
	if err := p.readText(); err != nil {
		return err
	}
	*dst = p.intern(p.tbuf)
	return nil
}

// field reads the text of the current element into dst.
func (p *xmlParser) field(dst *string) (err error) {
	*dst, err = p.text()
	return err
}

func (p *xmlParser) csite() error {
	b := p.b
	id, err := p.idAttr("id")
	if err != nil {
		return err
	}
	if _, dup := b.csites[id]; dup {
		return fmt.Errorf("csite id %d is declared twice", id)
	}
	what := fmt.Sprintf("csite id %d", id)
	var line, mod, callee firstText
	err = p.children(func() error {
		switch string(p.s.name) {
		case "line":
			return p.keepFirst(&line)
		case "mod":
			return p.keepFirst(&mod)
		case "callee":
			return p.keepFirst(&callee)
		}
		return nil
	})
	if err != nil {
		return err
	}
	cs := csite{}
	if cs.line, err = childInt(line, "line", -1, what); err != nil {
		return err
	}
	if cs.module, err = b.moduleName(mod, what); err != nil {
		return err
	}
	ce, err := childInt(callee, "callee", -1, what)
	if err != nil {
		return err
	}
	r, ok := b.regionByID[ce]
	if !ok {
		return fmt.Errorf("%s: unknown callee region id %d", what, ce)
	}
	cs.callee = r
	b.csites[id] = cs
	return nil
}

func (p *xmlParser) cnode(parent int) error {
	b := p.b
	id, err := p.idAttr("id")
	if err != nil {
		return err
	}
	w := what{prefix: "cnode id ", id: id}
	c := model.Cnode{ID: id, Parent: parent, Region: -1, CallLine: -1}
	ref := 0
	if b.v2 {
		if ref, err = p.requiredIntAttr("csiteId", w); err != nil {
			return err
		}
	} else {
		if ref, err = p.requiredIntAttr("calleeId", w); err != nil {
			return err
		}
		c.CallFile = p.internAttr("mod")
		if c.CallLine, err = p.optIntAttr("line", -1, w); err != nil {
			return err
		}
	}
	idx := len(b.e.Cnodes)
	b.e.Cnodes = append(grow(b.e.Cnodes), c)
	p.refs = append(p.refs, ref)
	return p.children(func() error {
		switch string(p.s.name) {
		case "parameter":
			var pr model.Param
			pr.Type, _ = p.attrString("partype")
			pr.Key, _ = p.attrString("parkey")
			pr.Value, _ = p.attrString("parvalue")
			b.e.Cnodes[idx].Params = append(b.e.Cnodes[idx].Params, pr)
		case "attr":
			b.e.Cnodes[idx].Attrs = append(b.e.Cnodes[idx].Attrs, p.attrElem())
		case "cnode":
			return p.cnode(idx)
		}
		return nil
	})
}

// resolveCnodes indexes the cnodes by id, checking that no id repeats,
// and gives every cnode its region (and, in CUBE 2, its call site's file
// and line) once the whole <program> section is read.
func (p *xmlParser) resolveCnodes() error {
	b := p.b
	b.cnodeByID = make(map[int]int, len(b.e.Cnodes))
	for i := range b.e.Cnodes {
		id := b.e.Cnodes[i].ID
		if _, dup := b.cnodeByID[id]; dup {
			return fmt.Errorf("cnode id %d is declared twice", id)
		}
		b.cnodeByID[id] = i
	}
	for i, ref := range p.refs {
		c := &b.e.Cnodes[i]
		if b.v2 {
			cs, ok := b.csites[ref]
			if !ok {
				return fmt.Errorf("cnode id %d: unknown csiteId %d", c.ID, ref)
			}
			c.Region, c.CallFile, c.CallLine = cs.callee, cs.module, cs.line
			continue
		}
		r, ok := b.regionByID[ref]
		if !ok {
			return fmt.Errorf("cnode id %d: unknown calleeId %d (no region with that id)", c.ID, ref)
		}
		c.Region = r
	}
	p.refs = p.refs[:0]
	return nil
}

// systemChild reads one child of <system> (<locations> in CUBE 2).
func (p *xmlParser) systemChild() error {
	name := string(p.s.name)
	if name == "topologies" {
		return p.children(func() error {
			if string(p.s.name) == "cart" {
				return p.rawCart()
			}
			return nil
		})
	}
	if _, ok := sysTags[name]; ok {
		return p.sysNode(-1)
	}
	return nil
}

func (p *xmlParser) sysNode(parent int) error {
	b := p.b
	tagName := string(p.s.name)
	tag := sysTags[tagName]
	var id int
	var err error
	if b.v2 {
		id, err = p.requiredIntAttr("locid", what{prefix: "<" + tagName + ">", noID: true})
	} else {
		id, err = p.idAttr("Id")
	}
	if err != nil {
		return err
	}
	w := what{prefix: tagName + " Id ", id: id}
	if b.v2 {
		if _, dup := b.locids[id]; dup {
			return fmt.Errorf("locid %d is declared twice", id)
		}
	} else if _, dup := b.sysByID[tag.space][id]; dup {
		return fmt.Errorf("%s is declared twice", w)
	}
	idx := len(b.e.System)
	b.e.System = append(grow(b.e.System), model.SystemNode{ID: id, Kind: tag.kind, Class: tag.class, Parent: parent, Location: -1})
	b.fileID = append(b.fileID, id)
	b.sysByID[tag.space][id] = idx
	if b.v2 {
		b.locids[id] = idx
	}
	if tag.kind == model.Leaf {
		b.leaves = append(b.leaves, idx)
	}
	hasName := false
	err = p.children(func() error {
		n := &b.e.System[idx]
		switch ch := string(p.s.name); ch {
		case "name":
			hasName = true
			return p.internField(&n.Name)
		case "descr":
			return p.field(&n.Descr)
		case "class", "type":
			if tag.class == "" {
				return p.internField(&n.Class)
			}
		case "rank":
			t, err := p.text()
			if err != nil {
				return err
			}
			if n.Rank, err = parseInt(t, w.String()+": rank"); err != nil {
				return err
			}
		case "attr":
			n.Attrs = append(n.Attrs, p.attrElem())
		default:
			if _, ok := sysTags[ch]; ok {
				if tag.kind == model.Leaf {
					return fmt.Errorf("%s contains <%s>, but locations cannot have children", w, ch)
				}
				return p.sysNode(idx)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	n := &b.e.System[idx]
	if (tagName == "process" || tagName == "thread") && (!hasName || n.Name == "") {
		// CUBE 2/3 name unnamed processes and threads after their rank.
		n.Name = fmt.Sprintf("Process %d", n.Rank)
		if tagName == "thread" {
			n.Name = fmt.Sprintf("Thread %d", n.Rank)
		}
	}
	return nil
}

// rawElem keeps the attributes and text of a small element (a topology's
// <dim> or <coord>) until the system tree it refers to is complete.
type rawElem struct {
	attrs []model.Attr
	text  string
}

func (r *rawElem) attr(key string) (string, bool) {
	for _, a := range r.attrs {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

type rawCart struct {
	rawElem
	dims, coords []rawElem
}

func (p *xmlParser) currentAttrs() []model.Attr {
	out := make([]model.Attr, len(p.s.attrs))
	for i, a := range p.s.attrs {
		out[i] = model.Attr{Key: string(a.key), Value: string(a.val)}
	}
	return out
}

func (p *xmlParser) rawCart() error {
	c := rawCart{rawElem: rawElem{attrs: p.currentAttrs()}}
	err := p.children(func() error {
		switch string(p.s.name) {
		case "dim":
			c.dims = append(c.dims, rawElem{attrs: p.currentAttrs()})
		case "coord":
			r := rawElem{attrs: p.currentAttrs()}
			t, err := p.text()
			r.text = t
			c.coords = append(c.coords, r)
			return err
		}
		return nil
	})
	p.carts = append(p.carts, c)
	return err
}

func rawRequiredInt(r *rawElem, key, what string) (int, error) {
	v, ok := r.attr(key)
	if !ok {
		return 0, fmt.Errorf("%s: missing attribute %s", what, key)
	}
	return parseInt(v, what+": "+key)
}

func (b *builder) cart(el *rawCart) error {
	name, _ := el.attr("name")
	t := model.Cart{Name: name}
	what := fmt.Sprintf("topology %s", importer.Quote(t.Name))
	for i := range el.dims {
		d := &el.dims[i]
		size, err := rawRequiredInt(d, "size", what+": <dim>")
		if err != nil {
			return err
		}
		if size <= 0 {
			return fmt.Errorf("%s: dimension size %d is not positive", what, size)
		}
		dn, _ := d.attr("name")
		per, _ := d.attr("periodic")
		t.Dims = append(t.Dims, model.CartDim{
			Name:     dn,
			Size:     size,
			Periodic: strings.EqualFold(strings.TrimSpace(per), "true"),
		})
	}
	if nd, ok := el.attr("ndims"); ok {
		n, err := parseInt(nd, what+": ndims")
		if err != nil {
			return err
		}
		if n != len(t.Dims) {
			return fmt.Errorf("%s: ndims=%d but %d <dim> elements", what, n, len(t.Dims))
		}
	}
	for i := range el.coords {
		c := &el.coords[i]
		node, err := b.coordNode(c, what)
		if err != nil {
			return err
		}
		fields := strings.Fields(c.text)
		if len(fields) != len(t.Dims) {
			return fmt.Errorf("%s: coordinate %s has %d values for %d dimensions", what, clip(c.text), len(fields), len(t.Dims))
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

func (b *builder) coordNode(c *rawElem, what string) (int, error) {
	if b.v2 {
		id, err := rawRequiredInt(c, "locid", what+": <coord>")
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
		v, ok := c.attr(ct.attr)
		if !ok {
			continue
		}
		id, err := parseInt(v, what+": "+ct.attr)
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
