package gprof

import (
	"fmt"
	"strconv"

	"cubeview/format/importer"
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
// graph's self + children) per call, gprof's "total ms/call".
// It fails when the histogram's dimension, read from the report, cannot
// name a metric in a formula (a damaged header).
func perCall(histogram string) (*model.Formula, error) {
	return model.ParseFormula(histogram + " / visits")
}

// metricNames returns the histogram metric's unique and display names,
// unit and description for the histogram's dimension.
func metricNames(dim string) (uniq, disp, unit, perCallUniq, perCallDisp string) {
	if dim == "seconds" {
		return "time", "Time", "sec", "s/call", "Time per call"
	}
	return dim, dim, "occ", dim + "/call", dim + " per call"
}

// experiment turns the report into a flat call forest with a call graph.
func (rep *report) experiment(name string) (*model.Experiment, error) {
	uniq, disp, unit, pcUniq, pcDisp := metricNames(rep.dim)
	dataType := model.Double
	e := &model.Experiment{
		Format: "GNU gprof report",
		Attrs:  append([]model.Attr{{Key: "Creator", Value: "gprof"}}, rep.attrs...),
		Metrics: []model.Metric{
			{ID: metricTime, UniqName: uniq, DispName: disp, DataType: dataType, Unit: unit, Parent: -1,
				Descr: "gprof's self " + rep.dim + ": spent in the function itself. gprof's inclusive value (self + children) is the call graph's"},
			{ID: metricVisits, UniqName: "visits", DispName: "Visits", DataType: model.Uint64, Unit: "occ", Parent: -1,
				Descr: "gprof's calls: non-recursive calls of the function (recursive calls are on the call graph's arcs)"},
			{ID: metricPerCall, UniqName: pcUniq, DispName: pcDisp, Unit: unit, Parent: -1,
				Descr: "gprof's per-call columns, " + uniq + " / visits after aggregation: exclusive = self per call, inclusive = total per call (self + children per call); 0 without calls"},
		},
	}
	if f, err := perCall(uniq); err == nil {
		e.Metrics[metricPerCall].Formula = f
	} else {
		e.Metrics = e.Metrics[:metricPerCall] // no per-call metric of a dimension no formula can name
	}
	for i := range e.Metrics {
		m := &e.Metrics[i]
		if m.Formula != nil {
			m.DataType, m.Type, m.Expression = model.Double, model.PostDerived, m.Formula.CubePL()
		}
		m.Aggregation = model.AggregationOf(m.DataType)
	}

	// Regions: call-graph entries in index order, then functions the
	// graph names without an entry of their own, then functions only the
	// flat profile lists.
	byIndex := map[int]int{}
	byName := map[string][]int{}
	var self, calls, incl []float64
	hasIncl := []bool{}
	addRegion := func(gl graphLine, withIndex bool) int {
		r := len(e.Regions)
		reg := model.Region{ID: r, Name: gl.name, Begin: -1, End: -1, Paradigm: "compiler", Role: "function"}
		if gl.wholeCycle {
			reg.Role = "artificial"
		}
		if withIndex {
			reg.Attrs = append(reg.Attrs, model.Attr{Key: "gprof index", Value: strconv.Itoa(gl.index)})
		}
		if gl.cycle > 0 && !gl.wholeCycle {
			reg.Attrs = append(reg.Attrs, model.Attr{Key: "gprof cycle", Value: strconv.Itoa(gl.cycle)})
		}
		if gl.recursive > 0 {
			reg.Attrs = append(reg.Attrs, model.Attr{Key: "gprof recursive calls", Value: strconv.FormatInt(gl.recursive, 10)})
		}
		e.Regions = append(e.Regions, reg)
		self, calls, incl, hasIncl = append(self, 0), append(calls, 0), append(incl, 0), append(hasIncl, false)
		if !gl.wholeCycle {
			byName[gl.name] = append(byName[gl.name], r)
		}
		return r
	}
	for _, en := range rep.entries {
		gl := en.self
		if _, dup := byIndex[gl.index]; dup {
			return nil, fmt.Errorf("%s:%d: call graph: a second entry [%d]", name, gl.line, gl.index)
		}
		r := addRegion(gl, true)
		byIndex[gl.index] = r
		if !gl.wholeCycle {
			self[r] = gl.self
			if gl.hasCalls {
				calls[r] = float64(gl.calls)
			}
		}
		incl[r], hasIncl[r] = gl.self+gl.children, true
	}
	// Callers and callees without an entry: functions gprof saw only as
	// the other end of an arc, such as static destructors (__tcf_0) and
	// start-up code not compiled with -pg (__do_global_ctors_aux).
	noEntry := map[int]bool{}
	for _, en := range rep.entries {
		for _, lines := range [][]graphLine{en.parents, en.childs} {
			for _, gl := range lines {
				if gl.index < 0 {
					continue
				}
				if _, ok := byIndex[gl.index]; !ok {
					byIndex[gl.index] = addRegion(gl, true)
					noEntry[gl.index] = true
				}
			}
		}
	}
	// The flat profile's self values and calls are the reference values.
	matched := map[int]bool{}
	for _, row := range rep.flat {
		r := -1
		if row.hasIndex {
			if ri, ok := byIndex[row.index]; ok {
				r = ri
			}
		}
		if r < 0 {
			r = matchByName(byName[row.name], matched, self, calls, row)
		}
		if r < 0 || matched[r] {
			r = addRegion(graphLine{name: row.name, index: -1}, false)
		}
		matched[r] = true
		self[r] = row.self
		calls[r] = 0
		if row.calls >= 0 {
			calls[r] = float64(row.calls)
		}
		if !hasIncl[r] {
			// No call-graph entry: the flat profile's total per call is
			// the only inclusive value the report gives.
			incl[r] = row.self
			if row.hasTotal && row.calls > 0 {
				incl[r] = row.totalPerCall * float64(row.calls)
			}
			hasIncl[r] = true
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
		r := byIndex[gl.index]
		if want := e.Regions[r].Name; want != gl.name {
			return 0, fmt.Errorf("%s:%d: call graph: [%d] is %s here but %s elsewhere", name, gl.line, gl.index, importer.Quote(gl.name), importer.Quote(want))
		}
		return r, nil
	}
	// Callee lines first (the caller's view), then caller lines add arcs
	// listed only there, such as recursive calls, <spontaneous> and
	// callers without an entry.
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
	// A function without an entry has no inclusive value printed: gprof
	// propagated to it what its arcs carry, the time of its callees spent
	// on its behalf.
	for idx := range noEntry {
		r := byIndex[idx]
		if hasIncl[r] {
			continue
		}
		incl[r] = self[r]
		for _, a := range g.Arcs {
			if a.Caller == r && a.Callee != r {
				incl[r] += a.Values[metricTime]
			}
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

// matchByName picks the region of a flat-profile row among the call-graph
// entries of its name: the only one, or, for names gprof lists more than
// once (static functions of several files), the first unmatched one with
// the row's self value and calls; -1 when none fits.
func matchByName(cands []int, matched map[int]bool, self, calls []float64, row flatRow) int {
	if len(cands) == 1 {
		return cands[0]
	}
	for _, r := range cands {
		if !matched[r] && self[r] == row.self && (row.calls < 0 || calls[r] == float64(row.calls)) {
			return r
		}
	}
	for _, r := range cands {
		if !matched[r] {
			return r
		}
	}
	return -1
}
