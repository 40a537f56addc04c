package caliper

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// Cali is Caliper's native .cali record stream in the registry of
// formats.
var Cali = importer.Format{
	Name:   "Caliper .cali",
	Tool:   "Caliper",
	Files:  "Caliper `.cali` files (region profiles, spot and RAJAPerf profiles with Adiak metadata, traces)",
	Detect: DetectCali,
	Read:   ReadCali,
}

// ReadCali reads the Caliper .cali file at path (gzip-compressed or not).
func ReadCali(path string, _ importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseCali(f, path)
}

// ParseCali reads a Caliper .cali stream from r; name is used in errors.
func ParseCali(r io.Reader, name string) (*model.Experiment, error) {
	p := newCaliProfile(name)
	s := newCalScanner(r, name)
	p.db = s.db
	for {
		rec, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err // naming the file (and line), wrapping a read error
		}
		if err := p.record(rec); err != nil {
			return nil, s.errorf("%v", err)
		}
	}
	if s.line == 0 {
		return nil, fmt.Errorf("%s: empty: no Caliper records", name)
	}
	e, err := p.experiment()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return e, nil
}

// DetectCali recognises a .cali record stream by its first record.
func DetectCali(head []byte, _ string) importer.Confidence {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for _, kind := range []string{"node", "ctx", "globals"} {
		if bytes.HasPrefix(head, []byte("__rec="+kind+",")) {
			return importer.Certain
		}
	}
	return importer.No
}

// Attributes that place a record in the system tree.
var (
	caliRankAttrs   = []string{"mpi.rank", "rank"}
	caliThreadAttrs = []string{"omp.thread.id", "pthread.id", "thread.id", "cali.thread.id"}
)

// measurements are attributes without an aggregation prefix that hold a
// measurement even where Caliper does not mark them aggregatable (files
// of Caliper 1.x and early 2.x).
var measurements = map[string]bool{
	"time.duration": true, "time.duration.ns": true, "time.inclusive.duration": true,
	"time.inclusive.duration.ns": true, "count": true, "region.count": true,
}

// Aggregation operators of Caliper's CalQL as prefixes of attribute names
// ("sum#time.duration"). Each maps to how its values combine.
type caliOp uint8

const (
	opNone    caliOp = iota
	opSum            // sums, counts, scaled sums
	opMin            // minimum
	opMax            // maximum, and "any" (an arbitrary one of equal values)
	opMean           // a mean (avg): not additive
	opRatio          // ratios, percentages, variances: not additive
	opCounter        // a loop iteration counter ("iteration#loop"): not a measurement
)

var caliOps = map[string]caliOp{
	"sum": opSum, "inclusive": opSum, "count": opSum, "avg.sum": opSum, "avg.count": opSum,
	"scale": opSum, "iscale": opSum, "scsum": opSum, "iscsum": opSum, "scount": opSum,
	"var.sum": opSum, "var.count": opSum, "var.sqsum": opSum, "sr.sum": opSum, "isr.sum": opSum,
	"pct.sum": opSum, "ipct.sum": opSum,
	"min": opMin, "imin": opMin,
	"max": opMax, "imax": opMax, "any": opMax,
	"avg":   opMean,
	"ratio": opRatio, "iratio": opRatio, "variance": opRatio, "percent_total": opRatio,
	"ipercent_total": opRatio, "pct": opRatio, "ipct": opRatio,
	"iteration": opCounter,
}

// inclusiveOps are the operators whose values include the call path's
// descendants.
var inclusiveOps = map[string]bool{
	"inclusive": true, "imin": true, "imax": true, "iscale": true, "iscsum": true,
	"iratio": true, "isr.sum": true, "ipct.sum": true, "ipct": true, "ipercent_total": true,
}

// countOps count values: their results are counts whatever they count.
var countOps = map[string]bool{"count": true, "avg.count": true, "scount": true, "var.count": true}

// splitOps splits "min#inclusive#sum#time.duration" into its operators
// (min, inclusive, sum) and base attribute (time.duration).
func splitOps(name string) (ops []string, base string) {
	base = name
	for {
		op, rest, ok := strings.Cut(base, "#")
		if !ok || rest == "" {
			return ops, base
		}
		if _, known := caliOps[op]; !known {
			return ops, base
		}
		ops = append(ops, op)
		base = rest
	}
}

