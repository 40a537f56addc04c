package algebra

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// spec describes a small hand-made experiment.
type spec struct {
	source string
	// metrics: "uniq unit dtype [parent]"
	metrics []string
	// cnodes: call paths of region names, parents before children, e.g.
	// "main", "main/foo". A region name may carry "@line" for the call
	// line, e.g. "main/foo@12". Regions are created on demand in module
	// "m.c" unless given in regions.
	cnodes  []string
	regions []model.Region
	// system: "machine/node/rank/threadrank" per location, in order.
	system []string
	// data[metric][call path] = one value per location.
	data map[string]map[string][]float64
}

// build constructs the experiment described by s.
func build(t testing.TB, s spec) *model.Experiment {
	t.Helper()
	e := &model.Experiment{Source: s.source, Format: "hand-made"}
	for i, m := range s.metrics {
		f := strings.Fields(m)
		mt := model.Metric{ID: i, UniqName: f[0], DispName: strings.ToUpper(f[0]), Unit: f[1], DataType: model.DataType(f[2]), Type: "EXCLUSIVE", Parent: -1}
		if len(f) > 3 {
			mt.Parent = e.MetricByName(f[3])
			if mt.Parent < 0 {
				t.Fatalf("metric %s: unknown parent %s", f[0], f[3])
			}
		}
		mt.Aggregation = model.AggregationOf(mt.DataType)
		e.Metrics = append(e.Metrics, mt)
	}
	e.Regions = append(e.Regions, s.regions...)
	region := func(name string) int {
		for i, r := range e.Regions {
			if r.Name == name {
				return i
			}
		}
		e.Regions = append(e.Regions, model.Region{ID: len(e.Regions), Name: name, Module: "m.c", Begin: -1, End: -1})
		return len(e.Regions) - 1
	}
	paths := map[string]int{}
	for i, p := range s.cnodes {
		parent := -1
		name := p
		if k := strings.LastIndex(p, "/"); k >= 0 {
			var ok bool
			parent, ok = paths[p[:k]]
			if !ok {
				t.Fatalf("cnode %s: parent not defined", p)
			}
			name = p[k+1:]
		}
		line := -1
		if n, l, ok := strings.Cut(name, "@"); ok {
			name = n
			line, _ = strconv.Atoi(l)
		}
		paths[p] = i
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: i, Region: region(name), Parent: parent, CallLine: line})
	}
	sysIdx := map[string]int{}
	add := func(key string, n model.SystemNode) int {
		if i, ok := sysIdx[key]; ok {
			return i
		}
		n.Location = -1
		e.System = append(e.System, n)
		sysIdx[key] = len(e.System) - 1
		return len(e.System) - 1
	}
	ids := map[model.SystemKind]int{}
	next := func(k model.SystemKind) int { ids[k]++; return ids[k] - 1 }
	for _, loc := range s.system {
		f := strings.Split(loc, "/")
		rank, _ := strconv.Atoi(f[2])
		tr, _ := strconv.Atoi(f[3])
		m := add(f[0], model.SystemNode{Kind: model.TreeNode, Class: "machine", Name: f[0], Parent: -1})
		n := add(f[0]+"/"+f[1], model.SystemNode{Kind: model.TreeNode, Class: "node", Name: f[1], Parent: m})
		gk := f[0] + "/" + f[1] + "/" + f[2]
		if _, ok := sysIdx[gk]; !ok {
			add(gk, model.SystemNode{ID: next(model.Group), Kind: model.Group, Class: "process", Name: "rank " + f[2], Rank: rank, Parent: n})
		}
		add(loc, model.SystemNode{ID: next(model.Leaf), Kind: model.Leaf, Class: "thread", Name: "thread " + f[3], Rank: tr, Parent: sysIdx[gk]})
	}
	for i := range e.System {
		if e.System[i].Kind == model.TreeNode {
			e.System[i].ID = next(model.TreeNode)
		}
	}
	e.Link()
	e.NumberLocations()
	for m := range e.Metrics {
		b := model.NewBlock(len(e.Cnodes), len(e.Locations))
		for path, vals := range s.data[e.Metrics[m].UniqName] {
			c, ok := paths[path]
			if !ok {
				t.Fatalf("data for unknown call path %s", path)
			}
			if len(vals) != len(e.Locations) {
				t.Fatalf("data %s %s: %d values for %d locations", e.Metrics[m].UniqName, path, len(vals), len(e.Locations))
			}
			// columns follow the order of s.system
			row := b.MutableRow(c)
			for i, v := range vals {
				row[e.System[sysIdx[s.system[i]]].Location] = v
			}
		}
		e.SetBlock(m, b)
	}
	if err := e.Validate(); err != nil {
		t.Fatalf("hand-made experiment: %v", err)
	}
	return e
}

