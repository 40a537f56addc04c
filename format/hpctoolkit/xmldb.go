package hpctoolkit

import (
	"bufio"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// Scope kinds of the XML database's call path profile.
const (
	scopePF = iota // procedure frame: a called procedure
	scopePr        // procedure (inlined, "alien" code)
	scopeL         // loop
	scopeC         // call site
	scopeS         // statement
)

var scopeKinds = map[string]int{"PF": scopePF, "Pr": scopePr, "L": scopeL, "C": scopeC, "S": scopeS}

// scope is one node of the XML database's calling context tree.
type scope struct {
	kind   int
	id     int    // node id; the metric-db row is id-1
	parent int    // index in xmlDB.scopes, -1 for a root
	name   string // procedure name (PF, Pr)
	file   string
	line   int
	module string // load module (PF, Pr)
}

// xmlMetric is a metric of the MetricDBTable (per-thread values) or, when
// the database has no metric-db files, of the MetricTable (summary values).
type xmlMetric struct {
	id        int
	name      string
	inclusive bool // "t" is "inclusive"; otherwise exclusive
	// raw marks a metric of measured values where they were measured
	// ("t" is "nil", as hpcprof writes per-thread metrics "X.[0,0]"):
	// neither inclusive nor exclusive, nothing to take away
	raw     bool
	partner int // the id of the other variant, -1 if none
	dbID    int // column in a metric-db row
}

// xmlDB is what experiment.xml says.
type xmlDB struct {
	title     string
	dbMetrics []xmlMetric
	sumMetric []xmlMetric
	numDB     int // db-num-metrics
	scopes    []scope
	summary   map[[2]int]float64 // (scope index, MetricTable id) → value; scope -1 is the root
	maxID     int
}

// parseExperimentXML reads experiment.xml.
func parseExperimentXML(r io.Reader, name string) (*xmlDB, error) {
	db := &xmlDB{summary: map[[2]int]float64{}}
	dec := xml.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	dec.Strict = true
	procs, files, modules := map[string]string{}, map[string]string{}, map[string]string{}
	var stack []int // indices of open scope elements (-1 for other elements inside the data)
	inData := false
	seenRoot := false
	ids := map[int]bool{}
	lookup := func(table map[string]string, v string) string {
		if s, ok := table[v]; ok {
			return s
		}
		return v // the DTD allows the name itself instead of an id
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, _ := dec.InputPos()
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		line, _ := dec.InputPos()
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			a := attrs(t.Attr)
			if !seenRoot {
				if t.Name.Local != "HPCToolkitExperiment" {
					return nil, bad("root element <%s>, not <HPCToolkitExperiment>", elementName(t.Name.Local))
				}
				seenRoot = true
				continue
			}
			switch t.Name.Local {
			case "Header":
				db.title = a["n"]
			case "Metric", "MetricDB":
				id, err := strconv.Atoi(a["i"])
				if err != nil {
					return nil, bad("<%s> with bad id %s", elementName(t.Name.Local), importer.Quote(a["i"]))
				}
				m := xmlMetric{id: id, name: a["n"], inclusive: a["t"] == "inclusive", raw: a["t"] == "nil", partner: -1, dbID: -1}
				if p, err := strconv.Atoi(a["partner"]); err == nil {
					m.partner = p
				}
				if t.Name.Local == "Metric" {
					db.sumMetric = append(db.sumMetric, m)
					break
				}
				if m.dbID, err = strconv.Atoi(a["db-id"]); err != nil || m.dbID < 0 || m.dbID > 1<<16 {
					return nil, bad("<MetricDB i=%s> with bad db-id %s", importer.Quote(a["i"]), importer.Quote(a["db-id"]))
				}
				n, err := strconv.Atoi(a["db-num-metrics"])
				if err != nil || n <= m.dbID || n > 1<<16 {
					return nil, bad("<MetricDB i=%s> with bad db-num-metrics %s", importer.Quote(a["i"]), importer.Quote(a["db-num-metrics"]))
				}
				db.numDB = max(db.numDB, n)
				db.dbMetrics = append(db.dbMetrics, m)
			case "LoadModule":
				modules[a["i"]] = a["n"]
			case "File":
				files[a["i"]] = a["n"]
			case "Procedure":
				procs[a["i"]] = a["n"]
			case "SecCallPathProfileData":
				inData = true
			case "M":
				if !inData {
					break
				}
				id, err := strconv.Atoi(a["n"])
				if err != nil {
					return nil, bad("<M> with bad metric id %s", importer.Quote(a["n"]))
				}
				v, err := strconv.ParseFloat(a["v"], 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, bad("<M n=%s> with bad value %s", importer.Quote(a["n"]), importer.Quote(a["v"]))
				}
				owner := -1
				if len(stack) > 0 {
					owner = stack[len(stack)-1]
				}
				db.summary[[2]int{owner, id}] += v
			default:
				kind, ok := scopeKinds[t.Name.Local]
				if !ok || !inData {
					if inData {
						stack = append(stack, -1)
					}
					break
				}
				id, err := strconv.Atoi(a["i"])
				if err != nil || id < 1 {
					return nil, bad("<%s> with bad node id %s", elementName(t.Name.Local), importer.Quote(a["i"]))
				}
				if id > maxNodeID {
					// Values are held per node id: a huge id would take
					// gigabytes for one node.
					return nil, bad("<%s> with node id %d, more than %d", elementName(t.Name.Local), id, maxNodeID)
				}
				if ids[id] {
					return nil, bad("node id %d occurs twice", id)
				}
				ids[id] = true
				db.maxID = max(db.maxID, id)
				parent := -1
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] >= 0 {
						parent = stack[i]
						break
					}
				}
				sc := scope{kind: kind, id: id, parent: parent, line: -1}
				if l, err := strconv.Atoi(strings.SplitN(a["l"], "-", 2)[0]); err == nil {
					sc.line = l
				}
				if f, ok := a["f"]; ok {
					sc.file = lookup(files, f)
				} else if parent >= 0 {
					sc.file = db.scopes[parent].file
				}
				if kind == scopePF || kind == scopePr {
					sc.name = lookup(procs, a["n"])
					sc.module = lookup(modules, a["lm"])
				}
				db.scopes = append(db.scopes, sc)
				stack = append(stack, len(db.scopes)-1)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "SecCallPathProfileData":
				inData = false
			default:
				if _, ok := scopeKinds[t.Name.Local]; ok && inData && len(stack) > 0 {
					stack = stack[:len(stack)-1]
				} else if inData && t.Name.Local != "M" && len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	if !seenRoot {
		return nil, fmt.Errorf("%s: no <HPCToolkitExperiment> element", name)
	}
	if len(db.scopes) == 0 {
		return nil, fmt.Errorf("%s: no calling context tree (<SecCallPathProfileData>)", name)
	}
	return db, nil
}

// elementName returns an XML element's name for a message, quoted and
// cut only when it is longer than a message should hold.
func elementName(n string) string {
	if len(n) <= importer.MaxQuote {
		return n
	}
	return importer.Quote(n)
}

func attrs(as []xml.Attr) map[string]string {
	m := make(map[string]string, len(as))
	for _, a := range as {
		m[a.Name.Local] = a.Value
	}
	return m
}

// metricDBName parses "<prefix>-<rank>-<thread>-<hostid>-<pid>-<gen>.metric-db".
var metricDBName = regexp.MustCompile(`-(\d+)-(\d+)-([0-9a-fA-F]+)-(\d+)-(\d+)\.metric-db$`)

// profileFile is one thread's metric-db file.
type profileFile struct {
	path         string
	rank, thread int
	host         string
}

const metricDBTag = "HPCPROF-metricdb__"

// readMetricDB reads one metric-db file: numNodes rows of numMetrics
// maxNodeID bounds the node ids of experiment.xml (hpcprof numbers the
// nodes of the calling context tree from 1; real databases have up to
// some hundred thousand).
const maxNodeID = 1 << 24

// big-endian doubles after a 32-byte header.
func readMetricDB(path string, wantMetrics, maxID int) (rows []float64, nodes int, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	return parseMetricDB(path, data, wantMetrics, maxID)
}

// parseMetricDB reads the data of a metric-db file.
func parseMetricDB(path string, data []byte, wantMetrics, maxID int) (rows []float64, nodes int, err error) {
	if len(data) < 32 {
		return nil, 0, fmt.Errorf("%s: truncated header (%d bytes)", path, len(data))
	}
	hdr := data[:32]
	if string(hdr[:len(metricDBTag)]) != metricDBTag {
		return nil, 0, fmt.Errorf("%s: not a metric-db file (wrong magic %q)", path, hdr[:len(metricDBTag)])
	}
	if hdr[23] != 'b' {
		return nil, 0, fmt.Errorf("%s: byte order %q not supported (only big-endian metric-db files are written)", path, hdr[23])
	}
	numNodes := int(int32(binary.BigEndian.Uint32(hdr[24:])))
	numMetrics := int(int32(binary.BigEndian.Uint32(hdr[28:])))
	if numNodes < 0 || numMetrics < 0 {
		return nil, 0, fmt.Errorf("%s: negative size in the header (%d nodes, %d metrics)", path, numNodes, numMetrics)
	}
	if numMetrics != wantMetrics {
		return nil, 0, fmt.Errorf("%s: %d metrics per node, experiment.xml says %d", path, numMetrics, wantMetrics)
	}
	if numNodes < maxID {
		return nil, 0, fmt.Errorf("%s: %d nodes, but experiment.xml has node id %d", path, numNodes, maxID)
	}
	size := int64(numNodes) * int64(numMetrics) * 8
	if 32+size > int64(len(data)) {
		return nil, 0, fmt.Errorf("%s: truncated: %d nodes × %d metrics need %d bytes of data, the file has %d", path, numNodes, numMetrics, size, len(data)-32)
	}
	raw := data[32:]
	rows = make([]float64, numNodes*numMetrics)
	for i := range rows {
		v := math.Float64frombits(binary.BigEndian.Uint64(raw[8*i:]))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("%s: value %v at node id %d, metric %d", path, v, i/numMetrics+1, i%numMetrics)
		}
		rows[i] = v
	}
	return rows, numNodes, nil
}

