package cube

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// errSystemShape reports a system tree that CUBE 3 cannot express.
var errSystemShape = errors.New("the system tree does not fit CUBE 3's machine → node → process → thread hierarchy; write a .cubex file instead")

// encodeXML writes e as XML. With anchor=false it writes a complete CUBE
// 3.0 document with a <severity> section; with anchor=true a CUBE 4
// anchor.xml (version 4.4 syntax, no severity), in which every metric has
// type="EXCLUSIVE" — the canonical storage the .cubex writer puts into the
// archive — except derived metrics, which keep their Type and CubePL
// definitions.
//
// What the target cannot hold natively goes into cubeview:: attributes
// (see xml_extras.go). A CUBE 3 system tree must have the shape machine →
// node → process → thread; other shapes are an error suggesting .cubex.
func encodeXML(w io.Writer, e *model.Experiment, anchor bool) error {
	if err := model.FinishAttrs(e); err != nil {
		return err
	}
	x := &xmlWriter{w: bufio.NewWriterSize(w, 64<<10), e: e, anchor: anchor}
	if err := x.document(); err != nil {
		return err
	}
	return x.w.Flush()
}

type xmlWriter struct {
	w      *bufio.Writer
	e      *model.Experiment
	anchor bool
	num    []byte // scratch for numbers

	// locID is the Id written for the location of each data column.
	locID []int
}

func (x *xmlWriter) document() error {
	e := x.e
	if !x.anchor {
		if err := x.checkCube3System(); err != nil {
			return err
		}
	}
	x.assignLocationIDs()
	version := "3.0"
	if x.anchor {
		version = "4.4"
	}
	x.s("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"" + version + "\">\n")
	titles := map[string]string{}
	attrs := e.Attrs
	if x.anchor {
		attrs = splitTitles(e.Attrs, titles)
	}
	for _, a := range attrs {
		if _, _, ok := parseExtraKey(a.Key); !ok && a.Key != callGraphKey { // stale ones are regenerated
			x.attr(1, a)
		}
	}
	for _, a := range x.extras() {
		x.attr(1, a)
	}
	if a, ok := callGraphAttr(e); ok {
		x.attr(1, a)
	}
	x.s("  <doc>\n    <mirrors>\n")
	for _, m := range e.Mirrors {
		x.s("      <murl>")
		x.text(m)
		x.s("</murl>\n")
	}
	x.s("    </mirrors>\n  </doc>\n")

	x.section("metrics", titles)
	for _, m := range e.MetricRoots {
		x.metric(m, 2)
	}
	x.s("  </metrics>\n")

	x.section("program", titles)
	for i := range e.Regions {
		x.region(&e.Regions[i])
	}
	for _, c := range e.CnodeRoots {
		x.cnode(c, 2)
	}
	x.s("  </program>\n")

	x.section("system", titles)
	for _, s := range e.SystemRoots {
		x.system(s, 2, 0)
	}
	x.topologies()
	x.s("  </system>\n")
	if !x.anchor {
		if err := x.severity(); err != nil {
			return err
		}
	}
	x.s("</cube>\n")
	return nil
}

var titleKeys = []string{titleKeyPrefix + "metrics title", titleKeyPrefix + "program title", titleKeyPrefix + "system title"}

// splitTitles moves the dimension titles at the end of attrs into titles
// and returns the other attributes. Reading puts titles at the end in
// dimension order; titles anywhere else stay plain attributes so that
// reading restores the order.
func splitTitles(attrs []model.Attr, titles map[string]string) []model.Attr {
	end, next := len(attrs), len(titleKeys)
	for end > 0 {
		k := slices.Index(titleKeys, attrs[end-1].Key)
		if k < 0 || k >= next {
			break
		}
		end, next = end-1, k
	}
	for _, a := range attrs[:end] {
		if slices.Contains(titleKeys, a.Key) {
			return attrs
		}
	}
	for _, a := range attrs[end:] {
		titles[a.Key] = a.Value
	}
	return attrs[:end]
}

// section opens a dimension element; in an anchor with its title.
func (x *xmlWriter) section(name string, titles map[string]string) {
	x.s("  <" + name)
	if t, ok := titles[titleKeyPrefix+name+" title"]; ok {
		x.strAttr("title", t)
	}
	x.s(">\n")
}

