package caliper

import (
	"bufio"
	"bytes"
	"cubeview/format/importer"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unsafe"
)

// The .cali format is a sequence of lines, one record each:
//
//	__rec=node,id=42,attr=8,data=function,parent=12
//	__rec=ctx,ref=42=57,attr=61=62,data=0.25=3
//	__rec=globals,ref=70,attr=71,data=quartz
//
// Node records build a tree of (attribute, value) pairs; an attribute is
// itself a node of the attribute "cali.attribute.name" (id 8) whose
// ancestors give its type (id 9) and properties (id 10). Snapshot records
// (ctx) name nodes by reference and carry immediate values; globals
// records hold the run's metadata. In values, '\' escapes the next
// character ("\n" is a line break); '=' and ',' separate.

// Ids of the bootstrap attributes every .cali stream shares.
const (
	idAttrName = 8  // cali.attribute.name
	idAttrType = 9  // cali.attribute.type
	idAttrProp = 10 // cali.attribute.prop
)

// Attribute properties (cali_attr_properties).
const (
	propAsValue      = 1
	propHidden       = 128
	propNested       = 256
	propGlobal       = 512
	propAggregatable = 2048
)

// maxLine bounds one record's length.
const maxLine = 64 << 20

// calNode is one node of the metadata tree.
type calNode struct {
	id     uint64
	attr   uint64 // id of its attribute node
	parent int32  // index in calDB.nodes, -1 for a root
	data   string
}

// calAttr is an attribute: a node of attribute cali.attribute.name.
type calAttr struct {
	id    uint64
	name  string
	typ   string // "double", "int", "uint", "string", …
	prop  int64
	alias string // attribute.alias
	unit  string // attribute.unit
	adiak bool   // has an adiak.type: run metadata written by Adiak

	// metric is the metric of a value attribute (-1: not a metric), set
	// once classified is.
	metric     int32
	classified bool
}

func (a *calAttr) nested() bool { return a.prop&propNested != 0 }
func (a *calAttr) global() bool { return a.prop&propGlobal != 0 }
func (a *calAttr) hidden() bool { return a.prop&propHidden != 0 }
func (a *calAttr) asValue() bool {
	return a.prop&propAsValue != 0
}

// numeric reports whether the attribute's values are numbers.
func (a *calAttr) numeric() bool {
	switch a.typ {
	case "double", "int", "uint":
		return true
	}
	return false
}

// calDB is the metadata tree read so far.
type calDB struct {
	index map[uint64]int32 // node id → index in nodes
	nodes []calNode
	attrs map[uint64]*calAttr // by the attribute's node id
	// redefined marks the bootstrap nodes the file defined itself
	redefined [12]bool
}

// bootstrap are the nodes every stream starts with (Caliper writes them
// only in its oldest files): the types 0–7 and 11, and the three
// attributes that describe attributes.
var bootstrap = []calNode{
	{0, idAttrType, -1, "usr"}, {1, idAttrType, -1, "int"}, {2, idAttrType, -1, "uint"},
	{3, idAttrType, -1, "string"}, {4, idAttrType, -1, "addr"}, {5, idAttrType, -1, "double"},
	{6, idAttrType, -1, "bool"}, {7, idAttrType, -1, "type"},
	{idAttrName, idAttrName, 3, "cali.attribute.name"},
	{idAttrType, idAttrName, 7, "cali.attribute.type"},
	{idAttrProp, idAttrName, 1, "cali.attribute.prop"},
	{11, idAttrType, -1, "ptr"},
}

func newCalDB() *calDB {
	db := &calDB{index: map[uint64]int32{}, attrs: map[uint64]*calAttr{}}
	for _, n := range bootstrap {
		db.index[n.id] = int32(len(db.nodes))
		db.nodes = append(db.nodes, n)
	}
	for _, id := range []uint64{idAttrName, idAttrType, idAttrProp} {
		db.attrs[id] = db.describe(db.index[id])
	}
	return db
}

// describe reads attribute node i's type, properties and metadata from
// its ancestors.
func (db *calDB) describe(i int32) *calAttr {
	n := &db.nodes[i]
	a := &calAttr{id: n.id, name: n.data, typ: "inv"}
	seenType, seenProp := false, false
	for p := n.parent; p >= 0; p = db.nodes[p].parent {
		anc := &db.nodes[p]
		switch anc.attr {
		case idAttrType:
			if !seenType {
				a.typ, seenType = anc.data, true
			}
		case idAttrProp:
			if !seenProp {
				a.prop, _ = strconv.ParseInt(anc.data, 10, 64)
				seenProp = true
			}
		default:
			meta := db.attr(anc.attr)
			if meta == nil {
				continue
			}
			switch meta.name {
			case "attribute.alias":
				if a.alias == "" {
					a.alias = anc.data
				}
			case "attribute.unit", "time.unit":
				if a.unit == "" {
					a.unit = anc.data
				}
			case "adiak.type":
				a.adiak = true
			}
		}
	}
	return a
}