// openXML reads an XML database directory.
func openXML(dir string, opts importer.Options) (*model.Experiment, error) {
	xmlPath := filepath.Join(dir, "experiment.xml")
	f, err := os.Open(xmlPath)
	if err != nil {
		return nil, err
	}
	db, err := parseExperimentXML(f, xmlPath)
	f.Close()
	if err != nil {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.metric-db"))
	sort.Strings(files)
	var profiles []profileFile
	for _, path := range files {
		m := metricDBName.FindStringSubmatch(filepath.Base(path))
		if m == nil {
			return nil, fmt.Errorf("%s: metric-db file name does not say rank, thread and host", path)
		}
		rank, err1 := strconv.Atoi(m[1])
		thread, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: bad rank or thread in the file name", path)
		}
		profiles = append(profiles, profileFile{path: path, rank: rank, thread: thread, host: m[3]})
	}
	e, totals, err := xmlExperiment(db, profiles, func(p profileFile) ([]float64, error) {
		rows, _, err := readMetricDB(p.path, db.numDB, db.maxID)
		return rows, err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", xmlPath, err)
	}
	if missing := missingProfiles(db, profiles, totals); missing != "" {
		if opts.Strict {
			return nil, fmt.Errorf("%s: %s", dir, missing)
		}
		e.Warnings = append(e.Warnings, dir+": "+missing)
	}
	return e, nil
}

// perThreadName matches hpcprof's per-thread metrics, "CPUTIME (sec).[0,1]"
// (rank 0, thread 1).
var perThreadName = regexp.MustCompile(`^(.*)\.\[(\d+),(\d+)\]$`)

// perThreadMetrics turns the per-thread metrics of experiment.xml
// ("X.[rank,thread]", each thread's values in the MetricTable) into the
// metric-db layout: one metric per base and variant, a profile per
// thread, and rows read from experiment.xml's values. It also names the
// summary metrics that the per-thread values make redundant.
func perThreadMetrics(db *xmlDB) ([]xmlMetric, []profileFile, func(profileFile) ([]float64, error), []string) {
	type variant struct {
		base      string
		inclusive bool
		raw       bool
	}
	var metrics []xmlMetric
	column := map[variant]int{}
	type thread struct{ rank, thread int }
	byThread := map[thread]map[int]int{} // thread → column → MetricTable id
	var profiles []profileFile
	var derived []string
	for _, m := range db.sumMetric {
		name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(m.name, " (I)"), " (E)"))
		match := perThreadName.FindStringSubmatch(name)
		if match == nil {
			continue
		}
		r, err1 := strconv.Atoi(match[2])
		t, err2 := strconv.Atoi(match[3])
		if err1 != nil || err2 != nil || r > 1<<24 || t > 1<<24 {
			continue
		}
		v := variant{match[1], m.inclusive, m.raw}
		col, ok := column[v]
		if !ok {
			col = len(metrics)
			column[v] = col
			suffix := " (E)"
			if m.inclusive {
				suffix = " (I)"
			}
			metrics = append(metrics, xmlMetric{id: col, name: v.base + suffix, inclusive: m.inclusive, raw: m.raw, partner: -1, dbID: col})
		}
		th := thread{r, t}
		if byThread[th] == nil {
			byThread[th] = map[int]int{}
			profiles = append(profiles, profileFile{path: fmt.Sprintf("rank %d thread %d", r, t), rank: r, thread: t})
		}
		byThread[th][col] = m.id
	}
	if len(metrics) == 0 {
		return nil, nil, nil, nil
	}
	for _, m := range db.sumMetric {
		name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(m.name, " (I)"), " (E)"))
		if perThreadName.MatchString(name) {
			continue
		}
		if _, stat, helper := splitStat(name); stat != "" && helper == "" && !slices.Contains(derived, name) {
			derived = append(derived, name)
		}
	}
	scopeOf := make(map[int]int, len(db.scopes))
	for i := range db.scopes {
		scopeOf[db.scopes[i].id] = i
	}
	rowsOf := func(p profileFile) ([]float64, error) {
		ids := byThread[thread{p.rank, p.thread}]
		rows := make([]float64, db.maxID*len(metrics))
		for id := 1; id <= db.maxID; id++ {
			s := -1 // node id 1 is the implicit root
			if id > 1 {
				var ok bool
				if s, ok = scopeOf[id]; !ok {
					continue
				}
			}
			for col, mid := range ids {
				rows[(id-1)*len(metrics)+col] = db.summary[[2]int{s, mid}]
			}
		}
		return rows, nil
	}
	return metrics, profiles, rowsOf, derived
}