// caliMetric is a value attribute that becomes a metric.
type caliMetric struct {
	attr      *calAttr
	agg       model.Aggregation
	inclusive bool // sums of values that include the descendants' values
	count     bool // a count of records or values, whatever it counts
}

// trieNode is a call path: a value of a nested attribute under its
// parent path.
type trieNode struct {
	parent int32
	attr   string // the nested attribute, e.g. "function", "loop"
	label  string
	order  float64 // Caliper's node order (aggregate.slot), +Inf if none
}

type trieKey struct {
	parent int32
	attr   string
	label  string
}

// nodeCtx is what a metadata node and its ancestors say about a record
// that refers to it.
type nodeCtx struct {
	done             bool
	path             int32 // call path of the nested attributes, -1 none
	rank, thread     float64
	hasRank, hasThrd bool
	channel          string // spot.channel
	gpuKind, kernel  string // cupti.activity.kind, cupti.kernel.name
}

type locKey struct {
	rank, thread       float64
	hasRank, hasThread bool
}

type rowKey struct {
	path, loc int32
}

// caliProfile accumulates a .cali stream's records.
type caliProfile struct {
	name    string
	db      *calDB
	trie    []trieNode
	trieIdx map[trieKey]int32
	ctx     []nodeCtx // per metadata node, computed on first reference
	metrics []caliMetric
	locs    []locKey
	locIdx  map[locKey]int32
	rows    map[rowKey][]float64 // per metric; NaN where no record gave a value
	noPath  int32                // the path of records outside any region, -1 until needed
	mbuf    []int32              // a record's metrics and values
	vbuf    []float64

	globals    []model.Attr
	globalSeen map[string]int
	summedOver map[string]bool // context attributes records were combined over
	means      []string        // mean attributes left out
	otherChans map[string]int  // records of other spot channels, left out
	records    int
	legacy     bool // a Caliper 1.x stream: annotations form the call path
	hasRank    bool
	worldSize  string
}

func newCaliProfile(name string) *caliProfile {
	return &caliProfile{
		name: name, trieIdx: map[trieKey]int32{},
		locIdx: map[locKey]int32{}, rows: map[rowKey][]float64{}, noPath: -1,
		globalSeen: map[string]int{}, summedOver: map[string]bool{}, otherChans: map[string]int{},
	}
}

// global records a run metadata value (a repeated attribute's values
// join with ", ").
func (p *caliProfile) global(a *calAttr, value string, fresh map[string]bool) {
	if i, ok := p.globalSeen[a.name]; ok {
		if fresh != nil && fresh[a.name] {
			p.globals[i].Value += ", " + value
		}
		return
	}
	p.globalSeen[a.name] = len(p.globals)
	p.globals = append(p.globals, model.Attr{Key: a.name, Value: value})
	if fresh != nil {
		fresh[a.name] = true
	}
	if a.name == "mpi.world.size" || a.name == "jobsize" && p.worldSize == "" {
		p.worldSize = value
	}
}

// child returns the call path of label under parent, adding it when new.
func (p *caliProfile) child(parent int32, attr, label string) int32 {
	k := trieKey{parent, attr, label}
	if t, ok := p.trieIdx[k]; ok {
		return t
	}
	t := int32(len(p.trie))
	p.trie = append(p.trie, trieNode{parent: parent, attr: attr, label: label, order: math.Inf(1)})
	p.trieIdx[k] = t
	return t
}

