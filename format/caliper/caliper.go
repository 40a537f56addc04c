package caliper

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// maxSize bounds the size of a JSON file read into memory.
const maxSize = 4 << 30

// Format is Caliper's json-split output in the registry of formats.
var Format = importer.Format{
	Name:   "Caliper JSON",
	Tool:   "Caliper",
	Files:  "Caliper JSON (`cali-query … format json-split`)",
	Detect: Detect,
	Read:   Read,
}

// Read reads the Caliper JSON file at path.
func Read(path string, _ importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// node is an entry of the "nodes" table.
type node struct {
	Column string          `json:"column"`
	Label  json.RawMessage `json:"label"`
	Parent *int            `json:"parent"`
}

type columnMeta struct {
	IsValue bool `json:"is_value"`
}

// splitJSON is the layout "cali-query -q '… format json-split'" writes.
type splitJSON struct {
	Data     [][]*float64
	Columns  []string
	Metadata []columnMeta
	Nodes    []node
	Globals  []model.Attr
}

// Parse reads a Caliper json-split file from r; name is used in errors.
func Parse(r io.Reader, name string) (*model.Experiment, error) {
	raw, err := build.ReadAll(bufio.NewReader(r), name, maxSize)
	if err != nil {
		return nil, err
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	s, err := decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	e, err := convert(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	sampled := slices.ContainsFunc(s.Columns, func(c string) bool { return strings.Contains(c, "cali.sampler") })
	build.Identify(e, "Caliper", identities(metricNamesOf(e), sampled))
	return e, nil
}

// decode parses the JSON object and checks its tables against each other.
func decode(raw []byte) (*splitJSON, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("not Caliper JSON: %w", jsonPlace(raw, err))
	}
	s := &splitJSON{}
	fields := []struct {
		key string
		dst any
	}{{"data", &s.Data}, {"columns", &s.Columns}, {"column_metadata", &s.Metadata}, {"nodes", &s.Nodes}}
	for _, f := range fields {
		v, ok := top[f.key]
		if !ok {
			return nil, fmt.Errorf("no %q table: not Caliper json-split output", f.key)
		}
		if err := json.Unmarshal(v, f.dst); err != nil {
			return nil, fmt.Errorf("table %q: %w", f.key, err)
		}
	}
	var keys []string
	for k := range top {
		switch k {
		case "data", "columns", "column_metadata", "nodes":
		default:
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.Globals = append(s.Globals, model.Attr{Key: k, Value: labelText(top[k])})
	}
	if len(s.Columns) != len(s.Metadata) {
		return nil, fmt.Errorf("%d columns but %d column_metadata entries", len(s.Columns), len(s.Metadata))
	}
	names := map[string]bool{}
	for i, c := range s.Columns {
		if c == "" {
			return nil, fmt.Errorf("columns[%d] has no name", i)
		}
		if names[c] {
			return nil, fmt.Errorf("column %s occurs twice", importer.Quote(c))
		}
		names[c] = true
	}
	for i, n := range s.Nodes {
		if n.Parent != nil && (*n.Parent < 0 || *n.Parent >= i) {
			return nil, fmt.Errorf("nodes[%d] (%s): parent %d is not an earlier node", i, importer.Quote(labelText(n.Label)), *n.Parent)
		}
	}
	for i, row := range s.Data {
		if len(row) != len(s.Columns) {
			return nil, fmt.Errorf("data[%d] has %d entries for %d columns", i, len(row), len(s.Columns))
		}
		for c, v := range row {
			if v == nil {
				continue
			}
			if math.IsNaN(*v) || math.IsInf(*v, 0) {
				return nil, fmt.Errorf("data[%d] column %s: value %v", i, importer.Quote(s.Columns[c]), *v)
			}
			if !s.Metadata[c].IsValue && (*v < 0 || *v >= float64(len(s.Nodes)) || *v != math.Trunc(*v)) {
				return nil, fmt.Errorf("data[%d] column %s: node index %v out of range (%d nodes)", i, importer.Quote(s.Columns[c]), *v, len(s.Nodes))
			}
		}
	}
	return s, nil
}

// jsonPlace adds the byte offset to a JSON syntax error.
func jsonPlace(raw []byte, err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		line := 1 + bytes.Count(raw[:min(int(se.Offset), len(raw))], []byte("\n"))
		return fmt.Errorf("line %d (byte %d): %w", line, se.Offset, err)
	}
	return err
}

// labelText renders a node label or global value: a string as itself,
// anything else as its JSON text.
func labelText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

// pathColumns are the columns that name the call tree, preferred first.
var pathColumns = []string{"source.function#callpath.address", "path"}

// rankColumns and threadColumns place a row in the system tree.
var (
	rankColumns   = []string{"mpi.rank", "rank"}
	threadColumns = []string{"omp.thread.id", "thread.id", "pthread.id", "thread"}
)

// metricColumn is a value column that becomes a metric.
type metricColumn struct {
	col       int
	inclusive bool // an "inclusive#" column without its exclusive sibling
	factor    float64
	agg       model.Aggregation
}

func indexOf(list []string, want ...string) int {
	for _, w := range want {
		for i, s := range list {
			if s == w {
				return i
			}
		}
	}
	return -1
}

// convert builds the experiment from the tables.
func convert(s *splitJSON) (*model.Experiment, error) {
	pathCol := indexOf(s.Columns, pathColumns...)
	if pathCol < 0 {
		return nil, fmt.Errorf("no call-tree column (%s) among the %d columns %s", strings.Join(pathColumns, " or "), len(s.Columns), importer.Quote(strings.Join(s.Columns, ", ")))
	}
	if s.Metadata[pathCol].IsValue {
		return nil, fmt.Errorf("column %s holds values, not nodes", importer.Quote(s.Columns[pathCol]))
	}
	pathName := s.Columns[pathCol]
	rankCol, threadCol := indexOf(s.Columns, rankColumns...), indexOf(s.Columns, threadColumns...)
	locCol := indexOf(s.Columns, "sourceloc#cali.sampler.pc", "source.location#cali.sampler.pc")
	modCol := indexOf(s.Columns, "module#cali.sampler.pc")

	b := build.New("Caliper JSON (json-split)")
	b.Attr("Creator", "Caliper")
	for _, g := range s.Globals {
		b.Attr("Caliper "+g.Key, g.Value)
	}
	// a spot profile's time series records are not the region profile
	if ch := indexOf(s.Columns, "spot.channel"); ch >= 0 && !s.Metadata[ch].IsValue {
		kept := s.Data[:0:0]
		other := map[string]int{}
		for _, row := range s.Data {
			if v := row[ch]; v != nil {
				if label := labelText(s.Nodes[int(*v)].Label); label != "regionprofile" {
					other[label]++
					continue
				}
			}
			kept = append(kept, row)
		}
		if len(other) > 0 {
			var parts []string
			for label, n := range other {
				parts = append(parts, fmt.Sprintf("%d of spot.channel %s", n, label))
			}
			sort.Strings(parts)
			b.Attr("Caliper records not imported (other than the region profile)", strings.Join(parts, ", "))
			s.Data = kept
		}
	}

	// metrics: value columns other than rank and thread, classified as
	// the .cali reader classifies attributes
	var metrics []metricColumn
	var skipped []string
	own := map[string]bool{}
	for c, name := range s.Columns {
		if s.Metadata[c].IsValue && c != rankCol && c != threadCol && !classify(name, true).inclusive {
			own[name] = true
		}
	}
	for c, name := range s.Columns {
		if !s.Metadata[c].IsValue || c == rankCol || c == threadCol {
			continue
		}
		k := classify(name, true)
		switch {
		case k.mean:
			skipped = append(skipped, name)
			continue // a mean cannot be summed; its sum and count columns carry it
		case !k.metric:
			continue
		}
		uniq := name
		if k.inclusive {
			uniq = ownName(name)
			if own[uniq] {
				continue // the exclusive variant is there: the inclusive adds nothing
			}
		}
		unit, dtype, factor, note := columnUnit(name, k, s, c)
		descr := "Caliper column " + name + note
		if k.inclusive {
			descr += "; own values from the inclusive values"
		}
		b.Metric(uniq, uniq, unit, dtype, descr)
		metrics = append(metrics, metricColumn{col: c, inclusive: k.inclusive, factor: factor, agg: dtype.Aggregation()})
	}
	if len(skipped) > 0 {
		b.Attr("Caliper columns not imported (means)", strings.Join(skipped, ", "))
	}
	if len(metrics) == 0 {
		return nil, fmt.Errorf("no value column to import among the %d columns %s", len(s.Columns), importer.Quote(strings.Join(s.Columns, ", ")))
	}

	// regions: named by the node label, in the source file the samples of
	// its nodes point to (when they agree)
	files := map[string]map[string]int{} // label → file → rows
	minLine := map[string]int{}
	objects := map[string]string{}
	for _, row := range s.Data {
		p := row[pathCol]
		if p == nil {
			continue
		}
		label := labelText(s.Nodes[int(*p)].Label)
		if locCol >= 0 && row[locCol] != nil {
			file, line := splitSourceLoc(labelText(s.Nodes[int(*row[locCol])].Label))
			if file != "" {
				if files[label] == nil {
					files[label] = map[string]int{}
				}
				files[label][file]++
				if l, ok := minLine[label+"\x00"+file]; line > 0 && (!ok || line < l) {
					minLine[label+"\x00"+file] = line
				}
			}
		}
		if modCol >= 0 && row[modCol] != nil && objects[label] == "" {
			objects[label] = labelText(s.Nodes[int(*row[modCol])].Label)
		}
	}
	fileOf := func(label string) string {
		best, n := "", 0
		for f, c := range files[label] {
			if c > n || c == n && f < best {
				best, n = f, c
			}
		}
		return best
	}

	// call tree: the nodes of the path column; a parent of another column
	// is skipped to the nearest path node above it
	cnodeOf := make([]int, len(s.Nodes))
	for i := range cnodeOf {
		cnodeOf[i] = -1
	}
	for i, n := range s.Nodes {
		if n.Column != pathName {
			continue
		}
		parent := -1
		for p := n.Parent; p != nil; p = s.Nodes[*p].Parent {
			if s.Nodes[*p].Column == pathName {
				parent = cnodeOf[*p]
				break
			}
		}
		label := labelText(n.Label)
		file := fileOf(label)
		r, added := b.Region(label, file)
		if added {
			rg := &b.E.Regions[r]
			rg.Role = "function"
			if pathName == "path" {
				rg.Role = "region"
			}
			if l, ok := minLine[label+"\x00"+file]; ok {
				rg.Begin = l
			}
			if o := objects[label]; o != "" {
				rg.Attrs = append(rg.Attrs, model.Attr{Key: "load module", Value: o})
			}
		}
		cnodeOf[i] = b.NewCnode(parent, r)
	}
	noPath := -1

	// system tree: a process per rank, a thread per thread id
	type place struct{ rank, thread float64 }
	placeOf := func(row []*float64) place {
		p := place{-1, -1}
		if rankCol >= 0 && row[rankCol] != nil {
			p.rank = *row[rankCol]
		}
		if threadCol >= 0 && row[threadCol] != nil {
			p.thread = *row[threadCol]
		}
		return p
	}
	var places []place
	seen := map[place]bool{}
	for _, row := range s.Data {
		if p := placeOf(row); !seen[p] {
			seen[p] = true
			places = append(places, p)
		}
	}
	if len(places) == 0 {
		places = append(places, place{-1, -1})
	}
	sort.Slice(places, func(i, j int) bool {
		if places[i].rank != places[j].rank {
			return places[i].rank < places[j].rank
		}
		return places[i].thread < places[j].thread
	})
	machine := b.TreeNode(-1, "machine", "machine")
	nodeSys := b.TreeNode(machine, "node", "node")
	procs := map[float64]int{}
	threads := map[int]int{}
	sys := map[place]int{}
	for _, p := range places {
		g, ok := procs[p.rank]
		if !ok {
			name, rank := "process", len(procs)
			if rankCol >= 0 {
				name = s.Columns[rankCol] + " " + num(p.rank)
				if p.rank < 0 {
					name = "no " + s.Columns[rankCol]
				}
				if p.rank >= 0 && p.rank == math.Trunc(p.rank) && p.rank < 1<<31 {
					rank = int(p.rank)
				}
			}
			g = b.Process(nodeSys, rank, name)
			procs[p.rank] = g
		}
		name := "thread"
		if threadCol >= 0 {
			name = s.Columns[threadCol] + " " + num(p.thread)
			if p.thread < 0 {
				name = "no " + s.Columns[threadCol]
			}
		}
		sys[p] = b.Location(g, threads[g], "thread", name)
		threads[g]++
	}
	cols := b.Columns()

	nl := len(b.E.Locations)
	vals := build.NewValues(len(metrics), nl)
	set := map[[3]int]bool{} // (cnode, metric, location) of min/max metrics that have a value
	for _, row := range s.Data {
		c := -1
		if p := row[pathCol]; p != nil {
			c = cnodeOf[int(*p)]
			if c < 0 {
				return nil, fmt.Errorf("a row's %q entry names node %v of column %s", pathName, *p, importer.Quote(s.Nodes[int(*p)].Column))
			}
		} else {
			if noPath < 0 {
				r, _ := b.Region("<no "+pathName+">", "")
				noPath = b.NewCnode(-1, r)
			}
			c = noPath
		}
		l := cols[sys[placeOf(row)]]
		for m, mc := range metrics {
			v := row[mc.col]
			if v == nil {
				continue
			}
			if mc.agg == model.Sum {
				vals.Add(c, m, l, *v)
				continue
			}
			// rows of one node and location combine by their min or max
			r, k := vals.Row(c), [3]int{c, m, l}
			if set[k] {
				r[m*nl+l] = mc.agg.Combine(r[m*nl+l], *v)
			} else {
				r[m*nl+l], set[k] = *v, true
			}
		}
	}
	for m, mc := range metrics {
		vals.Scale(m, mc.factor)
	}
	e := b.Finish(vals)
	for m, mc := range metrics {
		if mc.inclusive {
			if err := inclusiveToOwn(e, m); err != nil {
				return nil, err
			}
		}
	}
	if len(e.Cnodes) == 0 {
		return nil, fmt.Errorf("no %q nodes: an empty call tree", pathName)
	}
	return e, nil
}

// inclusiveToOwn turns metric m's inclusive values into own values:
// own = inclusive − Σ children's inclusive, per location.
func inclusiveToOwn(e *model.Experiment, m int) error {
	blk, err := e.Block(m)
	if err != nil {
		return err
	}
	own := model.NewBlock(len(e.Cnodes), e.NumLocations())
	for c := range e.Cnodes {
		row := blk.Row(c)
		if row == nil && len(e.Cnodes[c].Children) == 0 {
			continue
		}
		out := own.MutableRow(c)
		copy(out, row)
		for _, ch := range e.Cnodes[c].Children {
			for l, v := range blk.Row(ch) {
				out[l] -= v
			}
		}
	}
	own.Compact()
	e.SetBlock(m, own)
	return nil
}

// splitSourceLoc splits "file:line"; "UNKNOWN:0" has no file.
func splitSourceLoc(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0
	}
	file := s[:i]
	line, err := strconv.Atoi(s[i+1:])
	if err != nil || file == "UNKNOWN" {
		return "", 0
	}
	return file, line
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// columnUnit says what a value column measures, as metricUnit does for
// a .cali attribute; json-split does not give a column's type, so
// integral values stand for Caliper's integer types (Caliper 1.x counts
// microseconds).
func columnUnit(name string, k attrKind, s *splitJSON, c int) (unit string, dtype model.DataType, factor float64, note string) {
	integral := true
	for _, row := range s.Data {
		if v := row[c]; v != nil && (*v != math.Trunc(*v) || *v < 0) {
			integral = false
			break
		}
	}
	a := &calAttr{name: name, typ: "double"}
	if integral {
		a.typ = "uint"
	}
	ops, base := splitOps(name)
	unit, factor = metricUnit(a, ops, base)
	if k.count {
		unit, factor = "occ", 1
	}
	switch {
	case k.agg == model.Min:
		dtype = model.MinDouble
	case k.agg == model.Max:
		dtype = model.MaxDouble
	case integral && factor == 1 && unit != "sec":
		dtype = model.Uint64
	default:
		dtype = model.Double
	}
	switch factor {
	case 1e-6:
		note = ", microseconds converted to seconds"
	case 1e-9:
		note = ", nanoseconds converted to seconds"
	case 1e-3:
		note = ", milliseconds converted to seconds"
	}
	return unit, dtype, factor, note
}

// Detect recognises Caliper's json-split layout: a JSON object whose
// first key is one of its tables, or a .json file naming
// "column_metadata" in its first bytes.
func Detect(head []byte, path string) importer.Confidence {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return importer.No
	}
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	for _, k := range []string{`"data"`, `"columns"`, `"column_metadata"`, `"nodes"`} {
		if bytes.HasPrefix(t, []byte(k)) {
			if k == `"nodes"` && (!bytes.Contains(head, []byte(`"column"`)) || bytes.Contains(head, []byte(`"callFrame"`))) {
				// A Chrome or V8 .cpuprofile also starts with "nodes",
				// whose entries have a callFrame, not a column.
				return importer.No
			}
			return importer.Likely
		}
	}
	if strings.EqualFold(filepath.Ext(path), ".json") && bytes.Contains(head, []byte(`"column_metadata"`)) {
		return importer.Likely
	}
	return importer.No
}
