package gprof

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"cubeview/model"
)

// Metric indices of an imported report.
const (
	metricTime = iota
	metricVisits
	metricPerCall
)

// perCall is the formula of gprof's per-call columns "self ms/call" and
// "total ms/call". They are means, which DESIGN §7 does not store: the
// metric is derived from the stored sums after aggregation, so it holds
// for any aggregate (a region's total, a difference of two reports). Its
// exclusive value at a function is self seconds per call, gprof's "self
// ms/call"; its inclusive value is gprof's inclusive time (the call
// graph's, see FlatProfileOf) per call, gprof's "total ms/call".
var perCall = mustFormula("time / visits")

func mustFormula(text string) *model.Formula {
	f, err := model.ParseFormula(text)
	if err != nil {
		panic(err)
	}
	return f
}

// callGraphHalfWidth bounds the rounding of the call graph's inclusive
// time self + children: gprof prints both with two decimals.
const callGraphHalfWidth = 0.01

// experiment turns the report into a flat call forest with a call graph.
func (rep *report) experiment(name string) (*model.Experiment, error) {
	e := &model.Experiment{
		Format: "GNU gprof report",
		Attrs:  append([]model.Attr{{Key: "Creator", Value: "gprof"}}, rep.attrs...),
		Metrics: []model.Metric{
			{ID: metricTime, UniqName: "time", DispName: "Time", DataType: model.Double, Unit: "sec", Parent: -1,
				Descr: "gprof's self seconds: time spent in the function itself. gprof's inclusive time (self + children) is the call graph's"},
			{ID: metricVisits, UniqName: "visits", DispName: "Visits", DataType: model.Uint64, Unit: "occ", Parent: -1,
				Descr: "gprof's calls: non-recursive calls of the function (recursive calls are on the call graph's arcs)"},
			{ID: metricPerCall, UniqName: "s/call", DispName: "Time per call", Unit: "sec", Parent: -1, Formula: perCall,
				Descr: "gprof's ms/call columns in seconds, time / visits after aggregation: exclusive = self s/call, inclusive = total s/call (self + children per call); 0 without calls"},
		},
	}
	for i := range e.Metrics {
		m := &e.Metrics[i]
		if m.Formula != nil {
			m.DataType, m.Type, m.Expression = model.Double, model.PostDerived, m.Formula.CubePL()
		}
		m.Aggregation = model.AggregationOf(m.DataType)
	}

	// Regions: call-graph entries in index order, then functions only the
	// flat profile lists.
	byIndex := map[int]int{}
	byName := map[string]int{}
	self := []float64{}
	calls := []float64{}
	incl := []float64{}
	addRegion := func(gl graphLine, flat bool) int {
		r := len(e.Regions)
		reg := model.Region{ID: r, Name: gl.name, Begin: -1, End: -1, Paradigm: "compiler", Role: "function"}
		if gl.wholeCycle {
			reg.Role = "artificial"
		}
		if gl.index >= 0 && !flat {
			reg.Attrs = append(reg.Attrs, model.Attr{Key: "gprof index", Value: strconv.Itoa(gl.index)})
		}
		if gl.cycle > 0 && !gl.wholeCycle {
			reg.Attrs = append(reg.Attrs, model.Attr{Key: "gprof cycle", Value: strconv.Itoa(gl.cycle)})
		}
		if gl.recursive > 0 {
			reg.Attrs = append(reg.Attrs, model.Attr{Key: "gprof recursive calls", Value: strconv.FormatInt(gl.recursive, 10)})
		}
		e.Regions = append(e.Regions, reg)
		self, calls, incl = append(self, 0), append(calls, 0), append(incl, 0)
		return r
	}
	for _, en := range rep.entries {
		gl := en.self
		if _, dup := byIndex[gl.index]; dup {
			return nil, fmt.Errorf("%s:%d: call graph: a second entry [%d]", name, gl.line, gl.index)
		}
		r := addRegion(gl, false)
		byIndex[gl.index] = r
		if !gl.wholeCycle {
			if _, dup := byName[gl.name]; !dup {
				byName[gl.name] = r
			}
			self[r] = gl.self
			if gl.hasCalls {
				calls[r] = float64(gl.calls)
			}
		}
		incl[r] = gl.self + gl.children
	}
	// The flat profile's self seconds and calls are the reference values.
	for _, row := range rep.flat {
		r, ok := byName[row.name]
		if row.hasIndex {
			if ri, ok2 := byIndex[row.index]; ok2 {
				r, ok = ri, true
			}
		}
		if !ok {
			r = addRegion(graphLine{name: row.name, index: -1}, true)
			byName[row.name] = r
			incl[r] = row.self // gprof's graph has no entry: no children known
		}
		self[r] = row.self
		calls[r] = 0
		if row.calls >= 0 {
			calls[r] = float64(row.calls)
		}
		if rep.hasPerCallUnit {
			incl[r] = refineInclusive(incl[r], row, rep.perCallExp)
		}
	}

	g := &model.CallGraph{Inclusive: map[int][]float64{metricTime: incl}}
	type key struct{ caller, callee int }
	arcAt := map[key]int{}
	addArc := func(caller, callee int, gl graphLine) {
		k := key{caller, callee}
		if _, ok := arcAt[k]; ok {
			return
		}
		a := model.CallArc{Caller: caller, Callee: callee, Calls: -1}
		if gl.hasCalls {
			a.Calls = gl.calls
		}
		if gl.hasTimes {
			a.Values = map[int]float64{metricTime: gl.self + gl.children}
		}
		arcAt[k] = len(g.Arcs)
		g.Arcs = append(g.Arcs, a)
	}
	resolve := func(gl graphLine) (int, error) {
		r, ok := byIndex[gl.index]
		if !ok {
			return 0, fmt.Errorf("%s:%d: call graph: %s [%d] has no entry of its own", name, gl.line, gl.name, gl.index)
		}
		if want := e.Regions[r].Name; want != gl.name {
			return 0, fmt.Errorf("%s:%d: call graph: [%d] is %q here but %q in its entry", name, gl.line, gl.index, gl.name, want)
		}
		return r, nil
	}
	// Callee lines first (the caller's view), then caller lines add arcs
	// listed only there, such as recursive calls and <spontaneous>.
	for _, en := range rep.entries {
		me := byIndex[en.self.index]
		for _, ch := range en.childs {
			r, err := resolve(ch)
			if err != nil {
				return nil, err
			}
			addArc(me, r, ch)
		}
	}
	for _, en := range rep.entries {
		me := byIndex[en.self.index]
		for _, p := range en.parents {
			if p.index < 0 {
				addArc(-1, me, p)
				continue
			}
			r, err := resolve(p)
			if err != nil {
				return nil, err
			}
			addArc(r, me, p)
		}
	}
	e.CallGraph = g

	// A flat call forest: one root per region with the region's own values.
	nr := len(e.Regions)
	for r := 0; r < nr; r++ {
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: r, Region: r, Parent: -1, CallLine: -1})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "machine", Parent: -1, Location: -1},
		{ID: 1, Kind: model.TreeNode, Class: "node", Name: "node", Parent: 0, Location: -1},
		{ID: 0, Kind: model.Group, Class: "process", Name: "process", Parent: 1, Location: -1},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "thread 0", Parent: 2},
	}
	e.Link()
	e.NumberLocations()
	for m, vals := range [][]float64{self, calls} {
		b := model.NewBlock(nr, 1)
		for r, v := range vals {
			if v != 0 {
				b.SetRow(r, []float64{v})
			}
		}
		e.SetBlock(m, b)
	}
	if rep.zeroTime {
		e.Attrs = append(e.Attrs, model.Attr{Key: "gprof note", Value: "no time accumulated"})
	}
	return e, nil
}

