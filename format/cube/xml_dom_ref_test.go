package cube

// The element-tree reader that the streaming scanner replaced, kept as a
// reference for differential tests: every document it reads must read the
// same through the scanner.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beevik/etree"

	"cubeview/model"
)

// domDecodeXML parses a CUBE XML document: CUBE 2.0, CUBE 3.0 (a whole .cube
// file, with severity) or a CUBE 4 anchor.xml (versions 4.x, or 3.0 inside
// a .cubex). The input may be gzip-compressed. name is the file (or
// "file.cubex:anchor.xml") for error messages.
func domDecodeXML(r io.Reader, name string) (*xmlDoc, error) {
	doc, err := domReadXMLDoc(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	doc.Exp.Source = name
	return doc, nil
}

func domReadXMLDoc(r io.Reader) (*xmlDoc, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err == nil || err == io.EOF {
			return nil, errors.New("empty file")
		}
		return nil, err
	}
	var src io.Reader = br
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		src = zr
	}
	p := &domParser{}
	p.dec = xml.NewDecoder(&domBareAttrQuoter{r: &domBareAmpEscaper{r: src}})
	p.dec.Strict = true
	p.dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return p.domParse()
}

// domParser turns the token stream into an etree for the metadata and
// streams the severity section straight into data blocks.
type domParser struct {
	dec   *xml.Decoder
	stack []string // names of the open elements
	b     *builder
}

func (p *domParser) domToken() (xml.Token, error) {
	t, err := p.dec.RawToken()
	if err == io.EOF {
		if len(p.stack) > 0 {
			return nil, fmt.Errorf("unexpected end of file inside <%s> (truncated XML?)", p.stack[len(p.stack)-1])
		}
		return nil, io.EOF
	}
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			if strings.Contains(se.Msg, "unexpected EOF") {
				return nil, fmt.Errorf("unexpected end of file on line %d (truncated XML?)", se.Line)
			}
			return nil, fmt.Errorf("malformed XML: %w", err)
		}
		return nil, fmt.Errorf("reading: %w", err)
	}
	switch t := t.(type) {
	case xml.StartElement:
		if len(p.stack) >= maxXMLDepth {
			return nil, fmt.Errorf("line %d: elements nested deeper than %d", p.domLine(), maxXMLDepth)
		}
		p.stack = append(p.stack, t.Name.Local)
	case xml.EndElement:
		if len(p.stack) == 0 || p.stack[len(p.stack)-1] != t.Name.Local {
			if len(p.stack) == 0 {
				return nil, fmt.Errorf("malformed XML: line %d: unexpected </%s>", p.domLine(), t.Name.Local)
			}
			return nil, fmt.Errorf("malformed XML: line %d: </%s> closes <%s>", p.domLine(), t.Name.Local, p.stack[len(p.stack)-1])
		}
		p.stack = p.stack[:len(p.stack)-1]
	}
	return t, nil
}

func (p *domParser) domLine() int {
	l, _ := p.dec.InputPos()
	return l
}

func (p *domParser) domParse() (*xmlDoc, error) {
	// Prolog: everything up to the root element.
	var root xml.StartElement
	for {
		t, err := p.domToken()
		if err == io.EOF {
			return nil, errors.New("not a CUBE document: no root element")
		}
		if err != nil {
			return nil, fmt.Errorf("not a CUBE XML document: %w", err)
		}
		if se, ok := t.(xml.StartElement); ok {
			root = se
			break
		}
		if cd, ok := t.(xml.CharData); ok && len(strings.TrimSpace(string(cd))) > 0 {
			return nil, errors.New("not a CUBE XML document: text before the root element")
		}
	}
	if root.Name.Local != "cube" {
		return nil, fmt.Errorf("not a CUBE document: root element is <%s>, want <cube>", root.Name.Local)
	}
	version := strings.TrimSpace(domAttrOf(root, "version"))
	if !supportedVersion(version) {
		return nil, fmt.Errorf("unsupported CUBE version %q (want 2.0, 3.0 or 4.x)", version)
	}
	p.b = newBuilder(version)
	rootEl := etree.NewElement("cube")
	cur := rootEl
	built := false
	for {
		t, err := p.domToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			if cur == nil { // after the severity section: only check well-formedness
				continue
			}
			if cur == rootEl && t.Name.Local == "severity" {
				if err := p.b.domBuild(rootEl); err != nil {
					return nil, err
				}
				built = true
				if err := p.domSeverity(); err != nil {
					return nil, err
				}
				cur = nil
				continue
			}
			el := cur.CreateElement(t.Name.Local)
			for _, a := range t.Attr {
				if a.Name.Space == "" {
					el.CreateAttr(a.Name.Local, a.Value)
				}
			}
			cur = el
		case xml.EndElement:
			if cur != nil {
				cur = cur.Parent()
			}
		case xml.CharData:
			if cur != nil && cur != rootEl {
				cur.CreateText(string(t))
			} else if len(strings.TrimSpace(string(t))) > 0 {
				return nil, fmt.Errorf("line %d: unexpected text %q", p.domLine(), clip(string(t)))
			}
		}
	}
	if !built {
		if err := p.b.domBuild(rootEl); err != nil {
			return nil, err
		}
	}
	return p.b.finish()
}