// attr returns the attribute whose node id is id, nil if that node is
// no attribute. Caliper 1.x files may define an attribute after nodes
// that use it, so attributes are described on first use.
func (db *calDB) attr(id uint64) *calAttr {
	if a, ok := db.attrs[id]; ok {
		return a
	}
	i, ok := db.index[id]
	if !ok || db.nodes[i].attr != idAttrName {
		return nil
	}
	a := db.describe(i)
	db.attrs[id] = a
	return a
}

// addNode adds a node record's node; a repeated id must repeat the node.
func (db *calDB) addNode(id, attr uint64, parent uint64, hasParent bool, data string) error {
	pi := int32(-1)
	if hasParent {
		p, ok := db.index[parent]
		if !ok {
			return fmt.Errorf("node %d: parent %d is not defined before it", id, parent)
		}
		pi = p
	}
	if old, ok := db.index[id]; ok {
		o := &db.nodes[old]
		if o.attr == attr && o.data == data && (o.parent == pi || id <= 11 && !hasParent) {
			if id <= 11 {
				db.redefined[id] = true
			}
			return nil // repeated, as the oldest files do with the bootstrap nodes
		}
		if id <= 11 && int(old) < len(bootstrap) && !db.redefined[id] {
			// Caliper 1.x files number their own nodes from 11 on.
			db.nodes[old] = calNode{id, attr, pi, data}
			db.redefined[id] = true
			delete(db.attrs, id)
			return nil
		}
		return fmt.Errorf("node %d is defined twice, differently", id)
	}
	if len(db.nodes) >= 1<<31-1 {
		return errors.New("too many nodes")
	}
	db.index[id] = int32(len(db.nodes))
	db.nodes = append(db.nodes, calNode{id, attr, pi, data})
	return nil
}

// recordKind is the kind of a .cali line.
type recordKind uint8

const (
	recNode recordKind = iota
	recCtx
	recGlobals
)

// calRecord is a parsed ctx or globals record. Its slices are reused for
// the next record.
type calRecord struct {
	kind  recordKind
	refs  []uint64
	attr  []uint64
	data  [][]byte
	nodes []int32    // the refs' indices in calDB.nodes
	attrs []*calAttr // the attributes of attr
}

// calScanner reads a .cali stream record by record.
type calScanner struct {
	r    *bufio.Reader
	name string
	line int
	db   *calDB
	rec  calRecord
	buf  []byte // unescaped values
	long []byte // a line longer than the reader's buffer
}

func newCalScanner(r io.Reader, name string) *calScanner {
	return &calScanner{r: bufio.NewReaderSize(r, 1<<16), name: name, db: newCalDB()}
}

// errorf returns an error naming the file and the current line.
func (s *calScanner) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", s.name, s.line, fmt.Sprintf(format, args...))
}

// readLine returns the next line without its line break, or io.EOF.
func (s *calScanner) readLine() ([]byte, error) {
	s.long = s.long[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			s.long = append(s.long, chunk...)
			if len(s.long) > maxLine {
				s.line++
				return nil, s.errorf("a record longer than %d MB: not a Caliper .cali file", maxLine>>20)
			}
			continue
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		line := chunk
		if len(s.long) > 0 {
			s.long = append(s.long, chunk...)
			line = s.long
		}
		if err == io.EOF {
			if len(line) == 0 {
				return nil, io.EOF
			}
			s.line++
			return nil, s.errorf("the file ends inside a record (no line break after %s): it is truncated", importer.Quote(string(line)))
		}
		s.line++
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if s.line == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		return line, nil
	}
}

// next reads records up to the next ctx or globals record, which it
// returns; node records go into the metadata tree. At the end it returns
// io.EOF.
func (s *calScanner) next() (*calRecord, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			continue
		}
		rest, ok := bytes.CutPrefix(line, []byte("__rec="))
		if !ok {
			return nil, s.errorf("not a Caliper record: %s (a record starts with __rec=)", importer.Quote(string(line)))
		}
		kind, rest, _ := bytes.Cut(rest, []byte(","))
		switch string(kind) {
		case "node":
			if err := s.node(rest); err != nil {
				return nil, err
			}
		case "ctx", "globals":
			s.rec.kind = recCtx
			if string(kind) == "globals" {
				s.rec.kind = recGlobals
			}
			if err := s.snapshot(rest); err != nil {
				return nil, err
			}
			return &s.rec, nil
		default:
			return nil, s.errorf("unknown record kind %s", importer.Quote(string(kind)))
		}
	}
}