// nodeContext returns what metadata node i and its ancestors say.
func (p *caliProfile) nodeContext(i int32) (*nodeCtx, error) {
	for len(p.ctx) < len(p.db.nodes) {
		p.ctx = append(p.ctx, nodeCtx{})
	}
	if p.ctx[i].done {
		return &p.ctx[i], nil
	}
	// the chain up to the first node already known, then down again
	var chain []int32
	for n := i; n >= 0 && !p.ctx[n].done; n = p.db.nodes[n].parent {
		chain = append(chain, n)
	}
	for k := len(chain) - 1; k >= 0; k-- {
		n := chain[k]
		c := nodeCtx{path: -1}
		if par := p.db.nodes[n].parent; par >= 0 {
			c = p.ctx[par]
		}
		node := &p.db.nodes[n]
		a := p.db.attr(node.attr)
		if a == nil {
			return nil, fmt.Errorf("node %d: its attribute %d is not defined", node.id, node.attr)
		}
		p.applyRef(&c, a, node.data)
		c.done = true
		p.ctx[n] = c
	}
	return &p.ctx[i], nil
}

// applyRef adds what a reference entry of attribute a says to c.
func (p *caliProfile) applyRef(c *nodeCtx, a *calAttr, data string) {
	switch {
	case a.global():
		p.global(a, data, nil)
	case a.nested(), p.legacy && p.legacyPathAttr(a):
		c.path = p.child(c.path, a.name, data)
	default:
		p.applyKey(c, a, data)
	}
}

// legacyPathAttr reports whether a reference attribute of a Caliper 1.x
// file, which marks no attribute nested, is an annotation that belongs
// to the call path: not Caliper's own, not a system-tree attribute, not
// a value.
func (p *caliProfile) legacyPathAttr(a *calAttr) bool {
	switch {
	case a.hidden(), a.asValue(), a.global(), a.id <= 11,
		strings.HasPrefix(a.name, "cali."), strings.HasPrefix(a.name, "event."),
		isOneOf(a.name, caliRankAttrs), isOneOf(a.name, caliThreadAttrs):
		return false
	}
	return true
}

// isCaliper1 reports whether the stream says it was written by Caliper
// 1.x, whose annotations are not nested attributes.
func (p *caliProfile) isCaliper1() bool {
	for i := range p.db.nodes {
		n := &p.db.nodes[i]
		if a := p.db.attr(n.attr); a != nil && a.name == "cali.caliper.version" {
			return strings.HasPrefix(n.data, "1.")
		}
	}
	return false
}

// applyKey adds an attribute that is neither global nor nested.
func (p *caliProfile) applyKey(c *nodeCtx, a *calAttr, data string) {
	switch {
	case isOneOf(a.name, caliRankAttrs):
		if v, err := strconv.ParseFloat(data, 64); err == nil && !c.hasRank {
			c.rank, c.hasRank = v, true
		}
	case isOneOf(a.name, caliThreadAttrs):
		if v, err := strconv.ParseFloat(data, 64); err == nil && !c.hasThrd {
			c.thread, c.hasThrd = v, true
		}
	case a.name == "spot.channel":
		c.channel = data
	case a.name == "cupti.activity.kind":
		c.gpuKind = data
	case a.name == "cupti.kernel.name":
		c.kernel = data
	case a.hidden(), a.id <= 11, strings.HasPrefix(a.name, "cali."), strings.HasPrefix(a.name, "event."):
	default:
		p.summedOver[a.name] = true
	}
}

func isOneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// attrKind says whether and how a value attribute (a .cali attribute or
// a json-split column) of the given name becomes a metric.
type attrKind struct {
	metric    bool
	agg       model.Aggregation
	inclusive bool // sums whose values include the call path's callees
	count     bool // a count of records or values
	mean      bool // a mean, left out: its sum and count carry it
}

// classify says what the attribute name's aggregation operators make of
// its values. measured says whether an attribute without operators holds
// a measurement (Caliper marks those aggregatable; json-split does not
// say).
func classify(name string, measured bool) attrKind {
	ops, base := splitOps(name)
	op := opNone
	if len(ops) > 0 {
		op = caliOps[ops[0]]
	}
	k := attrKind{}
	switch {
	case base == "aggregate.slot", bookkeeping[base], name == "Node order":
		return k
	case op == opMean:
		k.mean = true
		return k
	case op == opRatio, op == opCounter, op == opNone && !measured:
		return k
	}
	k.metric = true
	switch op {
	case opMin:
		k.agg = model.Min
	case opMax:
		k.agg = model.Max
	}
	k.count = len(ops) > 0 && countOps[ops[0]]
	incl := base == "time.inclusive.duration" || base == "time.inclusive.duration.ns"
	for _, o := range ops {
		incl = incl || inclusiveOps[o]
	}
	k.inclusive = incl && k.agg == model.Sum && !k.count
	return k
}