// refineInclusive returns a function's inclusive time given the call
// graph's value cg (self + children, or the flat profile's self where the
// graph has no entry) and its flat-profile row. gprof prints the
// inclusive time twice, rounded differently: in the call graph to 0.01 s
// and in the flat profile as "total ms/call" to 0.01 ms per call. Where
// the call graph's value does not reproduce the column at its printed
// precision and the column is the finer of the two (fewer calls than
// 0.02 s in the column's unit), the column × calls is gprof's inclusive
// time at the better precision; it still rounds to the call graph's
// numbers. Otherwise the call graph's value stays.
func refineInclusive(cg float64, row flatRow, exp int) float64 {
	if row.calls <= 0 || row.totalPerCall == "" {
		return cg
	}
	decimals := 0
	if dot := strings.IndexByte(row.totalPerCall, '.'); dot >= 0 {
		decimals = len(row.totalPerCall) - dot - 1
	}
	perCall := cg / float64(row.calls) * math.Pow10(exp)
	if strconv.FormatFloat(perCall, 'f', decimals, 64) == row.totalPerCall {
		return cg
	}
	colHalfWidth := 0.5 * math.Pow10(-decimals-exp) * float64(row.calls)
	if colHalfWidth >= callGraphHalfWidth {
		return cg
	}
	// column × calls in decimal, so that the value is the double nearest
	// to the product gprof's numbers give.
	digits, ok := new(big.Int).SetString(strings.Replace(row.totalPerCall, ".", "", 1), 10)
	if !ok {
		return cg
	}
	digits.Mul(digits, big.NewInt(row.calls))
	col, err := strconv.ParseFloat(digits.String()+"e"+strconv.Itoa(-decimals-exp), 64)
	if err != nil || math.Abs(col-cg) > colHalfWidth+callGraphHalfWidth+1e-12 {
		return cg // the report contradicts itself: keep the call graph's
	}
	return col
}