// metricTotal is a sum metric's value at the root over every profile the
// database has files of.
type metricTotal struct {
	base  string // the HPCToolkit name without statistic and variant
	value float64
}

// missingProfiles says what metric-db files a database lacks, judged by
// the numbering of ranks and threads in the file names and by the totals
// that experiment.xml states (a metric's :Sum at the root) against those
// of the files; "" when nothing is missing.
func missingProfiles(db *xmlDB, profiles []profileFile, totals []metricTotal) string {
	if len(profiles) == 0 {
		return ""
	}
	var parts []string
	// ranks are numbered from 0; each rank has the CPU threads of the others
	ranks := map[int]map[int]bool{}
	threads := map[int]bool{}
	maxRank := 0
	for _, p := range profiles {
		if ranks[p.rank] == nil {
			ranks[p.rank] = map[int]bool{}
		}
		if p.thread < 500 { // not a GPU stream
			ranks[p.rank][p.thread] = true
			threads[p.thread] = true
		}
		maxRank = max(maxRank, p.rank)
	}
	var gaps []string
	for r := 0; r <= maxRank && len(gaps) < 10; r++ {
		if ranks[r] == nil {
			gaps = append(gaps, "rank "+strconv.Itoa(r))
		}
	}
	if len(gaps) > 0 {
		parts = append(parts, "no metric-db file of "+strings.Join(gaps, ", ")+fmt.Sprintf(" (files of %d ranks, numbered up to %d)", len(ranks), maxRank))
	}
	var short []string
	for r := 0; r <= maxRank && len(short) < 10; r++ {
		if ranks[r] == nil {
			continue
		}
		for t := range threads {
			if !ranks[r][t] && len(short) < 10 {
				short = append(short, fmt.Sprintf("rank %d thread %d", r, t))
			}
		}
	}
	sort.Strings(short)
	if len(short) > 0 {
		parts = append(parts, "no metric-db file of "+strings.Join(short, ", ")+" (other ranks have these threads)")
	}
	// totals: experiment.xml's :Sum at the root against the files'
	for _, t := range totals {
		stated, ok := rootSum(db, t.base)
		if !ok || stated == 0 {
			continue
		}
		if diff := stated - t.value; math.Abs(diff) > 1e-5*math.Abs(stated) {
			parts = append(parts, fmt.Sprintf("experiment.xml states %s:Sum = %g at the root, the %d metric-db files hold %g (%.1f %%)",
				t.base, stated, len(profiles), t.value, 100*t.value/stated))
			break
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": the database is incomplete, its values are of the files present"
}

// rootSum returns experiment.xml's summary value base:Sum (inclusive) at
// the implicit root.
func rootSum(db *xmlDB, base string) (float64, bool) {
	for _, m := range db.sumMetric {
		name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(m.name, " (I)"), " (E)"))
		if b, stat, helper := splitStat(name); m.inclusive && b == base && stat == "Sum" && helper == "" {
			v, ok := db.summary[[2]int{-1, m.id}]
			return v, ok
		}
	}
	return 0, false
}