// bookkeeping are numeric attributes that say where or when a record
// was taken, not what it measured.
var bookkeeping = map[string]bool{
	"time.timestamp": true, "time.offset": true, "time.offset.ns": true, "timeseries.snapshot": true,
	"timeseries.starttime": true, "loop.start_iteration": true, "block": true,
}

// metricOfAttr returns the metric index of a value attribute, -1 if its
// values are not a measurement.
func (p *caliProfile) metricOfAttr(a *calAttr) int32 {
	if a.classified {
		return a.metric
	}
	m := int32(-1)
	ops, base := splitOps(a.name)
	k := classify(a.name, measurements[base] || a.prop&propAggregatable != 0)
	switch {
	case !a.numeric() || base == "aggregate.slot":
	case a.hidden() && !(len(ops) > 0 && (ops[0] == "avg.sum" || ops[0] == "avg.count")):
		// Caliper's own intermediate values, such as the unscaled sums
		// behind scale#; the means' sums and counts are kept.
	case k.mean:
		p.means = append(p.means, a.name)
	case !k.metric:
		if _, base := splitOps(a.name); !bookkeeping[base] && !strings.HasPrefix(a.name, "event.") && !strings.HasPrefix(a.name, "cali.") {
			p.summedOver[a.name] = true
		}
	default:
		m = int32(len(p.metrics))
		p.metrics = append(p.metrics, caliMetric{attr: a, agg: k.agg, inclusive: k.inclusive, count: k.count})
	}
	a.metric, a.classified = m, true
	return m
}

// record adds a ctx or globals record.
func (p *caliProfile) record(rec *calRecord) error {
	if rec.kind == recGlobals {
		fresh := map[string]bool{}
		var chain []int32
		for _, ref := range rec.nodes {
			chain = chain[:0]
			for n := ref; n >= 0; n = p.db.nodes[n].parent {
				chain = append(chain, n)
			}
			for k := len(chain) - 1; k >= 0; k-- {
				node := &p.db.nodes[chain[k]]
				if a := p.db.attr(node.attr); a != nil && a.id > 11 {
					p.global(a, node.data, fresh)
				}
			}
		}
		for i, a := range rec.attrs {
			p.global(a, string(rec.data[i]), fresh)
		}
		return nil
	}
	if p.records == 0 {
		p.legacy = p.isCaliper1()
	}
	p.records++
	c := nodeCtx{path: -1}
	for _, ref := range rec.nodes {
		rc, err := p.nodeContext(ref)
		if err != nil {
			return err
		}
		switch {
		case rc.path < 0:
		case c.path < 0:
			c.path = rc.path
		default:
			c.path = p.graft(c.path, rc.path)
		}
		if rc.hasRank && !c.hasRank {
			c.rank, c.hasRank = rc.rank, true
		}
		if rc.hasThrd && !c.hasThrd {
			c.thread, c.hasThrd = rc.thread, true
		}
		if rc.channel != "" {
			c.channel = rc.channel
		}
		if rc.gpuKind != "" {
			c.gpuKind = rc.gpuKind
		}
		if rc.kernel != "" {
			c.kernel = rc.kernel
		}
	}
	// immediate entries: system-tree attributes, keys, values
	metrics, values := p.mbuf[:0], p.vbuf[:0]
	defer func() { p.mbuf, p.vbuf = metrics, values }()
	order := math.Inf(1)
	for i, a := range rec.attrs {
		data := rec.data[i]
		switch {
		case a.global():
			p.global(a, string(data), nil)
			continue
		case isOneOf(a.name, caliRankAttrs), isOneOf(a.name, caliThreadAttrs),
			a.name == "spot.channel", a.name == "cupti.activity.kind", a.name == "cupti.kernel.name":
			p.applyKey(&c, a, string(data))
			continue
		case strings.HasSuffix(a.name, "aggregate.slot"):
			if v, err := strconv.ParseFloat(string(data), 64); err == nil {
				order = math.Min(order, v)
			}
			continue
		}
		m := p.metricOfAttr(a)
		if m < 0 {
			if !a.numeric() && !a.hidden() && a.id > 11 {
				p.summedOver[a.name] = true
			}
			continue
		}
		v, err := parseValue(a.typ, data)
		if err != nil {
			return fmt.Errorf("attribute %s: %v", importer.Quote(a.name), err)
		}
		metrics = append(metrics, m)
		values = append(values, v)
	}
	if c.channel != "" && c.channel != "regionprofile" {
		p.otherChans[c.channel]++
		return nil
	}
	if c.hasRank {
		p.hasRank = true
	}
	if c.gpuKind != "" {
		label, attr := c.gpuKind, "cupti.activity.kind"
		if c.gpuKind == "kernel" && c.kernel != "" {
			label, attr = c.kernel, "cupti.kernel.name"
		}
		c.path = p.child(c.path, attr, label)
	}
	path := c.path
	if path < 0 {
		if len(metrics) == 0 {
			return nil
		}
		if p.noPath < 0 {
			p.noPath = p.child(-1, "", "<outside annotated regions>")
		}
		path = p.noPath
	}
	if order < p.trie[path].order {
		p.trie[path].order = order
	}
	if len(metrics) == 0 {
		return nil
	}
	lk := locKey{c.rank, c.thread, c.hasRank, c.hasThrd}
	loc, ok := p.locIdx[lk]
	if !ok {
		loc = int32(len(p.locs))
		p.locs = append(p.locs, lk)
		p.locIdx[lk] = loc
	}
	k := rowKey{path, loc}
	row := p.rows[k]
	for i, m := range metrics {
		if int(m) >= len(row) {
			n := len(row)
			row = append(row, make([]float64, len(p.metrics)-n)...)
			for j := n; j < len(row); j++ {
				row[j] = math.NaN()
			}
		}
		old, v := row[m], values[i]
		switch {
		case math.IsNaN(old):
			row[m] = v
		default:
			row[m] = p.metrics[m].agg.Combine(old, v)
		}
	}
	p.rows[k] = row
	return nil
}