func domAttrOf(se xml.StartElement, key string) string {
	for _, a := range se.Attr {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}

// domBareAttrQuoter quotes the bare attribute values CubeLib writes in
// <cubepl rowwise=false> and <cubeplaggr cubeplaggrtype=plus> (CubeLib's
// own scanner accepts nothing else), which are not well-formed XML.
type domBareAttrQuoter struct {
	r       io.Reader
	buf     []byte // input not yet passed on
	pending []byte // output not yet returned
	out     []byte
	err     error
}

var domBareAttrKeys = [][]byte{[]byte("rowwise="), []byte("cubeplaggrtype="), []byte("locationwise=")}

const (
	domBareValueMax = 16 // longest bare value quoted
	domBareHold     = 64 // input held back so a key and its value are seen whole
)

func (q *domBareAttrQuoter) Read(p []byte) (int, error) {
	for len(q.pending) == 0 {
		if q.err != nil && len(q.buf) == 0 {
			return 0, q.err
		}
		if q.err == nil {
			if cap(q.buf)-len(q.buf) < 32<<10 {
				nb := make([]byte, len(q.buf), len(q.buf)+64<<10)
				copy(nb, q.buf)
				q.buf = nb
			}
			n, err := q.r.Read(q.buf[len(q.buf):cap(q.buf)])
			q.buf = q.buf[:len(q.buf)+n]
			q.err = err
		}
		safe := len(q.buf)
		if q.err == nil {
			safe -= domBareHold
		}
		if safe <= 0 {
			continue
		}
		used := q.quote(safe)
		q.pending = q.out
		q.buf = q.buf[:copy(q.buf, q.buf[used:])]
	}
	n := copy(p, q.pending)
	q.pending = q.pending[n:]
	return n, nil
}

// quote copies buf up to at least safe into out, quoting bare values of
// keys that start before safe, and returns how much of buf it consumed.
func (q *domBareAttrQuoter) quote(safe int) int {
	q.out = q.out[:0]
	i := 0
	for {
		at, key := -1, 0
		for _, k := range domBareAttrKeys {
			if j := domIndexBefore(q.buf[i:], k, safe-i); j >= 0 && (at < 0 || j < at) {
				at, key = j, len(k)
			}
		}
		if at < 0 {
			q.out = append(q.out, q.buf[i:safe]...)
			return safe
		}
		v := i + at + key // start of the value
		e := v
		for e < len(q.buf) && e-v <= domBareValueMax && domIsLetter(q.buf[e]) {
			e++
		}
		if e > v && e-v <= domBareValueMax && (e < len(q.buf) || q.err != nil) {
			q.out = append(q.out, q.buf[i:v]...)
			q.out = append(q.out, '"')
			q.out = append(q.out, q.buf[v:e]...)
			q.out = append(q.out, '"')
		} else {
			q.out = append(q.out, q.buf[i:e]...)
		}
		i = e
		if i >= safe {
			return i
		}
	}
}

// domIndexBefore returns the index of k in b if it starts before limit, else -1.
func domIndexBefore(b, k []byte, limit int) int {
	if limit <= 0 {
		return -1
	}
	j := bytes.Index(b, k)
	if j >= limit {
		return -1
	}
	return j
}

// build reads all metadata below root and completes the experiment's
// structure: links, location columns, metric availability.
func (b *builder) domBuild(root *etree.Element) error {
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
					b.e.Mirrors = append(b.e.Mirrors, domTextOf(mu))
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
			if err := b.domMetric(el, -1); err != nil {
				return err
			}
		}
	}
	if err := b.domProgram(program); err != nil {
		return err
	}
	if err := b.domSystem(system); err != nil {
		return err
	}
	b.e.Attrs = append(b.e.Attrs, b.titles...)
	return b.complete()
}