// xmlExperiment builds the experiment from experiment.xml and the
// metric-db files, read by rows.
// It also returns, of each sum metric read from the files, its total at
// the root over all files.
func xmlExperiment(db *xmlDB, profiles []profileFile, rowsOf func(profileFile) ([]float64, error)) (*model.Experiment, []metricTotal, error) {
	b := build.New("HPCToolkit database (experiment.xml)")
	b.Attr("Creator", "HPCToolkit")
	b.Attr("HPCToolkit title", db.title)
	metrics := db.dbMetrics
	var derived []string
	if len(profiles) == 0 {
		if m, pf, rows, left := perThreadMetrics(db); len(m) > 0 {
			// per-thread metrics "X.[rank,thread]" in experiment.xml
			metrics, profiles, rowsOf, derived = m, pf, rows, left
			db.numDB = len(m)
		}
	}
	if len(profiles) == 0 || len(metrics) == 0 {
		// summary only: the values in experiment.xml, one location
		metrics, profiles = db.sumMetric, nil
	}
	pairs, leftOut, err := pairMetrics(metrics)
	if err != nil {
		return nil, nil, err
	}
	leftOut = append(leftOut, derived...)
	var totals []metricTotal
	if profiles != nil {
		totals = make([]metricTotal, len(pairs))
	}
	for _, p := range pairs {
		m := b.Metric(p.uniq, p.uniq, p.unit, dataType(p.agg), p.descr)
		if p.base != "" {
			b.E.Metrics[m].Attrs = []model.Attr{{Key: "HPCToolkit metric", Value: p.base}}
		}
	}
	if len(leftOut) > 0 {
		b.Attr("HPCToolkit statistics not imported (not sums, minima or maxima; a mean is its :Sum ÷ :Mean:num-src)", strings.Join(leftOut, ", "))
	}
	tree := buildXMLTree(b, db)
	var cols []int
	if profiles == nil {
		loc := b.SingleThread("machine", "node", "summary of all threads")
		cols = []int{b.Columns()[loc]}
	} else {
		cols = xmlSystem(b, profiles)
	}
	nl := len(b.E.Locations)
	vals := build.NewValues(len(pairs), nl)
	nodes := len(db.scopes)
	incl := make([]float64, db.maxID+1) // by node id; 0 is the implicit root
	excl := make([]float64, db.maxID+1)
	for pi := 0; pi < max(1, len(profiles)); pi++ {
		var rows []float64
		ncol := 0
		if profiles != nil {
			if rows, err = rowsOf(profiles[pi]); err != nil {
				return nil, nil, err
			}
			ncol = db.numDB
		}
		for m, p := range pairs {
			value := func(x *xmlMetric, id int) float64 {
				if x == nil {
					return 0
				}
				if rows != nil {
					return rows[(id-1)*ncol+x.dbID]
				}
				s := -1
				if id > 1 {
					var ok bool
					if s, ok = tree.byID[id]; !ok {
						return 0
					}
				}
				return db.summary[[2]int{s, x.id}]
			}
			for i := 0; i <= db.maxID; i++ {
				incl[i], excl[i] = 0, 0
			}
			for id := 1; id <= db.maxID; id++ {
				incl[id] = value(p.incl, id)
				excl[id] = value(p.excl, id)
			}
			if totals != nil && !p.asWritten && p.incl != nil {
				totals[m].base = p.base
				totals[m].value += incl[1]
			}
			var own []float64
			if p.asWritten {
				own = writtenValues(db, incl, excl, p)
			} else {
				own = ownValues(db, tree, incl, excl, p)
			}
			for s := 0; s < nodes; s++ {
				if own[s] != 0 {
					vals.Add(tree.cnode[s], m, cols[pi], own[s]*p.factor)
				}
			}
			if own[nodes] != 0 { // cost of the implicit root itself
				vals.Add(tree.rootCnode(b), m, cols[pi], own[nodes]*p.factor)
			}
		}
	}
	return b.Finish(vals), totals, nil
}