// graft puts the path below rest's root under base (records that refer
// to two nodes with nested attributes).
func (p *caliProfile) graft(base, rest int32) int32 {
	var chain []int32
	for t := rest; t >= 0; t = p.trie[t].parent {
		chain = append(chain, t)
	}
	for k := len(chain) - 1; k >= 0; k-- {
		n := p.trie[chain[k]]
		base = p.child(base, n.attr, n.label)
	}
	return base
}

// parseValue reads an immediate value of the given Caliper type.
func parseValue(typ string, data []byte) (float64, error) {
	s := transient(data) // copied below where a message keeps it
	var v float64
	var err error
	switch typ {
	case "uint":
		var u uint64
		u, err = strconv.ParseUint(s, 10, 64)
		v = float64(u)
		if err != nil { // Caliper writes some counts as doubles
			v, err = strconv.ParseFloat(s, 64)
		}
	case "int":
		var i int64
		i, err = strconv.ParseInt(s, 10, 64)
		v = float64(i)
		if err != nil {
			v, err = strconv.ParseFloat(s, 64)
		}
	default:
		v, err = strconv.ParseFloat(s, 64)
	}
	if err != nil {
		return 0, fmt.Errorf("value %s is not a number", importer.Quote(string(data)))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("value %s", importer.Quote(string(data)))
	}
	return v, nil
}

// metricName returns the experiment's name for metric m: the attribute's
// name, without "inclusive#" where the values become own values.
func (p *caliProfile) metricName(m *caliMetric) string {
	if !m.inclusive {
		return m.attr.name
	}
	return ownName(m.attr.name)
}

// ownName is the name of an inclusive attribute's values once they are
// own values: "sum#inclusive#sum#time.duration" → "sum#sum#time.duration",
// "time.inclusive.duration" → "time.duration".
func ownName(name string) string {
	own := strings.Replace(name, "inclusive#", "", 1)
	if own == name {
		own = strings.Replace(own, "time.inclusive.", "time.", 1)
	}
	return own
}