// generate returns a synthetic experiment whose sibling call-tree nodes all
// have distinct regions, so call paths identify nodes.
func generate(cfg synth.Config) *model.Experiment {
	e := synth.Generate(cfg)
	for c := range e.Cnodes {
		for k, ch := range e.Cnodes[c].Children {
			for k >= len(e.Regions) {
				e.Regions = append(e.Regions, model.Region{ID: len(e.Regions), Name: fmt.Sprintf("extra_%d", len(e.Regions)), Module: "x.c"})
			}
			e.Cnodes[ch].Region = k
		}
	}
	for k, r := range e.CnodeRoots {
		e.Cnodes[r].Region = k
	}
	e.Source = fmt.Sprintf("synth-%d", cfg.Seed)
	return e
}

// pathKey names cnode c by its call path of region names and modules.
func pathKey(e *model.Experiment, c int) string { return pathKeyLines(e, c, false) }

// pathKeyLines names cnode c by its call path, with call sites and region
// lines when lines is set.
func pathKeyLines(e *model.Experiment, c int, lines bool) string {
	var parts []string
	for ; c >= 0; c = e.Cnodes[c].Parent {
		r := e.CnodeRegion(c)
		p := r.Name + "@" + r.Module
		if lines {
			p += fmt.Sprintf(":%d-%d<%s:%d", r.Begin, r.End, e.Cnodes[c].CallFile, e.Cnodes[c].CallLine)
		}
		parts = append(parts, p)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// locKey names location l by process rank and thread rank.
func locKey(e *model.Experiment, l int) string {
	n := e.Location(l)
	return fmt.Sprintf("%d.%d", e.System[n.Parent].Rank, n.Rank)
}

// flatten returns every non-zero value of e keyed by metric, call path and
// location ranks, independently of ids and index order.
func flatten(t testing.TB, e *model.Experiment) map[string]float64 {
	t.Helper()
	return flattenLines(t, e, false)
}

// flattenLines is flatten with call paths named by pathKeyLines.
func flattenLines(t testing.TB, e *model.Experiment, lines bool) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	paths := make([]string, len(e.Cnodes))
	for c := range e.Cnodes {
		paths[c] = pathCode(pathKeyLines(e, c, lines))
	}
	locs := make([]string, len(e.Locations))
	for l := range e.Locations {
		locs[l] = locKey(e, l)
	}
	for m := range e.Metrics {
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		for c := range e.Cnodes {
			for l, v := range b.Row(c) {
				if v != 0 {
					k := e.Metrics[m].UniqName + " " + paths[c] + " " + locs[l]
					if _, dup := out[k]; dup {
						t.Fatalf("flatten: key %s is not unique", readable(k))
					}
					out[k] = v
				}
			}
		}
	}
	return out
}

// structureLines lists metrics, call paths and locations by their keys.
func structureLines(e *model.Experiment, lines bool) []string {
	var out []string
	for _, m := range e.MetricOrder() {
		p := "-"
		if q := e.Metrics[m].Parent; q >= 0 {
			p = e.Metrics[q].UniqName
		}
		out = append(out, "metric "+e.Metrics[m].UniqName+" under "+p)
	}
	for _, c := range e.CnodeOrder() {
		out = append(out, "cnode "+pathKeyLines(e, c, lines))
	}
	for l := range e.Locations {
		out = append(out, "location "+locKey(e, l))
	}
	sort.Strings(out)
	return out
}

func dump(t testing.TB, e *model.Experiment) string {
	t.Helper()
	var b bytes.Buffer
	if err := e.Dump(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// compareValues reports differences between two flattened experiments
// beyond a relative tolerance.
func compareValues(t testing.TB, what string, got, want map[string]float64, tol float64) {
	t.Helper()
	bad := 0
	for k, w := range want {
		g := got[k]
		if math.Abs(g-w) > tol*math.Max(1, math.Abs(w)) {
			if bad < 10 {
				t.Errorf("%s: %s = %v, want %v", what, readable(k), g, w)
			}
			bad++
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok && math.Abs(g) > tol {
			if bad < 10 {
				t.Errorf("%s: %s = %v, want 0", what, readable(k), g)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d values differ", what, bad)
	}
}

// Value keys name call paths by short codes, since hashing long call paths
// of real experiments dominates the run time of the comparisons.
var (
	pathCodes = map[string]string{}
	pathNames = map[string]string{}
)

// pathCode returns the short code of a call path key.
func pathCode(path string) string {
	if c, ok := pathCodes[path]; ok {
		return c
	}
	c := "#" + strconv.Itoa(len(pathCodes))
	pathCodes[path], pathNames[c] = c, path
	return c
}

// vkey returns flatten's key of a value: metric, call path key, location key.
func vkey(metric, path, loc string) string { return metric + " " + pathCode(path) + " " + loc }

// readable replaces the path code in a value key by the call path.
func readable(k string) string {
	f := strings.SplitN(k, " ", 3)
	if len(f) == 3 {
		if p, ok := pathNames[f[1]]; ok {
			return f[0] + " " + p + " " + f[2]
		}
	}
	return k
}
