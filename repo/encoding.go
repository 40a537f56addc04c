package repo

import (
	"encoding/binary"
	"errors"
	"math"
	"sort"

	"cubeview/model"
)

// encoder appends the compact binary form used for the few structured
// fields that have no column of their own (attributes, parameters,
// topologies, the call graph). Strings are stored as bytes, so any text
// comes back literally.
type encoder struct{ b []byte }

func (e *encoder) uint(u uint64)   { e.b = binary.AppendUvarint(e.b, u) }
func (e *encoder) int(i int64)     { e.b = binary.AppendVarint(e.b, i) }
func (e *encoder) float(f float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(f)) }
func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *encoder) attrs(as []model.Attr) {
	e.uint(uint64(len(as)))
	for _, a := range as {
		e.str(a.Key)
		e.str(a.Value)
	}
}

var errCorrupt = errors.New("corrupt stored definition")

// decoder reads what encoder wrote; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	u, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return u
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	i, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return i
}

func (d *decoder) float() float64 {
	if d.err != nil || len(d.b) < 8 {
		d.err = errCorrupt
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return f
}

// count reads a length and checks that at least min bytes per element remain.
func (d *decoder) count(min int) int {
	n := d.uint()
	if d.err == nil && n > uint64(len(d.b)/max(min, 1)+1) {
		d.err = errCorrupt
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errCorrupt
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) attrs() []model.Attr {
	n := d.count(2)
	if n == 0 {
		return nil
	}
	as := make([]model.Attr, n)
	for i := range as {
		as[i] = model.Attr{Key: d.str(), Value: d.str()}
	}
	return as
}

// extra encodes lists that are usually empty; nil when all are.
func extra(lists ...func(*encoder) bool) []byte {
	var e encoder
	any := false
	for _, l := range lists {
		if l(&e) {
			any = true
		}
	}
	if !any {
		return nil
	}
	return e.b
}

func attrList(as []model.Attr) func(*encoder) bool {
	return func(e *encoder) bool { e.attrs(as); return len(as) > 0 }
}

func paramList(ps []model.Param) func(*encoder) bool {
	return func(e *encoder) bool {
		e.uint(uint64(len(ps)))
		for _, p := range ps {
			e.str(p.Type)
			e.str(p.Key)
			e.str(p.Value)
		}
		return len(ps) > 0
	}
}

func readParams(d *decoder) []model.Param {
	n := d.count(3)
	if n == 0 {
		return nil
	}
	ps := make([]model.Param, n)
	for i := range ps {
		ps[i] = model.Param{Type: d.str(), Key: d.str(), Value: d.str()}
	}
	return ps
}

// encodeHeader stores what belongs to the experiment as a whole and has
// no table: its attributes in file order, mirrors, topologies and call graph.
func encodeHeader(e *model.Experiment) []byte {
	var en encoder
	en.uint(1) // header format version
	en.attrs(e.Attrs)
	en.uint(uint64(len(e.Mirrors)))
	for _, m := range e.Mirrors {
		en.str(m)
	}
	en.uint(uint64(len(e.Topologies)))
	for _, t := range e.Topologies {
		en.str(t.Name)
		en.uint(uint64(len(t.Dims)))
		for _, d := range t.Dims {
			en.str(d.Name)
			en.int(int64(d.Size))
			if d.Periodic {
				en.uint(1)
			} else {
				en.uint(0)
			}
		}
		en.uint(uint64(len(t.Coords)))
		for _, c := range t.Coords {
			en.int(int64(c.Node))
			en.uint(uint64(len(c.Coord)))
			for _, x := range c.Coord {
				en.int(int64(x))
			}
		}
	}
	g := e.CallGraph
	if g == nil {
		en.uint(0)
		return en.b
	}
	en.uint(1)
	en.uint(uint64(len(g.Arcs)))
	for _, a := range g.Arcs {
		en.int(int64(a.Caller))
		en.int(int64(a.Callee))
		en.int(a.Calls)
		keys := sortedKeys(a.Values)
		en.uint(uint64(len(keys)))
		for _, k := range keys {
			en.int(int64(k))
			en.float(a.Values[k])
		}
	}
	keys := sortedKeys(g.Inclusive)
	en.uint(uint64(len(keys)))
	for _, k := range keys {
		en.int(int64(k))
		v := g.Inclusive[k]
		en.uint(uint64(len(v)))
		for _, x := range v {
			en.float(x)
		}
	}
	return en.b
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

func decodeHeader(b []byte, e *model.Experiment) error {
	d := &decoder{b: b}
	if v := d.uint(); v != 1 {
		return errCorrupt
	}
	e.Attrs = d.attrs()
	if n := d.count(1); n > 0 {
		e.Mirrors = make([]string, n)
		for i := range e.Mirrors {
			e.Mirrors[i] = d.str()
		}
	}
	for n := d.count(2); n > 0 && d.err == nil; n-- {
		t := model.Cart{Name: d.str()}
		for k := d.count(3); k > 0 && d.err == nil; k-- {
			t.Dims = append(t.Dims, model.CartDim{Name: d.str(), Size: int(d.int()), Periodic: d.uint() == 1})
		}
		for k := d.count(2); k > 0 && d.err == nil; k-- {
			c := model.CartCoord{Node: int(d.int())}
			for j := d.count(1); j > 0 && d.err == nil; j-- {
				c.Coord = append(c.Coord, int(d.int()))
			}
			t.Coords = append(t.Coords, c)
		}
		e.Topologies = append(e.Topologies, t)
	}
	if d.uint() == 1 && d.err == nil {
		g := &model.CallGraph{}
		for n := d.count(4); n > 0 && d.err == nil; n-- {
			a := model.CallArc{Caller: int(d.int()), Callee: int(d.int()), Calls: d.int()}
			if k := d.count(9); k > 0 {
				a.Values = make(map[int]float64, k)
				for ; k > 0 && d.err == nil; k-- {
					key := int(d.int())
					a.Values[key] = d.float()
				}
			}
			g.Arcs = append(g.Arcs, a)
		}
		if k := d.count(2); k > 0 {
			g.Inclusive = make(map[int][]float64, k)
			for ; k > 0 && d.err == nil; k-- {
				key := int(d.int())
				v := make([]float64, d.count(8))
				for i := range v {
					v[i] = d.float()
				}
				g.Inclusive[key] = v
			}
		}
		e.CallGraph = g
	}
	return d.err
}