// metricUnit returns the unit and the factor to it of a metric's values.
func metricUnit(a *calAttr, ops []string, base string) (unit string, factor float64) {
	scaled := false
	for _, op := range ops {
		scaled = scaled || op == "scale" || op == "iscale"
	}
	switch strings.ToLower(a.unit) {
	case "sec", "s", "seconds":
		return "sec", 1
	case "msec", "ms":
		return "sec", 1e-3
	case "usec", "us":
		return "sec", 1e-6
	case "nsec", "ns":
		return "sec", 1e-9
	case "byte", "bytes", "b":
		return "bytes", 1
	case "count", "counts", "occ":
		return "occ", 1
	case "":
	default:
		return a.unit, 1
	}
	switch {
	case scaled:
		// Caliper's reports scale nanosecond durations to seconds
		if strings.Contains(base, "duration") || strings.Contains(base, "time") {
			return "sec", 1
		}
		return "occ", 1
	case base == "time" || base == "time (inc)": // Caliper's aliases of sum#time.duration
		return "sec", 1
	case strings.HasSuffix(base, ".ns") && (strings.Contains(base, "time") || strings.Contains(base, "duration")):
		return "sec", 1e-9
	case strings.HasPrefix(base, "time.") && strings.Contains(base, "duration"):
		if a.typ == "double" {
			return "sec", 1 // Caliper 2
		}
		return "sec", 1e-6 // Caliper 1 counts microseconds
	case strings.HasPrefix(base, "cupti.") && strings.HasSuffix(base, "duration"):
		return "sec", 1e-9
	case strings.Contains(base, "bytes"):
		return "bytes", 1
	}
	return "occ", 1
}