// xmlTree maps the XML scopes to cnodes.
type xmlTree struct {
	cnode []int // per scope: its cnode (call sites: the enclosing cnode)
	byID  map[int]int
	root  int // cnode for costs of the implicit root, -1 until needed
}

func (t *xmlTree) rootCnode(b *build.Builder) int {
	if t.root < 0 {
		r, _ := b.Region("<experiment root>", "")
		t.root = b.NewCnode(-1, r)
	}
	return t.root
}

// buildXMLTree turns procedure frames, inlined procedures, loops and
// statements into cnodes; a call site is no cnode of its own, its line
// becomes the call line of the frames below it.
func buildXMLTree(b *build.Builder, db *xmlDB) *xmlTree {
	t := &xmlTree{cnode: make([]int, len(db.scopes)), byID: map[int]int{}, root: -1}
	for i := range db.scopes {
		sc := &db.scopes[i]
		t.byID[sc.id] = i
		parent := -1
		if sc.parent >= 0 {
			parent = t.cnode[sc.parent]
		}
		if sc.kind == scopeC {
			if parent < 0 {
				r, _ := b.Region("<call site>", sc.file)
				parent = b.NewCnode(-1, r)
			}
			t.cnode[i] = parent
			continue
		}
		var reg int
		switch sc.kind {
		case scopePF, scopePr:
			r, added := b.Region(sc.name, sc.file)
			if added {
				rg := &b.E.Regions[r]
				rg.Role = "function"
				if sc.line > 0 {
					rg.Begin = sc.line
				}
				if sc.module != "" {
					rg.Attrs = append(rg.Attrs, model.Attr{Key: "load module", Value: sc.module})
				}
			}
			reg = r
		case scopeL:
			r, added := b.Region(fmt.Sprintf("loop at %s:%d", filepath.Base(sc.file), sc.line), sc.file)
			if added {
				rg := &b.E.Regions[r]
				rg.Role, rg.Begin = "loop", sc.line
			}
			reg = r
		case scopeS:
			r, added := b.Region(fmt.Sprintf("%s:%d", filepath.Base(sc.file), sc.line), sc.file)
			if added {
				rg := &b.E.Regions[r]
				rg.Role, rg.Begin, rg.End = "statement", sc.line, sc.line
			}
			reg = r
		}
		c := b.NewCnode(parent, reg)
		cn := &b.E.Cnodes[c]
		if sc.kind == scopePr {
			cn.Attrs = append(cn.Attrs, model.Attr{Key: "inlined", Value: "true"})
		}
		if sc.parent >= 0 && db.scopes[sc.parent].kind == scopeC && (sc.kind == scopePF || sc.kind == scopePr) {
			call := &db.scopes[sc.parent]
			if call.line > 0 {
				cn.CallLine = call.line
				if p := call.parent; p >= 0 {
					cn.CallFile = db.scopes[p].file
				}
			}
		}
		t.cnode[i] = c
	}
	return t
}