// fields calls fn for each key=value list of a record's text.
func (s *calScanner) fields(text []byte, fn func(key, vals []byte) error) error {
	for len(text) > 0 {
		end := fieldEnd(text)
		field := text[:end]
		if end < len(text) {
			text = text[end+1:]
		} else {
			text = nil
		}
		key, vals, ok := bytes.Cut(field, []byte("="))
		if !ok {
			return s.errorf("field %s has no value", importer.Quote(string(field)))
		}
		if err := fn(key, vals); err != nil {
			return err
		}
	}
	return nil
}

// fieldEnd returns the index of the first unescaped ',' in text, or len(text).
func fieldEnd(text []byte) int {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case ',':
			return i
		}
	}
	return len(text)
}

// splitValues splits a field's values at unescaped '=' and unescapes
// them; the slices point into s.buf or vals.
func (s *calScanner) splitValues(vals []byte, out [][]byte) [][]byte {
	out = out[:0]
	if bytes.IndexByte(vals, '\\') < 0 {
		for {
			i := bytes.IndexByte(vals, '=')
			if i < 0 {
				return append(out, vals)
			}
			out = append(out, vals[:i])
			vals = vals[i+1:]
		}
	}
	s.buf = s.buf[:0]
	start := 0
	for i := 0; i < len(vals); i++ {
		switch c := vals[i]; c {
		case '\\':
			if i+1 < len(vals) {
				i++
				if vals[i] == 'n' {
					s.buf = append(s.buf, '\n')
				} else {
					s.buf = append(s.buf, vals[i])
				}
			}
		case '=':
			out = append(out, s.buf[start:len(s.buf):len(s.buf)])
			start = len(s.buf)
		default:
			s.buf = append(s.buf, c)
		}
	}
	return append(out, s.buf[start:len(s.buf):len(s.buf)])
}

// ids parses a list of node ids.
func (s *calScanner) ids(key string, vals []byte, out []uint64) ([]uint64, error) {
	out = out[:0]
	for {
		i := bytes.IndexByte(vals, '=')
		v := vals
		if i >= 0 {
			v = vals[:i]
		}
		id, err := strconv.ParseUint(transient(v), 10, 64)
		if err != nil {
			return nil, s.errorf("%s: bad node id %s", key, importer.Quote(string(v)))
		}
		out = append(out, id)
		if i < 0 {
			return out, nil
		}
		vals = vals[i+1:]
	}
}

// node reads a node record.
func (s *calScanner) node(text []byte) error {
	var id, attr, parent uint64
	var hasID, hasAttr, hasParent bool
	var data string
	var one [][]byte
	err := s.fields(text, func(k, vals []byte) error {
		var err error
		switch key := string(k); key {
		case "id", "attr", "parent":
			var v []uint64
			if v, err = s.ids(key, vals, nil); err != nil {
				return err
			}
			if len(v) != 1 {
				return s.errorf("%s: %d values, want one", key, len(v))
			}
			switch key {
			case "id":
				id, hasID = v[0], true
			case "attr":
				attr, hasAttr = v[0], true
			default:
				parent, hasParent = v[0], true
			}
		case "data":
			one = s.splitValues(vals, one)
			if len(one) != 1 {
				return s.errorf("data: %d values in a node record, want one", len(one))
			}
			data = string(one[0])
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !hasID || !hasAttr {
		return s.errorf("node record without id or attr")
	}
	if err := s.db.addNode(id, attr, parent, hasParent, data); err != nil {
		return s.errorf("%v", err)
	}
	return nil
}

// snapshot reads a ctx or globals record into s.rec.
func (s *calScanner) snapshot(text []byte) error {
	r := &s.rec
	r.refs, r.attr, r.data = r.refs[:0], r.attr[:0], r.data[:0]
	err := s.fields(text, func(key, vals []byte) error {
		var err error
		switch {
		case string(key) == "ref":
			r.refs, err = s.ids("ref", vals, r.refs)
		case string(key) == "attr":
			r.attr, err = s.ids("attr", vals, r.attr)
		case string(key) == "data":
			r.data = s.splitValues(vals, r.data)
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(r.attr) != len(r.data) {
		return s.errorf("%d attributes but %d values", len(r.attr), len(r.data))
	}
	r.nodes, r.attrs = r.nodes[:0], r.attrs[:0]
	for _, id := range r.refs {
		i, ok := s.db.index[id]
		if !ok {
			return s.errorf("ref: node %d is not defined", id)
		}
		r.nodes = append(r.nodes, i)
	}
	for _, id := range r.attr {
		a := s.db.attr(id)
		if a == nil {
			return s.errorf("attr: %d is not an attribute", id)
		}
		r.attrs = append(r.attrs, a)
	}
	return nil
}

// transient returns b as a string without copying, for a parser that
// does not keep it: b must not change while the string is in use.
func transient(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
