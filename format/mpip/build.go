package mpip

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// metric describes one output metric and where its values come from.
type metric struct {
	m     model.Metric
	kind  statKind
	value func(st *stat) float64
}

func (rep *report) metrics() []metric {
	ms := []metric{
		{model.Metric{UniqName: "time", DispName: "Time", Unit: "sec", DataType: model.Double,
			Descr: "Time in MPI calls at the call site: mpiP's Count × Mean (or its Time column), in seconds"},
			statTime, func(st *stat) float64 {
				if st.hasTime {
					return st.time / 1e3
				}
				return st.count * st.mean / 1e3
			}},
		{model.Metric{UniqName: "visits", DispName: "Visits", Unit: "occ", DataType: model.Uint64,
			Descr: "Number of calls at the call site (mpiP's Count); the mean time per call is time over visits"},
			statTime, func(st *stat) float64 { return st.count }},
		{model.Metric{UniqName: "min_time", DispName: "Minimum time", Unit: "sec", DataType: model.MinDouble,
			Descr: "Shortest single call at the call site (mpiP's Min)"},
			statTime, func(st *stat) float64 { return st.min / 1e3 }},
		{model.Metric{UniqName: "max_time", DispName: "Maximum time", Unit: "sec", DataType: model.MaxDouble,
			Descr: "Longest single call at the call site (mpiP's Max)"},
			statTime, func(st *stat) float64 { return st.max / 1e3 }},
	}
	for _, k := range []struct {
		kind       statKind
		uniq, what string
	}{{statSent, "bytes_sent", "sent message"}, {statIO, "io_bytes", "MPI I/O"}} {
		if !rep.present[k.kind] {
			continue
		}
		ms = append(ms,
			metric{model.Metric{UniqName: k.uniq, DispName: "Bytes (" + k.what + ")", Unit: "bytes", DataType: model.Double,
				Descr: "Total " + k.what + " bytes at the call site (mpiP's Sum)"}, k.kind, func(st *stat) float64 { return st.sum }},
			metric{model.Metric{UniqName: "min_" + k.uniq, DispName: "Smallest " + k.what + " size", Unit: "bytes", DataType: model.MinDouble,
				Descr: "Smallest " + k.what + " size at the call site (mpiP's Min)"}, k.kind, func(st *stat) float64 { return st.min }},
			metric{model.Metric{UniqName: "max_" + k.uniq, DispName: "Largest " + k.what + " size", Unit: "bytes", DataType: model.MaxDouble,
				Descr: "Largest " + k.what + " size at the call site (mpiP's Max)"}, k.kind, func(st *stat) float64 { return st.max }},
		)
	}
	return ms
}