// ownValues returns each scope's own value (and, at index len(scopes), the
// implicit root's): its inclusive value less its children's, which is
// exact whatever a scope's exclusive value holds (a procedure's includes
// all its loops' statements, a loop's only its own statements, not its
// nested loops'). Only a metric without an inclusive variant is taken
// from its exclusive values: a scope's exclusive value without those of
// the scopes nested in it.
func ownValues(db *xmlDB, t *xmlTree, incl, excl []float64, p metricPair) []float64 {
	n := len(db.scopes)
	own := make([]float64, n+1)
	if p.incl != nil {
		for s := range db.scopes {
			own[s] += incl[db.scopes[s].id]
			if pa := db.scopes[s].parent; pa >= 0 {
				own[pa] -= incl[db.scopes[s].id]
			} else {
				own[n] -= incl[db.scopes[s].id]
			}
		}
		own[n] += incl[1]
		return own
	}
	own[n] = excl[1]
	for s := range db.scopes {
		sc := &db.scopes[s]
		own[s] += excl[sc.id]
		if sc.kind == scopePF {
			continue // a called procedure's cost is not its caller's exclusive cost
		}
		if sc.parent < 0 {
			own[n] -= excl[sc.id]
		} else {
			own[sc.parent] -= excl[sc.id]
		}
	}
	return own
}

// dataType is the data type of a metric of aggregation agg.
func dataType(agg model.Aggregation) model.DataType {
	switch agg {
	case model.Min:
		return model.MinDouble
	case model.Max:
		return model.MaxDouble
	}
	return model.Double
}

// writtenValues returns each scope's value of a statistic that is not a
// sum (and at index len(scopes) the implicit root's): its exclusive value
// as written, or its inclusive one where it has no exclusive variant.
func writtenValues(db *xmlDB, incl, excl []float64, p metricPair) []float64 {
	src := excl
	if p.excl == nil {
		src = incl
	}
	own := make([]float64, len(db.scopes)+1)
	for s := range db.scopes {
		own[s] = src[db.scopes[s].id]
	}
	if p.excl == nil {
		own[len(db.scopes)] = 0 // the root's inclusive value is its callees'
	} else {
		own[len(db.scopes)] = excl[1]
	}
	return own
}

// metricPair is one experiment metric from an inclusive and an exclusive
// HPCToolkit metric (either may be missing).
type metricPair struct {
	uniq, unit, descr string
	factor            float64
	incl, excl        *xmlMetric
	// asWritten marks a statistic that is not a sum (a minimum, a
	// maximum, a count of threads): its own values are its exclusive
	// values as HPCToolkit wrote them, or its inclusive ones.
	asWritten bool
	agg       model.Aggregation
	base      string // the HPCToolkit name without statistic and variant
}

// Summary statistics over threads that hpcprof adds to a metric "X" as
// "X:Sum", "X:Mean", … and the helpers of some of them ("X:Mean:num-src").
var (
	summaryStats = map[string]bool{"Sum": true, "Mean": true, "StdDev": true, "CfVar": true, "CoefVar": true, "Min": true, "Max": true}
	statHelpers  = map[string]bool{"num-src": true, "accum2": true}
)

// splitStat splits an HPCToolkit metric name (without " (I)"/" (E)") into
// its base, its summary statistic and the statistic's helper:
// "CPUTIME (usec):Mean:num-src" → "CPUTIME (usec)", "Mean", "num-src".
func splitStat(name string) (base, stat, helper string) {
	base = name
	if i := strings.LastIndexByte(base, ':'); i > 0 && statHelpers[base[i+1:]] {
		base, helper = base[:i], base[i+1:]
	}
	if i := strings.LastIndexByte(base, ':'); i > 0 && summaryStats[base[i+1:]] {
		base, stat = base[:i], base[i+1:]
	}
	if stat == "" && helper != "" { // "X:num-src" alone: part of the name
		base, helper = name, ""
	}
	return base, stat, helper
}