// experiment builds the experiment from the records read.
func (p *caliProfile) experiment() (*model.Experiment, error) {
	if p.records == 0 {
		return nil, fmt.Errorf("no snapshot records (__rec=ctx): no performance data")
	}
	b := build.New("Caliper (.cali)")
	b.Attr("Creator", "Caliper")
	for _, g := range p.globals {
		b.Attr(g.Key, g.Value)
	}

	// metrics: an inclusive sum whose own-value name another metric has
	// adds nothing
	names := map[string]bool{}
	for i := range p.metrics {
		if m := &p.metrics[i]; !m.inclusive {
			names[p.metricName(m)] = true
		}
	}
	type plan struct {
		m      int
		factor float64
	}
	var plans []plan
	// the summed time first (the metric a window shows first), then the
	// other sums, then minima and maxima, each in the file's order
	metricOrder := make([]int, len(p.metrics))
	all := make([]string, len(p.metrics))
	for i := range metricOrder {
		metricOrder[i], all[i] = i, p.metricName(&p.metrics[i])
	}
	ids := identities(all, false)
	rank := func(i int) int {
		switch {
		case ids[all[i]] == model.IdentityTime:
			return 0
		case p.metrics[i].agg == model.Sum:
			return 1
		}
		return 2
	}
	sort.SliceStable(metricOrder, func(a, b int) bool { return rank(metricOrder[a]) < rank(metricOrder[b]) })
	for _, i := range metricOrder {
		m := &p.metrics[i]
		name := p.metricName(m)
		if m.inclusive && names[name] {
			continue
		}
		names[name] = true
		ops, base := splitOps(m.attr.name)
		unit, factor := metricUnit(m.attr, ops, base)
		if m.count {
			unit, factor = "occ", 1
		}
		dtype := model.Double
		switch {
		case m.agg == model.Min:
			dtype = model.MinDouble
		case m.agg == model.Max:
			dtype = model.MaxDouble
		case factor == 1 && m.attr.typ == "uint":
			dtype = model.Uint64
		case factor == 1 && m.attr.typ == "int":
			dtype = model.Int64
		}
		disp := name
		if m.attr.alias != "" {
			disp = m.attr.alias
		} else if a := p.meanAlias(m.attr.name); a != "" {
			disp = a
		}
		descr := "Caliper attribute " + m.attr.name
		switch {
		case m.inclusive:
			descr += "; own values from Caliper's inclusive values"
		case m.agg != model.Sum && strings.Contains(m.attr.name, "inclusive#"):
			descr += "; per call path as Caliper aggregated it, including its callees"
		}
		if factor != 1 {
			descr += "; converted to seconds"
		}
		if strings.HasPrefix(m.attr.name, "any#") {
			descr += "; any one of the values Caliper saw (they are usually equal)"
		}
		mi := b.Metric(name, disp, unit, dtype, descr)
		b.E.Metrics[mi].Attrs = []model.Attr{{Key: "Caliper attribute", Value: m.attr.name}}
		plans = append(plans, plan{i, factor})
	}
	if len(plans) == 0 {
		return nil, fmt.Errorf("no measurement among the %d snapshot records' attributes", p.records)
	}
	if len(p.means) > 0 {
		b.Attr("Caliper means not imported (their sums and counts are metrics where Caliper wrote them)", strings.Join(p.means, ", "))
	}
	if len(p.summedOver) > 0 {
		keys := make([]string, 0, len(p.summedOver))
		for k := range p.summedOver {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.Attr("Caliper attributes the records were combined over", strings.Join(keys, ", "))
	}
	if len(p.otherChans) > 0 {
		var parts []string
		for ch, n := range p.otherChans {
			parts = append(parts, fmt.Sprintf("%d of spot.channel %s", n, ch))
		}
		sort.Strings(parts)
		b.Attr("Caliper records not imported (other than the region profile)", strings.Join(parts, ", "))
	}

	// call tree in Caliper's node order, else in the order of first use
	children := make([][]int32, len(p.trie))
	var roots []int32
	for t := range p.trie {
		if par := p.trie[t].parent; par >= 0 {
			children[par] = append(children[par], int32(t))
		} else {
			roots = append(roots, int32(t))
		}
	}
	byOrder := func(s []int32) {
		sort.SliceStable(s, func(i, j int) bool { return p.trie[s[i]].order < p.trie[s[j]].order })
	}
	cnodeOf := make([]int, len(p.trie))
	var walk []int32
	byOrder(roots)
	for i := len(roots) - 1; i >= 0; i-- {
		walk = append(walk, roots[i])
	}
	for len(walk) > 0 {
		t := walk[len(walk)-1]
		walk = walk[:len(walk)-1]
		n := &p.trie[t]
		r, added := b.Region(n.label, "")
		if added {
			rg := &b.E.Regions[r]
			rg.Paradigm, rg.Role = regionKind(n.attr)
			if n.attr != "" {
				rg.Attrs = append(rg.Attrs, model.Attr{Key: "Caliper attribute", Value: n.attr})
			}
		}
		parent := -1
		if n.parent >= 0 {
			parent = cnodeOf[n.parent]
		}
		cnodeOf[t] = b.NewCnode(parent, r)
		ch := children[t]
		byOrder(ch)
		for i := len(ch) - 1; i >= 0; i-- {
			walk = append(walk, ch[i])
		}
	}

	// system tree: a process per rank, a thread per thread id
	order := make([]int32, len(p.locs))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(i, j int) bool {
		a, c := p.locs[order[i]], p.locs[order[j]]
		if a.hasRank != c.hasRank {
			return c.hasRank
		}
		if a.rank != c.rank {
			return a.rank < c.rank
		}
		if a.hasThread != c.hasThread {
			return c.hasThread
		}
		return a.thread < c.thread
	})
	if len(order) == 0 {
		p.locs = append(p.locs, locKey{})
		order = append(order, 0)
	}
	machine := b.TreeNode(-1, "machine", "machine")
	host := b.TreeNode(machine, "node", "node")
	type procKey struct {
		rank float64
		has  bool
	}
	procs := map[procKey]int{}
	threads := map[int]int{}
	sysOf := make([]int, len(p.locs))
	for _, li := range order {
		lk := p.locs[li]
		pk := procKey{lk.rank, lk.hasRank}
		g, ok := procs[pk]
		if !ok {
			name, rank := "process", len(procs)
			switch {
			case lk.hasRank:
				name = "rank " + num(lk.rank)
				if lk.rank >= 0 && lk.rank == math.Trunc(lk.rank) && lk.rank < 1<<31 {
					rank = int(lk.rank)
				}
			case p.hasRank:
				name = "no rank"
			case p.worldSize != "" && p.worldSize != "1":
				name = "all " + p.worldSize + " processes (aggregated by Caliper)"
			}
			g = b.Process(host, rank, name)
			procs[pk] = g
		}
		name := "thread"
		if lk.hasThread {
			name = "thread " + num(lk.thread)
		}
		sysOf[li] = b.Location(g, threads[g], "thread", name)
		threads[g]++
	}
	cols := b.Columns()

	nl := len(b.E.Locations)
	vals := build.NewValues(len(plans), nl)
	type pathRow struct {
		path int32
		row  []float64
	}
	rowsAt := make([][]pathRow, len(p.locs))
	for k, row := range p.rows {
		rowsAt[k.loc] = append(rowsAt[k.loc], pathRow{k.path, row})
	}
	at := make([][]float64, len(p.trie)) // one location's rows
	covered := make([]float64, len(p.trie))
	below := make([]float64, len(p.trie))
	var paths []int32
	for loc, rows := range rowsAt {
		clear(at)
		paths = paths[:0]
		for _, r := range rows {
			at[r.path] = r.row
			paths = append(paths, r.path)
		}
		l := cols[sysOf[loc]]
		for pm, pl := range plans {
			has := func(t int) bool { return pl.m < len(at[t]) && !math.IsNaN(at[t][pl.m]) }
			if !p.metrics[pl.m].inclusive {
				for _, t := range paths {
					if has(int(t)) && at[t][pl.m] != 0 {
						vals.Add(cnodeOf[t], pm, l, at[t][pl.m]*pl.factor)
					}
				}
				continue
			}
			// An inclusive sum becomes own values: a call path's value
			// less what its descendants' values cover. A call path
			// without a value of its own (a trace that recorded only its
			// callees) covers what its callees cover.
			clear(below)
			for t := len(p.trie) - 1; t >= 0; t-- { // children after parents
				covered[t] = below[t]
				if has(t) {
					covered[t] = at[t][pl.m]
					if own := at[t][pl.m] - below[t]; own != 0 {
						vals.Add(cnodeOf[t], pm, l, own*pl.factor)
					}
				}
				if par := p.trie[t].parent; par >= 0 {
					below[par] += covered[t]
				}
			}
		}
	}
	e := b.Finish(vals)
	sampled := false
	for _, a := range p.db.attrs {
		sampled = sampled || strings.Contains(a.name, "cali.sampler")
	}
	build.Identify(e, "Caliper", identities(metricNamesOf(e), sampled))
	return e, nil
}