// experiment builds: a root for the program holding each task's AppTime;
// under it each call site's stack from its outermost recorded frame to
// the function that calls MPI, each frame's cnode carrying the file and
// line (or address) of the call it makes; and below the innermost frame
// the MPI operation, one cnode per call site, which holds the call
// site's values — MPI time belongs to the MPI function, and two call
// sites of one operation stay two call paths even where their stacks
// look alike.
func (rep *report) experiment(name string) (*model.Experiment, error) {
	e := &model.Experiment{Format: "mpiP report"}
	version, _ := attrValue(rep.header, "mpiP Version")
	e.Attrs = append([]model.Attr{{Key: "Creator", Value: strings.TrimSpace("mpiP " + version)}}, rep.header...)

	ms := rep.metrics()
	for i, m := range ms {
		m.m.ID, m.m.Parent = i, -1
		m.m.Aggregation = model.AggregationOf(m.m.DataType)
		e.Metrics = append(e.Metrics, m.m)
	}
	app := len(e.Metrics)
	e.Metrics = append(e.Metrics, model.Metric{ID: app, UniqName: "app_time", DispName: "Application time", Unit: "sec",
		DataType: model.Double, Parent: -1, Aggregation: model.Sum,
		Descr: "mpiP's AppTime of each task: wall-clock time from the end of MPI_Init to the beginning of MPI_Finalize, on the program's node"})

	// Regions.
	regionIdx := map[[2]string]int{}
	region := func(nameText, module, paradigm, role string) int {
		key := [2]string{nameText, module}
		if r, ok := regionIdx[key]; ok {
			return r
		}
		r := len(e.Regions)
		e.Regions = append(e.Regions, model.Region{ID: r, Name: nameText, Module: module, Begin: -1, End: -1, Paradigm: paradigm, Role: role})
		regionIdx[key] = r
		return r
	}
	program := "program"
	if cmd, ok := attrValue(rep.header, "mpiP Command"); ok && len(strings.Fields(cmd)) > 0 {
		program = path.Base(strings.Fields(cmd)[0])
	}
	rootRegion := region(program, "", "user", "function")

	// Call tree. A cnode is keyed by its parent, region and call site; an
	// MPI operation's cnode also by its call site id.
	type childKey struct {
		parent, region, line, site int
		file, address              string
	}
	children := map[childKey]int{}
	cnode := func(k childKey) int {
		if c, ok := children[k]; ok {
			return c
		}
		c := len(e.Cnodes)
		cn := model.Cnode{ID: c, Region: k.region, Parent: k.parent, CallFile: k.file, CallLine: k.line}
		if k.address != "" {
			cn.Attrs = []model.Attr{{Key: "call address", Value: k.address}}
		}
		e.Cnodes = append(e.Cnodes, cn)
		children[k] = c
		return c
	}
	root := cnode(childKey{parent: -1, region: rootRegion, line: -1})
	siteCnode := map[int]int{}
	ids := slices.Clone(rep.siteList)
	slices.Sort(ids)
	for _, id := range ids {
		s := rep.sites[id]
		// Outermost frame first; each frame's cnode has the call site
		// of the call into it, which its caller's row records.
		c := root
		at := frame{line: -1}
		for i := len(s.frames) - 1; i >= 0; i-- {
			fr := s.frames[i]
			c = cnode(childKey{parent: c, region: region(fr.function, fr.file, "user", "function"),
				file: at.file, line: at.line, address: at.address})
			at = fr
		}
		role := "function"
		if s.call == "Barrier" {
			role = "barrier"
		}
		c = cnode(childKey{parent: c, region: region("MPI_"+s.call, "", "mpi", role),
			file: at.file, line: at.line, address: at.address, site: id + 1})
		e.Cnodes[c].Attrs = append(e.Cnodes[c].Attrs, model.Attr{Key: "mpiP call site", Value: strconv.Itoa(id)})
		siteCnode[id] = c
	}

	// System: machine → host → rank → one thread.
	ranks := map[int]bool{}
	for r := range rep.tasks {
		ranks[r] = true
	}
	for r := range rep.hosts {
		ranks[r] = true
	}
	var rankList []int
	for r := range ranks {
		rankList = append(rankList, r)
	}
	slices.Sort(rankList)
	column := map[int]int{}
	e.System = append(e.System, model.SystemNode{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "machine", Parent: -1, Location: -1})
	hostNode := map[string]int{}
	e.Locations = make([]int, len(rankList))
	for col, r := range rankList {
		host := rep.hosts[r]
		h, ok := hostNode[host]
		if !ok {
			h = len(e.System)
			hostNode[host] = h
			label := host
			if label == "" {
				label = "node"
			}
			e.System = append(e.System, model.SystemNode{ID: len(hostNode), Kind: model.TreeNode, Class: "node", Name: label, Parent: 0, Location: -1})
		}
		p := len(e.System)
		e.System = append(e.System, model.SystemNode{ID: r, Kind: model.Group, Class: "process", Name: fmt.Sprintf("rank %d", r), Rank: r, Parent: h, Location: -1})
		e.Locations[col] = len(e.System)
		e.System = append(e.System, model.SystemNode{ID: col, Kind: model.Leaf, Class: "thread", Name: "thread 0", Parent: p, Location: col})
		column[r] = col
	}
	e.Link()

	// Data.
	nc, nl := len(e.Cnodes), len(rankList)
	blocks := make([]*model.Block, len(e.Metrics))
	for i := range blocks {
		blocks[i] = model.NewBlock(nc, nl)
	}
	for col, r := range rankList {
		if t, ok := rep.tasks[r]; ok && t.app != 0 {
			blocks[app].MutableRow(root)[col] = t.app
		}
	}
	listed := map[[3]int]bool{}
	for kind := range rep.stats {
		for _, st := range rep.stats[kind] {
			s := rep.sites[st.site]
			if s == nil {
				return nil, fmt.Errorf("%s:%d: %s: call site %d is not in the Callsites section", name, st.line, statTitles[kind], st.site)
			}
			if st.call != s.call {
				return nil, fmt.Errorf("%s:%d: %s: call site %d is %s in the Callsites section, not %s", name, st.line, statTitles[kind], st.site, importer.Quote(s.call), importer.Quote(st.call))
			}
			if st.rank < 0 {
				continue
			}
			col, ok := column[st.rank]
			if !ok {
				return nil, fmt.Errorf("%s:%d: %s: rank %d is not a task of the report", name, st.line, statTitles[kind], st.rank)
			}
			key := [3]int{kind, st.site, st.rank}
			if listed[key] {
				return nil, fmt.Errorf("%s:%d: %s: call site %d, rank %d listed twice", name, st.line, statTitles[kind], st.site, st.rank)
			}
			listed[key] = true
			for m, def := range ms {
				if def.kind == statKind(kind) {
					if v := def.value(&st); v != 0 {
						blocks[m].MutableRow(siteCnode[st.site])[col] = v
					}
				}
			}
		}
	}
	for m, b := range blocks {
		e.SetBlock(m, b)
	}
	rep.warnings(e)
	return e, nil
}

// warnings note what the report leaves out: with a print threshold (-t)
// or in a concise report (-c) tasks are missing from the call-site
// statistics, whose aggregate rows then hold more than the listed tasks.
func (rep *report) warnings(e *model.Experiment) {
	// The aggregate rows' shares of the MPI time (MPI%, printed to two
	// decimals) add up to 100 % in a whole report.
	if rep.total != nil && rep.total.mpi > 0 {
		sum, n := 0.0, 0
		for _, st := range rep.stats[statTime] {
			if st.rank < 0 {
				sum += st.mpiPercent
				n++
			}
		}
		if n > 0 && math.Abs(sum-100) > 0.005*float64(n)+0.01 {
			e.Warnings = append(e.Warnings, fmt.Sprintf("Callsite Time statistics: the call sites' aggregate rows hold %.2f %% of the MPI time of the MPI Time section (%g s), not 100 %%; time is missing from the report or the report is inconsistent", sum, rep.total.mpi))
		}
	}
	for kind := range rep.stats {
		listed, total := map[int]float64{}, map[int]float64{}
		rows := 0
		for _, st := range rep.stats[kind] {
			if st.rank < 0 {
				total[st.site] = st.count
			} else {
				listed[st.site] += st.count
				rows++
			}
		}
		var short []string
		for _, id := range rep.siteList {
			if t, ok := total[id]; ok && listed[id] != t {
				short = append(short, fmt.Sprintf("%d (%g of %g calls)", id, listed[id], t))
			}
		}
		if len(short) > 0 {
			e.Warnings = append(e.Warnings, fmt.Sprintf("%s: the report lists only some tasks of call site%s %s (a print threshold or a concise report); their other tasks' values are not in the experiment",
				statTitles[kind], plural(len(short)), strings.Join(short, ", ")))
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
