package gprof

import (
	"fmt"
	"strconv"

	"cubeview/model"
)

// Metric indices of an imported report.
const (
	metricTime = iota
	metricVisits
)

// experiment turns the report into a flat call forest with a call graph.
func (rep *report) experiment(name string) (*model.Experiment, error) {
	e := &model.Experiment{
		Format: "GNU gprof report",
		Attrs:  append([]model.Attr{{Key: "Creator", Value: "gprof"}}, rep.attrs...),
		Metrics: []model.Metric{
			{ID: metricTime, UniqName: "time", DispName: "Time", DataType: model.Double, Unit: "sec", Parent: -1,
				Descr: "gprof's self seconds: time spent in the function itself. gprof's inclusive time (self + children) is the call graph's; self and total ms/call are these sums over the calls"},
			{ID: metricVisits, UniqName: "visits", DispName: "Visits", DataType: model.Uint64, Unit: "occ", Parent: -1,
				Descr: "gprof's calls: non-recursive calls of the function (recursive calls are on the call graph's arcs)"},
		},
	}
	for i := range e.Metrics {
		e.Metrics[i].Aggregation = model.AggregationOf(e.Metrics[i].DataType)
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