func (b *builder) domMetric(el *etree.Element, parent int) error {
	id, err := domIdAttr(el, "id")
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
			m.DispName = domTextOf(ch)
		case "uniq_name":
			m.UniqName = domTextOf(ch)
		case "name":
			name = domTextOf(ch)
		case "dtype":
			m.DataType, hasDtype = model.DataType(domTextOf(ch)), true
		case "uom":
			m.Unit = domTextOf(ch)
		case "val":
			m.Val = domTextOf(ch)
		case "url":
			m.URL = domTextOf(ch)
		case "descr":
			m.Descr = domTextOf(ch)
		case "cubepl":
			m.Expression = domTextOf(ch)
			for _, a := range ch.Attr {
				m.Attrs = append(m.Attrs, model.Attr{Key: cubeplXMLAttr + a.Key, Value: a.Value})
			}
		case "cubeplinit":
			m.InitExpression = domTextOf(ch)
		case "cubeplaggr":
			m.AggrExpressions = append(m.AggrExpressions, model.Attr{Key: ch.SelectAttrValue("cubeplaggrtype", ""), Value: domTextOf(ch)})
		case "attr":
			m.Attrs = append(m.Attrs, domAttrElem(ch))
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
		if err := b.domMetric(ch, idx); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) domProgram(sec *etree.Element) error {
	var cnodes []*etree.Element
	for _, el := range sec.ChildElements() {
		var err error
		switch el.Tag {
		case "module":
			err = b.domModule(el)
		case "region":
			err = b.domRegion(el)
		case "csite":
			err = b.domCsite(el)
		case "cnode":
			cnodes = append(cnodes, el)
		}
		if err != nil {
			return err
		}
	}
	for _, el := range cnodes {
		if err := b.domCnode(el, -1); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) domModule(el *etree.Element) error {
	id, err := domIdAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.modules[id]; dup {
		return fmt.Errorf("module id %d is declared twice", id)
	}
	name := domChildText(el, "name")
	if name == "UNKNOWN" {
		name = ""
	}
	b.modules[id] = name
	return nil
}

// moduleName resolves a CUBE 2 module reference; an absent one is "".
func (b *builder) domModuleName(el *etree.Element, what string) (string, error) {
	mod := el.SelectElement("mod")
	if mod == nil {
		return "", nil
	}
	id, err := parseInt(domTextOf(mod), "module id")
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

func (b *builder) domRegion(el *etree.Element) error {
	id, err := domIdAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.regionByID[id]; dup {
		return fmt.Errorf("region id %d is declared twice", id)
	}
	what := fmt.Sprintf("region id %d", id)
	r := model.Region{ID: id, Begin: -1, End: -1}
	if b.v2 {
		if r.Module, err = b.domModuleName(el, what); err != nil {
			return err
		}
		if r.Begin, err = domChildInt(el, "begin", -1, what); err != nil {
			return err
		}
		if r.End, err = domChildInt(el, "end", -1, what); err != nil {
			return err
		}
	} else {
		r.Module = el.SelectAttrValue("mod", "")
		if r.Begin, err = domOptIntAttr(el, "begin", -1, what); err != nil {
			return err
		}
		if r.End, err = domOptIntAttr(el, "end", -1, what); err != nil {
			return err
		}
	}
	for _, ch := range el.ChildElements() {
		switch ch.Tag {
		case "name":
			r.Name = domTextOf(ch)
		case "mangled_name":
			r.MangledName = domTextOf(ch)
		case "paradigm":
			r.Paradigm = domTextOf(ch)
		case "role":
			r.Role = domTextOf(ch)
		case "url":
			r.URL = domTextOf(ch)
		case "descr":
			r.Descr = domTextOf(ch)
		case "attr":
			r.Attrs = append(r.Attrs, domAttrElem(ch))
		}
	}
	b.regionByID[id] = len(b.e.Regions)
	b.e.Regions = append(b.e.Regions, r)
	return nil
}

func (b *builder) domCsite(el *etree.Element) error {
	id, err := domIdAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.csites[id]; dup {
		return fmt.Errorf("csite id %d is declared twice", id)
	}
	what := fmt.Sprintf("csite id %d", id)
	cs := csite{}
	if cs.line, err = domChildInt(el, "line", -1, what); err != nil {
		return err
	}
	if cs.module, err = b.domModuleName(el, what); err != nil {
		return err
	}
	callee, err := domChildInt(el, "callee", -1, what)
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

func (b *builder) domCnode(el *etree.Element, parent int) error {
	id, err := domIdAttr(el, "id")
	if err != nil {
		return err
	}
	if _, dup := b.cnodeByID[id]; dup {
		return fmt.Errorf("cnode id %d is declared twice", id)
	}
	what := fmt.Sprintf("cnode id %d", id)
	c := model.Cnode{ID: id, Parent: parent, CallLine: -1}
	if b.v2 {
		sid, err := domRequiredIntAttr(el, "csiteId", what)
		if err != nil {
			return err
		}
		cs, ok := b.csites[sid]
		if !ok {
			return fmt.Errorf("%s: unknown csiteId %d", what, sid)
		}
		c.Region, c.CallFile, c.CallLine = cs.callee, cs.module, cs.line
	} else {
		callee, err := domRequiredIntAttr(el, "calleeId", what)
		if err != nil {
			return err
		}
		r, ok := b.regionByID[callee]
		if !ok {
			return fmt.Errorf("%s: unknown calleeId %d (no region with that id)", what, callee)
		}
		c.Region = r
		c.CallFile = el.SelectAttrValue("mod", "")
		if c.CallLine, err = domOptIntAttr(el, "line", -1, what); err != nil {
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
			c.Attrs = append(c.Attrs, domAttrElem(ch))
		case "cnode":
			children = append(children, ch)
		}
	}
	idx := len(b.e.Cnodes)
	b.cnodeByID[id] = idx
	b.e.Cnodes = append(b.e.Cnodes, c)
	for _, ch := range children {
		if err := b.domCnode(ch, idx); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) domSystem(sec *etree.Element) error {
	var topologies []*etree.Element
	for _, el := range sec.ChildElements() {
		if el.Tag == "topologies" {
			topologies = append(topologies, el)
			continue
		}
		if _, ok := sysTags[el.Tag]; ok {
			if err := b.domSysNode(el, -1); err != nil {
				return err
			}
		}
	}
	b.renumberTreeNodes()
	for _, t := range topologies {
		for _, cart := range t.SelectElements("cart") {
			if err := b.domCart(cart); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *builder) domSysNode(el *etree.Element, parent int) error {
	tag := sysTags[el.Tag]
	var id int
	var err error
	if b.v2 {
		id, err = domRequiredIntAttr(el, "locid", "<"+el.Tag+">")
	} else {
		id, err = domIdAttr(el, "Id")
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
			n.Name, hasName = domTextOf(ch), true
		case "descr":
			n.Descr = domTextOf(ch)
		case "class", "type":
			if tag.class == "" {
				n.Class = domTextOf(ch)
			}
		case "rank":
			if n.Rank, err = parseInt(domTextOf(ch), what+": rank"); err != nil {
				return err
			}
		case "attr":
			n.Attrs = append(n.Attrs, domAttrElem(ch))
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
		if err := b.domSysNode(ch, idx); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) domCart(el *etree.Element) error {
	t := model.Cart{Name: el.SelectAttrValue("name", "")}
	what := fmt.Sprintf("topology %q", t.Name)
	for _, d := range el.SelectElements("dim") {
		size, err := domRequiredIntAttr(d, "size", what+": <dim>")
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
		node, err := b.domCoordNode(c, what)
		if err != nil {
			return err
		}
		fields := strings.Fields(domTextOf(c))
		if len(fields) != len(t.Dims) {
			return fmt.Errorf("%s: coordinate %q has %d values for %d dimensions", what, clip(domTextOf(c)), len(fields), len(t.Dims))
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

func (b *builder) domCoordNode(c *etree.Element, what string) (int, error) {
	if b.v2 {
		id, err := domRequiredIntAttr(c, "locid", what+": <coord>")
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

// domTextOf returns all character data directly inside el.
func domTextOf(el *etree.Element) string {
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

func domChildText(el *etree.Element, tag string) string {
	if ch := el.SelectElement(tag); ch != nil {
		return domTextOf(ch)
	}
	return ""
}

func domAttrElem(el *etree.Element) model.Attr {
	return model.Attr{Key: el.SelectAttrValue("key", ""), Value: el.SelectAttrValue("value", "")}
}

// domIdAttr reads the non-negative id of el from attribute key or its other
// capitalisation (CUBE accepts both id and Id).
func domIdAttr(el *etree.Element, key string) (int, error) {
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

func domRequiredIntAttr(el *etree.Element, key, what string) (int, error) {
	a := el.SelectAttr(key)
	if a == nil {
		return 0, fmt.Errorf("%s: missing attribute %s", what, key)
	}
	return parseInt(a.Value, what+": "+key)
}

func domOptIntAttr(el *etree.Element, key string, dflt int, what string) (int, error) {
	a := el.SelectAttr(key)
	if a == nil {
		return dflt, nil
	}
	return parseInt(a.Value, what+": "+key)
}

func domChildInt(el *etree.Element, tag string, dflt int, what string) (int, error) {
	ch := el.SelectElement(tag)
	if ch == nil {
		return dflt, nil
	}
	return parseInt(domTextOf(ch), what+": <"+tag+">")
}

// severity streams the <severity> section, whose start tag was just read,
// into one data block per metric. Rows are parsed in place from the
// decoder's character data; nothing of the section is kept as XML.
func (p *domParser) domSeverity() error {
	b := p.b
	e := b.e
	depth := len(p.stack) // the <severity> element is open at this depth
	if !b.hasSeverity() {
		// A CUBE 4 anchor keeps its data in the archive members.
		for len(p.stack) >= depth {
			if _, err := p.domToken(); err != nil {
				return err
			}
		}
		return nil
	}
	nl := len(e.Locations)
	// colOf[i] is the data column of the i-th value of a row: the thread
	// with Id i in CUBE 3, the i-th thread of the document in CUBE 2.
	colOf := make([]int, nl)
	if b.v2 {
		for i, s := range b.leaves {
			colOf[i] = e.System[s].Location
		}
	} else {
		for i := range colOf {
			colOf[i] = -1
		}
		for id, col := range b.locationColumn {
			if id >= 0 && id < nl {
				colOf[id] = col
			}
		}
	}
	b.blocks = make([]*model.Block, len(e.Metrics))
	acc := matrixAcc{nl: nl, rowAt: make([]int32, len(e.Cnodes))}
	metric, metricID := -1, 0 // current matrix; -1 outside or when skipped
	inMatrix, inRow := false, false
	cnode, cnodeID := -1, 0
	var text []byte
	for {
		t, err := p.domToken()
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "matrix" && !inMatrix && len(p.stack) == depth+1:
				inMatrix = true
				metric = -1
				s := domAttrOf(t, "metricId")
				if s == "" {
					return fmt.Errorf("line %d: <matrix> without metricId", p.domLine())
				}
				if metricID, err = parseInt(s, "<matrix> metricId"); err != nil {
					return fmt.Errorf("line %d: %w", p.domLine(), err)
				}
				if b.v2 && metricID < 0 {
					continue // CUBE 2 marks ignored matrices with a negative id
				}
				m, ok := b.metricByID[metricID]
				if !ok {
					return fmt.Errorf("line %d: severity matrix for unknown metric id %d", p.domLine(), metricID)
				}
				if !b.skip[m] { // VOID and other metrics without values: rows ignored
					metric = m
				}
			case t.Name.Local == "row" && inMatrix && !inRow && len(p.stack) == depth+2:
				inRow = true
				text = text[:0]
				if metric < 0 {
					continue
				}
				s := domAttrOf(t, "cnodeId")
				if s == "" {
					return fmt.Errorf("line %d: <row> without cnodeId", p.domLine())
				}
				if cnodeID, err = parseInt(s, "<row> cnodeId"); err != nil {
					return fmt.Errorf("line %d: %w", p.domLine(), err)
				}
				c, ok := b.cnodeByID[cnodeID]
				if !ok {
					return fmt.Errorf("line %d: severity row for unknown cnode id %d (metric id %d)", p.domLine(), cnodeID, metricID)
				}
				cnode = c
			default:
				return fmt.Errorf("line %d: unexpected <%s> in the severity section", p.domLine(), t.Name.Local)
			}
		case xml.CharData:
			if inRow {
				if metric >= 0 {
					text = append(text, t...)
				}
			} else if len(strings.TrimSpace(string(t))) > 0 {
				return fmt.Errorf("line %d: unexpected text %q in the severity section", p.domLine(), clip(string(t)))
			}
		case xml.EndElement:
			switch {
			case inRow:
				inRow = false
				if metric < 0 {
					continue
				}
				if _, err := acc.addRow(cnode, text, colOf); err != nil {
					return fmt.Errorf("line %d: metric id %d, cnode id %d: %w", p.domLine(), metricID, cnodeID, err)
				}
			case inMatrix:
				inMatrix = false
				if metric >= 0 {
					b.blocks[metric] = acc.flush(b.blocks[metric], len(e.Cnodes))
				}
			default: // </severity>
				return nil
			}
		}
	}
}

func domIsLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