// checkCube3System verifies the machine → node → process → thread shape.
func (x *xmlWriter) checkCube3System() error {
	e := x.e
	want := []model.SystemKind{model.TreeNode, model.TreeNode, model.Group, model.Leaf}
	var walk func(s, level int) error
	walk = func(s, level int) error {
		n := &e.System[s]
		if level >= len(want) || n.Kind != want[level] {
			return fmt.Errorf("%w (%s id %d %s at level %d)", errSystemShape, n.Kind, n.ID, importer.Quote(n.Name), level+1)
		}
		for _, c := range n.Children {
			if err := walk(c, level+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range e.SystemRoots {
		if err := walk(r, 0); err != nil {
			return err
		}
	}
	return nil
}

// assignLocationIDs decides the location Ids of the file: the locations'
// IDs when they are exactly 0…n−1, else each location's rank among the
// IDs (the IDs then travel in cubeview:: attributes). CUBE 3 needs Ids
// 0…n−1 (value i of a row belongs to the thread with Id i), and so do the
// CUBE tools for a .cubex, where the writer puts the location with the
// j-th smallest ID at value position j.
func (x *xmlWriter) assignLocationIDs() {
	e := x.e
	n := len(e.Locations)
	x.locID = make([]int, n)
	seen := make([]bool, n)
	exact := true
	for col := range e.Locations {
		id := e.Location(col).ID
		if id < 0 || id >= n || seen[id] {
			exact = false
			break
		}
		seen[id] = true
		x.locID[col] = id
	}
	if exact {
		return
	}
	order := make([]int, n)
	for col := range order {
		order[col] = col
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(e.Location(a).ID, e.Location(b).ID) })
	for rank, col := range order {
		x.locID[col] = rank
	}
}

// fileSystemID returns the id written for system node s.
func (x *xmlWriter) fileSystemID(s int) int {
	n := &x.e.System[s]
	if n.Kind == model.Leaf {
		return x.locID[n.Location]
	}
	return n.ID
}

// cube3Classes are the CUBE 3 system classes by depth.
var cube3Classes = []string{"machine", "node", "process", "thread"}

// extras collects the cubeview:: attributes of all entities.
func (x *xmlWriter) extras() []model.Attr {
	e := x.e
	var out []model.Attr
	add := func(kind string, id int, v any) {
		if a, ok := extraAttr(kind, id, v); ok {
			out = append(out, a)
		}
	}
	for _, i := range e.MetricOrder() {
		m := &e.Metrics[i]
		var xm metricExtra
		written := *m
		if x.anchor {
			written.Type = anchorMetricType(m.Type)
		} else {
			if m.Type != "" && m.Type != "EXCLUSIVE" {
				xm.Type = m.Type
			}
			xm.VizType, xm.Expr, xm.Init, xm.Aggr, xm.Attrs = m.VizType, m.Expression, m.InitExpression, m.AggrExpressions, build.IdentityAttrs(m, identities)
			written.Type = metricType(string(xm.Type))
		}
		xm.Present, xm.Approximate = m.Present, m.Approximate
		if m.Unavailable != metricUnavailable(&written, x.voidAncestor(i)) {
			xm.Unavailable = &m.Unavailable
		}
		if m.Aggregation != model.AggregationOf(m.DataType) {
			xm.Aggregation = m.Aggregation.String()
		}
		add("metric", m.ID, xm)
	}
	if !x.anchor {
		for i := range e.Regions {
			r := &e.Regions[i]
			add("region", r.ID, regionExtra{Mangled: r.MangledName, Paradigm: r.Paradigm, Role: r.Role, Attrs: r.Attrs})
		}
	}
	for _, i := range e.CnodeOrder() {
		c := &e.Cnodes[i]
		xc := cnodeExtra{Present: c.Present}
		if !x.anchor {
			xc.Params, xc.Attrs = c.Params, c.Attrs
		}
		add("cnode", c.ID, xc)
	}
	depth := make([]int, len(e.System))
	for _, s := range e.SystemOrder() {
		n := &e.System[s]
		if n.Parent >= 0 {
			depth[s] = depth[n.Parent] + 1
		}
		xs := systemExtra{Present: n.Present}
		if n.Kind == model.TreeNode {
			xs.Rank = n.Rank
		}
		if x.anchor {
			if n.Kind != model.TreeNode {
				xs.Descr, xs.Attrs = n.Descr, n.Attrs
			}
		} else {
			if n.Class != cube3Classes[depth[s]] {
				xs.Class = &n.Class
			}
			if depth[s] > 0 {
				xs.Descr = n.Descr
			}
			xs.Attrs = n.Attrs
		}
		if id := x.fileSystemID(s); id != n.ID {
			xs.ID = &n.ID
		}
		add(n.Kind.String(), x.fileSystemID(s), xs)
	}
	return out
}

func (x *xmlWriter) voidAncestor(m int) bool {
	e := x.e
	for p := e.Metrics[m].Parent; p >= 0; p = e.Metrics[p].Parent {
		if e.Metrics[p].Hidden() {
			return true
		}
	}
	return false
}

// anchorMetricType is the type written into an anchor: the .cubex writer
// stores canonical (call-tree exclusive) values for every metric with data.
func anchorMetricType(t model.MetricType) model.MetricType {
	if t.IsDerived() {
		return t
	}
	return model.Exclusive
}

func (x *xmlWriter) metric(i, depth int) {
	m := &x.e.Metrics[i]
	ind := indent(depth)
	x.s(ind + "<metric id=\"")
	x.int(m.ID)
	x.s("\"")
	var ownAttrs, cubeplAttrs []model.Attr
	if x.anchor {
		x.strAttr("type", string(anchorMetricType(m.Type)))
		if m.VizType != "" {
			x.strAttr("viztype", m.VizType)
		}
		for _, a := range build.IdentityAttrs(m, identities) {
			switch {
			case strings.HasPrefix(a.Key, cubeplXMLAttr):
				cubeplAttrs = append(cubeplAttrs, a)
			case a.Key == metricXMLAttr+"convertible" || a.Key == metricXMLAttr+"cacheable":
				x.s(" " + a.Key[len(metricXMLAttr):] + "=\"")
				x.attrValue(a.Value)
				x.s("\"")
			default:
				ownAttrs = append(ownAttrs, a)
			}
		}
	}
	x.s(">\n")
	x.elem(depth+1, "disp_name", m.DispName)
	x.elem(depth+1, "uniq_name", m.UniqName)
	x.elem(depth+1, "dtype", string(m.DataType))
	x.elem(depth+1, "uom", m.Unit)
	if m.Val != "" {
		x.elem(depth+1, "val", m.Val)
	}
	x.elem(depth+1, "url", m.URL)
	x.elem(depth+1, "descr", m.Descr)
	if x.anchor {
		in := indent(depth + 1)
		if m.Expression != "" || len(cubeplAttrs) > 0 {
			x.s(in + "<cubepl")
			for _, a := range cubeplAttrs {
				x.bareAttr(a.Key[len(cubeplXMLAttr):], a.Value)
			}
			x.s(">")
			x.text(m.Expression)
			x.s("</cubepl>\n")
		}
		if m.InitExpression != "" {
			x.elem(depth+1, "cubeplinit", m.InitExpression)
		}
		for _, a := range m.AggrExpressions {
			x.s(in + "<cubeplaggr")
			x.bareAttr("cubeplaggrtype", a.Key)
			x.s(">")
			x.text(a.Value)
			x.s("</cubeplaggr>\n")
		}
		for _, a := range ownAttrs {
			x.attr(depth+1, a)
		}
	}
	for _, c := range m.Children {
		x.metric(c, depth+1)
	}
	x.s(ind + "</metric>\n")
}

// strAttr writes the attribute key="value", escaping the value.
func (x *xmlWriter) strAttr(key, value string) {
	x.s(" " + key + "=\"")
	x.attrValue(value)
	x.s("\"")
}

// intAttr writes the attribute key="n".
func (x *xmlWriter) intAttr(key string, n int) {
	x.s(" " + key + "=\"")
	x.int(n)
	x.s("\"")
}

// bareAttr writes an attribute the way CubeLib's scanner wants it in
// <cubepl> and <cubeplaggr>: an unquoted word.
func (x *xmlWriter) bareAttr(key, value string) {
	x.s(" " + xmlName(key) + "=")
	if value != "" && strings.IndexFunc(value, func(r rune) bool { return r > 127 || !isLetter(byte(r)) }) < 0 {
		x.s(value)
		return
	}
	x.s("\"")
	x.attrValue(value)
	x.s("\"")
}

func (x *xmlWriter) region(r *model.Region) {
	x.s("    <region id=\"")
	x.int(r.ID)
	x.s("\" mod=\"")
	x.attrValue(r.Module)
	x.s("\" begin=\"")
	x.int(r.Begin)
	x.s("\" end=\"")
	x.int(r.End)
	x.s("\">\n")
	x.elem(3, "name", r.Name)
	if x.anchor {
		x.elem(3, "mangled_name", r.MangledName)
		x.elem(3, "paradigm", r.Paradigm)
		x.elem(3, "role", r.Role)
	}
	x.elem(3, "url", r.URL)
	x.elem(3, "descr", r.Descr)
	if x.anchor {
		for _, a := range r.Attrs {
			x.attr(3, a)
		}
	}
	x.s("    </region>\n")
}

func (x *xmlWriter) cnode(i, depth int) {
	e := x.e
	c := &e.Cnodes[i]
	ind := indent(depth)
	x.s(ind + "<cnode id=\"")
	x.int(c.ID)
	x.s("\"")
	if c.CallLine != -1 {
		x.intAttr("line", c.CallLine)
	}
	if c.CallFile != "" {
		x.strAttr("mod", c.CallFile)
	}
	x.s(" calleeId=\"")
	x.int(e.Regions[c.Region].ID)
	x.s("\">\n")
	if x.anchor {
		in := indent(depth + 1)
		for _, p := range c.Params {
			x.s(in + "<parameter partype=\"")
			x.attrValue(p.Type)
			x.s("\" parkey=\"")
			x.attrValue(p.Key)
			x.s("\" parvalue=\"")
			x.attrValue(p.Value)
			x.s("\"/>\n")
		}
		for _, a := range c.Attrs {
			x.attr(depth+1, a)
		}
	}
	for _, ch := range c.Children {
		x.cnode(ch, depth+1)
	}
	x.s(ind + "</cnode>\n")
}

func (x *xmlWriter) system(s, depth, level int) {
	n := &x.e.System[s]
	var tag string
	if x.anchor {
		tag = n.Kind.String()
	} else {
		tag = cube3Classes[level]
	}
	ind := indent(depth)
	x.s(ind + "<" + tag + " Id=\"")
	x.int(x.fileSystemID(s))
	x.s("\">\n")
	x.elem(depth+1, "name", n.Name)
	switch {
	case x.anchor && n.Kind == model.TreeNode:
		x.elem(depth+1, "class", n.Class)
		if n.Descr != "" {
			x.elem(depth+1, "descr", n.Descr)
		}
		for _, a := range n.Attrs {
			x.attr(depth+1, a)
		}
	case x.anchor:
		x.elem(depth+1, "rank", strconv.Itoa(n.Rank))
		x.elem(depth+1, "type", n.Class)
	case level == 0:
		if n.Descr != "" {
			x.elem(depth+1, "descr", n.Descr)
		}
	case level >= 2:
		x.elem(depth+1, "rank", strconv.Itoa(n.Rank))
	}
	for _, c := range n.Children {
		x.system(c, depth+1, level+1)
	}
	x.s(ind + "</" + tag + ">\n")
}

func (x *xmlWriter) topologies() {
	e := x.e
	x.s("    <topologies>\n")
	depth := make([]int, len(e.System))
	for _, s := range e.SystemOrder() {
		if p := e.System[s].Parent; p >= 0 {
			depth[s] = depth[p] + 1
		}
	}
	for _, t := range e.Topologies {
		x.s("      <cart")
		if t.Name != "" {
			x.strAttr("name", t.Name)
		}
		x.s(" ndims=\"")
		x.int(len(t.Dims))
		x.s("\">\n")
		named := slices.ContainsFunc(t.Dims, func(d model.CartDim) bool { return d.Name != "" })
		for _, d := range t.Dims {
			x.s("        <dim")
			if named {
				x.strAttr("name", d.Name)
			}
			x.s(" size=\"")
			x.int(d.Size)
			x.s("\" periodic=\"")
			x.s(strconv.FormatBool(d.Periodic))
			x.s("\"/>\n")
		}
		for _, c := range t.Coords {
			n := &e.System[c.Node]
			var key string
			switch {
			case x.anchor && n.Kind == model.TreeNode:
				key = "stnId"
			case x.anchor && n.Kind == model.Group:
				key = "lgId"
			case x.anchor:
				key = "locId"
			default:
				key = [...]string{"machId", "nodeId", "procId", "thrdId"}[depth[c.Node]]
			}
			x.s("        <coord " + key + "=\"")
			x.int(x.fileSystemID(c.Node))
			x.s("\">")
			for i, v := range c.Coord {
				if i > 0 {
					x.s(" ")
				}
				x.int(v)
			}
			x.s("</coord>\n")
		}
		x.s("      </cart>\n")
	}
	x.s("    </topologies>\n")
}

// severity writes the data of every metric that has values: one matrix
// per metric, one row per cnode with a non-zero value, value i for the
// thread with Id i, each exact (shortest round-trip formatting).
func (x *xmlWriter) severity() error {
	e := x.e
	x.s("  <severity>\n")
	colOfThread := make([]int, len(x.locID))
	for col, id := range x.locID {
		colOfThread[id] = col
	}
	for _, m := range e.MetricOrder() {
		met := &e.Metrics[m]
		if !met.HasStoredValues() {
			continue
		}
		b, err := e.Block(m)
		if err != nil {
			return fmt.Errorf("metric %s: %w", importer.Quote(met.UniqName), err)
		}
		opened := false
		for _, c := range e.CnodeOrder() {
			row := b.Row(c)
			if row == nil || allZeroRow(row) {
				continue
			}
			if !opened {
				x.s("    <matrix metricId=\"")
				x.int(met.ID)
				x.s("\">\n")
				opened = true
			}
			x.s("      <row cnodeId=\"")
			x.int(e.Cnodes[c].ID)
			x.s("\">\n")
			for _, col := range colOfThread {
				x.num = strconv.AppendFloat(x.num[:0], row[col], 'g', -1, 64)
				x.num = append(x.num, '\n')
				x.w.Write(x.num)
			}
			x.s("      </row>\n")
		}
		if opened {
			x.s("    </matrix>\n")
		}
		// An on-demand block yields zeros for rows it failed to read.
		if err := b.Err(); err != nil {
			return err
		}
	}
	x.s("  </severity>\n")
	return nil
}

func allZeroRow(r []float64) bool {
	for _, v := range r {
		if v != 0 {
			return false
		}
	}
	return true
}

// maxIndent caps indentation so that deep call trees do not produce
// quadratic amounts of white space.
const maxIndent = 32

var indents = strings.Repeat("  ", maxIndent)

func indent(depth int) string { return indents[:2*min(depth, maxIndent)] }

func (x *xmlWriter) s(s string) { x.w.WriteString(s) }

func (x *xmlWriter) int(v int) {
	x.num = strconv.AppendInt(x.num[:0], int64(v), 10)
	x.w.Write(x.num)
}

func (x *xmlWriter) elem(depth int, tag, value string) {
	x.s(indent(depth) + "<" + tag + ">")
	x.text(value)
	x.s("</" + tag + ">\n")
}

func (x *xmlWriter) attr(depth int, a model.Attr) {
	x.s(indent(depth) + "<attr key=\"")
	x.attrValue(a.Key)
	x.s("\" value=\"")
	x.attrValue(a.Value)
	x.s("\"/>\n")
}

// text writes character data with the five XML entities escaped. Line
// feeds and tabs stay literal (CubePL expressions span lines); a carriage
// return becomes a character reference so that it survives reading.
func (x *xmlWriter) text(s string) { x.escape(s, false) }

// attrValue escapes an attribute value; white space other than the blank
// becomes character references, which XML parsers keep.
func (x *xmlWriter) attrValue(s string) { x.escape(s, true) }

func (x *xmlWriter) escape(s string, attr bool) {
	last := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var rep string
		switch {
		case r == '&':
			rep = "&amp;"
		case r == '<':
			rep = "&lt;"
		case r == '>':
			rep = "&gt;"
		case r == '"':
			rep = "&quot;"
		case r == '\'':
			rep = "&apos;"
		case r == '\r':
			rep = "&#xD;"
		case attr && r == '\n':
			rep = "&#xA;"
		case attr && r == '\t':
			rep = "&#x9;"
		case r == utf8.RuneError && size == 1, !isXMLChar(r):
			rep = "\uFFFD"
		default:
			i += size
			continue
		}
		x.s(s[last:i])
		x.s(rep)
		i += size
		last = i
	}
	x.s(s[last:])
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// xmlName makes s usable as an attribute name.
func xmlName(s string) string {
	ok := s != ""
	for i := 0; i < len(s) && ok; i++ {
		c := s[i]
		ok = isLetter(c) || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.')
	}
	if ok {
		return s
	}
	return "x"
}