// pairMetrics joins inclusive and exclusive variants ("X (I)" and "X (E)",
// or partners) into one metric each. A metric and its summary statistics
// over threads (X:Sum, X:Mean, … as hpcprof writes them beside the
// per-thread metric) become: the sum (X:Sum, or X itself where there is
// no X:Sum), the minimum and maximum with their kinds, the mean as its
// sum and the count of threads behind it (X:Mean:num-src); the
// statistics that are not sums, minima or maxima are returned in
// leftOut.
func pairMetrics(ms []xmlMetric) (out []metricPair, leftOut []string, err error) {
	type group struct {
		base, stat, helper string
		incl, excl         *xmlMetric
	}
	var groups []*group
	byKey := map[[3]string]*group{}
	for i := range ms {
		m := &ms[i]
		name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(m.name, " (I)"), " (E)"))
		base, stat, helper := splitStat(name)
		if base == "" {
			return nil, nil, fmt.Errorf("metric %d (%s) has no name", m.id, importer.Quote(m.name))
		}
		if strings.EqualFold(stat, "sum") && helper == "" {
			stat = "Sum"
		}
		if m.raw && helper == "" {
			helper = "raw"
		}
		k := [3]string{base, stat, helper}
		g, ok := byKey[k]
		if !ok {
			g = &group{base: base, stat: stat, helper: helper}
			byKey[k] = g
			groups = append(groups, g)
		}
		label := name
		if m.inclusive {
			if g.incl != nil {
				return nil, nil, fmt.Errorf("metric %s has two inclusive variants", importer.Quote(label))
			}
			g.incl = m
		} else {
			if g.excl != nil {
				return nil, nil, fmt.Errorf("metric %s has two exclusive variants", importer.Quote(label))
			}
			g.excl = m
		}
	}
	seenLeft := map[string]bool{}
	leave := func(name string) {
		if !seenLeft[name] {
			seenLeft[name] = true
			leftOut = append(leftOut, name)
		}
	}
	var bases []string
	for _, g := range groups {
		switch {
		case g.stat == "" && g.helper == "":
			if byKey[[3]string{g.base, "Sum", ""}] != nil {
				continue // the per-thread metric's sum over threads is X:Sum
			}
			out = append(out, metricPair{descr: "HPCToolkit metric " + g.base, incl: g.incl, excl: g.excl, agg: model.Sum, base: g.base})
		case g.stat == "Sum" && g.helper == "":
			out = append(out, metricPair{descr: "HPCToolkit metric " + g.base + " (:Sum over threads)", incl: g.incl, excl: g.excl, agg: model.Sum, base: g.base})
		case (g.stat == "Min" || g.stat == "Max") && g.helper == "":
			agg := model.Min
			if g.stat == "Max" {
				agg = model.Max
			}
			out = append(out, metricPair{descr: "HPCToolkit summary statistic " + g.base + ":" + g.stat +
				" over threads, per context as written (exclusive values where HPCToolkit wrote them)",
				incl: g.incl, excl: g.excl, asWritten: true, agg: agg})
		case g.stat == "Mean" && g.helper == "num-src":
			out = append(out, metricPair{descr: "HPCToolkit " + g.base + ":Mean's count: the threads with a value at the context " +
				"(exclusive), so that " + g.base + ":Mean = " + g.base + ":Sum ÷ this",
				incl: g.incl, excl: g.excl, asWritten: true, agg: model.Sum})
			bases = append(bases, "")
			continue
		case g.helper == "raw":
			out = append(out, metricPair{descr: "HPCToolkit metric " + g.base + " (measured values where they were measured)",
				incl: g.incl, excl: g.excl, asWritten: true, agg: model.Sum, base: g.base})
		case g.helper == "":
			leave(g.base + ":" + g.stat)
			continue
		default:
			continue // helpers of statistics that are left out
		}
		bases = append(bases, g.base)
	}
	var unique []string
	index := map[string]int{}
	for _, b := range bases {
		if _, ok := index[b]; !ok && b != "" {
			index[b] = len(unique)
			unique = append(unique, b)
		}
	}
	named := metricNames(unique)
	for i := range out {
		p := &out[i]
		switch {
		case bases[i] == "": // a count
			g := p.excl
			if g == nil {
				g = p.incl
			}
			b, _, _ := splitStat(strings.TrimSuffix(strings.TrimSuffix(g.name, " (I)"), " (E)"))
			p.uniq, p.unit, p.factor = b+":Mean:num-src", "occ", 1
		default:
			n := named[index[bases[i]]]
			p.uniq, p.unit, p.factor = n.uniq, n.unit, n.factor
			switch p.agg {
			case model.Min:
				p.uniq += ":Min"
			case model.Max:
				p.uniq += ":Max"
			}
		}
		if p.excl == nil && p.incl == nil {
			return nil, nil, errors.New("metric without values")
		}
		if p.factor != 1 {
			p.descr += ", converted to seconds"
		}
	}
	return out, leftOut, nil
}