// meanAlias names the sum and count of a mean after the mean's alias:
// "avg.sum#x" of a mean "avg#x" aliased "Avg time/rank" is "Avg
// time/rank (sum)".
func (p *caliProfile) meanAlias(name string) string {
	for _, part := range []struct{ prefix, suffix string }{{"avg.sum#", " (sum)"}, {"avg.count#", " (count)"}} {
		rest, ok := strings.CutPrefix(name, part.prefix)
		if !ok {
			continue
		}
		for _, a := range p.db.attrs {
			if a.name == "avg#"+rest && a.alias != "" {
				return a.alias + part.suffix
			}
		}
	}
	return ""
}

// regionKind returns a region's paradigm and role from the Caliper
// attribute that names it.
func regionKind(attr string) (paradigm, role string) {
	switch {
	case attr == "function":
		return "user", "function"
	case attr == "loop":
		return "user", "loop"
	case attr == "mpi.function":
		return "mpi", "function"
	case attr == "cupti.kernel.name":
		return "cuda", "kernel"
	case attr == "cupti.activity.kind":
		return "cuda", "activity"
	case strings.HasPrefix(attr, "cupti."), strings.HasPrefix(attr, "cuda."):
		return "cuda", "function"
	case attr == "":
		return "user", "artificial"
	}
	return "user", "region"
}