// metricUnit splits a unit suffix off an HPCToolkit metric name:
// "CPUTIME (usec)" is CPUTIME in seconds (values times 1e-6).
func metricUnit(name string) (uniq, unit string, factor float64) {
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		base, suffix := name[:i], strings.ToLower(name[i+2:len(name)-1])
		switch suffix {
		case "usec", "us", "microseconds":
			return base, "sec", 1e-6
		case "msec", "ms", "milliseconds":
			return base, "sec", 1e-3
		case "nsec", "ns", "nanoseconds":
			return base, "sec", 1e-9
		case "sec", "s", "seconds":
			return base, "sec", 1
		case "b", "bytes":
			return base, "bytes", 1
		}
	}
	return name, "occ", 1
}

// xmlSystem builds host → rank → thread from the metric-db files and
// returns each file's data column.
func xmlSystem(b *build.Builder, profiles []profileFile) []int {
	sorted := make([]int, len(profiles))
	for i := range sorted {
		sorted[i] = i
	}
	sort.Slice(sorted, func(i, j int) bool {
		a, c := profiles[sorted[i]], profiles[sorted[j]]
		if a.rank != c.rank {
			return a.rank < c.rank
		}
		return a.thread < c.thread
	})
	m := b.TreeNode(-1, "machine", "machine")
	nodes := map[string]int{}
	procs := map[int]int{}
	sys := make([]int, len(profiles))
	for _, i := range sorted {
		pf := profiles[i]
		n, ok := nodes[pf.host]
		if !ok {
			name := "host " + pf.host
			if pf.host == "" {
				name = "node"
			}
			n = b.TreeNode(m, "node", name)
			nodes[pf.host] = n
		}
		g, ok := procs[pf.rank]
		if !ok {
			g = b.Process(n, pf.rank, "rank "+strconv.Itoa(pf.rank))
			procs[pf.rank] = g
		}
		class, name := "thread", "thread "+strconv.Itoa(pf.thread)
		if pf.thread >= 500 { // GPU streams of HPCToolkit 2021 databases
			class, name = "gpu", "GPU stream "+strconv.Itoa(pf.thread-500)
		}
		sys[i] = b.Location(g, pf.thread, class, name)
	}
	cols := b.Columns()
	out := make([]int, len(profiles))
	for i, s := range sys {
		out[i] = cols[s]
	}
	return out
}

// A metricName is the experiment's name, unit and conversion factor for
// an HPCToolkit metric.
type metricName struct {
	uniq, unit string
	factor     float64
}

// metricNames names metrics whose HPCToolkit names are distinct and not
// empty. Each gets its name without the unit suffix, converted (see
// metricUnit), unless another metric comes to the same name that way:
// then it keeps its name as written and its values as stored, so that
// "time (usec)" and "time (sec)" stay two metrics with correct units.
// The names returned are unique and not empty.
func metricNames(names []string) []metricName {
	out := make([]metricName, len(names))
	for i, n := range names {
		out[i].uniq, out[i].unit, out[i].factor = metricUnit(n)
	}
	asWritten := func(i int) {
		n := names[i]
		if out[i].factor != 1 { // a time suffix: keep it as the unit
			out[i].unit = strings.ToLower(n[strings.LastIndex(n, " (")+2 : len(n)-1])
		}
		out[i].uniq, out[i].factor = n, 1
	}
	// Each round turns at least one stripped name back into the name as
	// written, so this ends after len(names) rounds at most.
	for changed := true; changed; {
		changed = false
		count := make(map[string]int, len(out))
		for _, n := range out {
			count[n.uniq]++
		}
		for i := range out {
			if count[out[i].uniq] > 1 && out[i].uniq != names[i] {
				asWritten(i)
				changed = true
			}
		}
	}
	// Names as written that are empty or repeated (callers reject those
	// databases; this keeps the result valid regardless).
	used := make(map[string]bool, len(out))
	for i := range out {
		if out[i].uniq == "" || used[out[i].uniq] {
			base := out[i].uniq
			if base == "" {
				base = "metric"
			}
			for k := i + 1; used[out[i].uniq] || out[i].uniq == ""; k++ {
				out[i].uniq = fmt.Sprintf("%s #%d", base, k)
			}
		}
		used[out[i].uniq] = true
	}
	return out
}
