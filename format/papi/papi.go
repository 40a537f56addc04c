package papi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// rankName matches the names PAPI gives its measurement files:
// rank_000012.json (PAPI 7), rank_0012 or rank_XXXXXX (PAPI 6.0).
var rankName = regexp.MustCompile(`^rank_([0-9A-Za-z]+)(\.json)?$`)

// Format is PAPI's high-level measurement in the registry of formats.
var Format = importer.Format{
	Name:   "PAPI high-level measurement",
	Tool:   "PAPI",
	Files:  "PAPI high-level API measurements: the `papi_hl_output` folder of `rank_*.json` files, or one of them",
	Detect: Detect,
	Read:   Read,
}

// Read reads a PAPI high-level measurement: a folder of rank files (the
// papi_hl_output folder) or one rank file (gzip-compressed or not).
func Read(path string, _ importer.Options) (*model.Experiment, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var files []rankFile
	if st.IsDir() {
		if files, err = rankFiles(path); err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no PAPI measurement file (rank_*.json) in the folder", path)
		}
	} else {
		files = []rankFile{{path: path, rank: rankOf(filepath.Base(path), 0)}}
	}
	p := newProfile()
	for _, f := range files {
		if err := p.readFile(f); err != nil {
			return nil, err
		}
	}
	e, err := p.experiment()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}

// Parse reads one rank file's content from r; name is used in errors
// and, when it is rank_N.json, gives the rank.
func Parse(r io.Reader, name string) (*model.Experiment, error) {
	p := newProfile()
	if err := p.read(r, rankFile{path: name, rank: rankOf(filepath.Base(name), 0)}); err != nil {
		return nil, err
	}
	e, err := p.experiment()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return e, nil
}

// rankFile is one process's measurement file.
type rankFile struct {
	path string
	rank int
}

// rankOf returns the rank a file name states, or def.
func rankOf(name string, def int) int {
	m := rankName.FindStringSubmatch(name)
	if m == nil {
		return def
	}
	if r, err := strconv.Atoi(m[1]); err == nil && r >= 0 {
		return r
	}
	return def
}

// rankFiles lists the PAPI measurement files of a folder, by rank.
func rankFiles(dir string) ([]rankFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []rankFile
	used := map[int]bool{}
	for i, e := range entries {
		if e.IsDir() || !rankName.MatchString(e.Name()) {
			continue
		}
		r := rankOf(e.Name(), -1)
		if r < 0 || used[r] {
			r = 1<<30 + i // PAPI 6's random names: ranks after the numbered ones
		}
		used[r] = true
		out = append(out, rankFile{path: filepath.Join(dir, e.Name()), rank: r})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rank < out[j].rank })
	for i := range out {
		if out[i].rank >= 1<<30 {
			out[i].rank = -1 - i // numbered below from the highest rank on
		}
	}
	next := 0
	for _, f := range out {
		next = max(next, f.rank+1)
	}
	for i := range out {
		if out[i].rank < 0 {
			out[i].rank = next
			next++
		}
	}
	return out, nil
}

// Detect recognises a PAPI high-level measurement: a folder (head nil)
// holding a rank file, or a file whose JSON starts as PAPI writes it.
func Detect(head []byte, path string) importer.Confidence {
	if head != nil {
		if detectHead(head) {
			return importer.Certain
		}
		return importer.No
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return importer.No
	}
	for _, e := range entries {
		if e.IsDir() || !rankName.MatchString(e.Name()) {
			continue
		}
		head, _, err := importer.Head(filepath.Join(path, e.Name()), 1024)
		if err == nil && detectHead(head) {
			return importer.Certain
		}
		return importer.No
	}
	return importer.No
}

// detectHead reports whether a file's first bytes are a JSON object whose
// first key is one PAPI's high-level API writes first.
func detectHead(head []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	return bytes.HasPrefix(t, []byte(`"papi_version"`)) || bytes.HasPrefix(t, []byte(`"cpu in mhz"`))
}

// event is a measured value of the files: PAPI's own cycles and real
// time, and the events of event_definitions.
type event struct {
	name, component, typ string
}

// additive reports whether an event's values over a region instance are
// differences that add up ("delta"), as opposed to values at the region's
// end ("instant", "region-average").
func (ev *event) additive() bool { return ev.typ == "" || ev.typ == "delta" }

type pathKey struct {
	parent int
	name   string
}

type location struct {
	rank, thread int
	name         string
}

type rowKey struct{ path, loc int }

// profile accumulates the rank files.
type profile struct {
	paths   []pathKey
	pathIdx map[pathKey]int
	events  []event // metric i+1 is events[i]; metric 0 counts visits
	evIdx   map[string]int
	locs    []location
	rows    map[rowKey][]float64 // per metric; NaN where an instantaneous event has no value
	attrs   []model.Attr
	attrSet map[string]bool
	reads   int  // region values with PAPI_hl_read values, left out
	flat    bool // PAPI 6.0 files: totals per region name, no nesting
}

func newProfile() *profile {
	return &profile{pathIdx: map[pathKey]int{}, evIdx: map[string]int{}, rows: map[rowKey][]float64{}, attrSet: map[string]bool{}}
}

func (p *profile) path(parent int, name string) int {
	k := pathKey{parent, name}
	if i, ok := p.pathIdx[k]; ok {
		return i
	}
	p.paths = append(p.paths, k)
	p.pathIdx[k] = len(p.paths) - 1
	return len(p.paths) - 1
}

func (p *profile) event(name string) int {
	if i, ok := p.evIdx[name]; ok {
		return i
	}
	p.events = append(p.events, event{name: name})
	p.evIdx[name] = len(p.events) - 1
	return len(p.events) - 1
}

func (p *profile) attr(key, value string) {
	if value == "" || p.attrSet[key] {
		return
	}
	p.attrSet[key] = true
	p.attrs = append(p.attrs, model.Attr{Key: key, Value: value})
}

// row returns the values of a call path at a location.
func (p *profile) row(path, loc int) []float64 {
	k := rowKey{path, loc}
	r := p.rows[k]
	if n := 1 + len(p.events); len(r) < n {
		old := len(r)
		r = append(r, make([]float64, n-old)...)
		for m := max(old, 1); m < n; m++ {
			if !p.events[m-1].additive() {
				r[m] = math.NaN()
			}
		}
		p.rows[k] = r
	}
	return r
}

// maxFileSize bounds the size of a rank file read into memory.
const maxFileSize = 4 << 30

func (p *profile) readFile(f rankFile) error {
	fh, err := importer.Open(f.path)
	if err != nil {
		return err
	}
	defer fh.Close()
	return p.read(fh, f)
}

// read reads one rank file.
func (p *profile) read(r io.Reader, f rankFile) error {
	s := newScanner(io.LimitReader(r, maxFileSize), f.path)
	seenThreads := false
	err := s.object("the file", func(k string) error {
		switch k {
		case "papi_version", "cpu_info", "max_cpu_rate_mhz", "min_cpu_rate_mhz", "cpu in mhz":
			v, err := s.str(k)
			if err != nil {
				return err
			}
			p.attr(attrNames[k], v)
		case "event_definitions":
			return p.definitions(s)
		case "threads":
			seenThreads = true
			c, err := s.peek()
			if err != nil {
				return s.readErr(err)
			}
			if c == '[' {
				p.flat = true
				return p.threads6(s, f)
			}
			return p.threads(s, f)
		default:
			return s.skip(k)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !seenThreads {
		return fmt.Errorf("%s: no \"threads\": not a PAPI high-level measurement", f.path)
	}
	return s.end()
}

// attrNames names the run's metadata as experiment attributes.
var attrNames = map[string]string{
	"papi_version": "PAPI version", "cpu_info": "CPU", "max_cpu_rate_mhz": "CPU max MHz",
	"min_cpu_rate_mhz": "CPU min MHz", "cpu in mhz": "CPU MHz",
}

// definitions reads event_definitions: each event's component and type.
func (p *profile) definitions(s *scanner) error {
	return s.object("event_definitions", func(name string) error {
		var component, typ string
		err := s.object("event "+importer.Quote(name), func(k string) error {
			var err error
			switch k {
			case "component":
				component, err = s.str(k)
			case "type":
				typ, err = s.str(k)
			default:
				err = s.skip(k)
			}
			return err
		})
		if err != nil {
			return err
		}
		switch typ {
		case "", "delta", "instant", "region-average":
		default:
			return s.errorf("event %s: unknown type %s", importer.Quote(name), importer.Quote(typ))
		}
		ev := &p.events[p.event(name)]
		if ev.typ != "" && ev.typ != typ || len(p.rows) > 0 && ev.typ == "" && typ != "delta" {
			return s.errorf("event %s is %q here, %q in an earlier file", importer.Quote(name), typ, ev.typ)
		}
		ev.component, ev.typ = component, typ
		return nil
	})
}

// location returns the data location of a rank's thread.
func (p *profile) location(rank, thread int, name string) int {
	for i, l := range p.locs {
		if l.rank == rank && l.thread == thread {
			return i
		}
	}
	p.locs = append(p.locs, location{rank, thread, name})
	return len(p.locs) - 1
}

// region is one region instance of PAPI 7's output.
type region struct {
	id, parent int
	name       string
	values     []eventValue
}

// eventValue is an event's value over a region instance.
type eventValue struct {
	event string
	v     float64
}

// threads reads PAPI 7's "threads" object: per thread, its region
// instances keyed by id.
func (p *profile) threads(s *scanner, f rankFile) error {
	return s.object("threads", func(tk string) error {
		thread, err := strconv.Atoi(tk)
		if err != nil || thread < 0 {
			return s.errorf("thread %s: not a thread number", importer.Quote(tk))
		}
		var regs []region
		seen := map[int]bool{}
		err = s.object("thread "+tk, func(k string) error {
			if k != "regions" {
				return s.skip(k)
			}
			return s.object("regions", func(id string) error {
				rg, err := p.region(s, id)
				if err != nil {
					return err
				}
				if seen[rg.id] {
					return s.errorf("region %d occurs twice", rg.id)
				}
				seen[rg.id] = true
				regs = append(regs, rg)
				return nil
			})
		})
		if err != nil {
			return err
		}
		loc := p.location(f.rank, thread, "thread "+tk)
		// region ids count region beginnings: parents come first
		sort.Slice(regs, func(i, j int) bool { return regs[i].id < regs[j].id })
		pathOf := make(map[int]int, len(regs))
		for _, rg := range regs {
			parent := -1
			if rg.parent >= 0 {
				pp, ok := pathOf[rg.parent]
				if !ok || rg.parent >= rg.id {
					return fmt.Errorf("%s: thread %d: region %d (%s): its parent region %d is not an earlier region of the file", f.path, thread, rg.id, importer.Quote(rg.name), rg.parent)
				}
				parent = pp
			}
			path := p.path(parent, rg.name)
			pathOf[rg.id] = path
			p.instance(rg, path, parent, loc)
		}
		return nil
	})
}

// region reads one region instance's object.
func (p *profile) region(s *scanner, id string) (region, error) {
	rg := region{parent: -1}
	var err error
	if rg.id, err = strconv.Atoi(id); err != nil || rg.id < 0 {
		return rg, s.errorf("region id %s is not a number", importer.Quote(id))
	}
	what := "region " + id
	hasParent := false
	err = s.object(what, func(k string) error {
		switch k {
		case "name":
			rg.name, err = s.str(what + ": name")
			return err
		case "parent_region_id":
			text, err := s.str(what + ": parent_region_id")
			if err != nil {
				return err
			}
			if rg.parent, err = strconv.Atoi(text); err != nil || rg.parent < -1 {
				return s.errorf("%s: parent_region_id %s is not a region id", what, importer.Quote(text))
			}
			hasParent = true
			return nil
		}
		v, err := p.eventValue(s, what, k)
		if err != nil {
			return err
		}
		rg.values = append(rg.values, eventValue{k, v})
		return nil
	})
	if err != nil {
		return rg, err
	}
	if rg.name == "" {
		return rg, s.errorf("%s has no name", what)
	}
	if !hasParent {
		return rg, s.errorf("%s (%s): no parent_region_id", what, importer.Quote(rg.name))
	}
	return rg, nil
}

// eventValue reads an event's value over a region: a number in a
// string, or with PAPI_hl_read's values an object whose region_value
// (PAPI 7) or total (PAPI 6.0) is the region's.
func (p *profile) eventValue(s *scanner, where, event string) (float64, error) {
	c, err := s.peek()
	if err != nil {
		return 0, s.readErr(err)
	}
	if c != '{' {
		v, err := s.number()
		if err != nil {
			return 0, fmt.Errorf("%w (%s, event %s)", err, where, importer.Quote(event))
		}
		return v, nil
	}
	what := where + ": event " + importer.Quote(event)
	var v float64
	found := false
	err = s.object(what, func(k string) error {
		x, err := s.number()
		if err != nil {
			return fmt.Errorf("%w (%s: %s)", err, what, importer.Quote(k))
		}
		if k == "region_value" || k == "total" {
			v, found = x, true
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if !found {
		return 0, s.errorf("%s: PAPI_hl_read's values without region_value", what)
	}
	p.reads++
	return v, nil
}

// instance adds a region instance's values to its call path and, for
// additive events, takes them from its parent's own values.
func (p *profile) instance(rg region, path, parent, loc int) {
	sort.SliceStable(rg.values, func(i, j int) bool {
		return eventOrder(rg.values[i].event) < eventOrder(rg.values[j].event)
	})
	for _, x := range rg.values {
		p.event(x.event)
	}
	row := p.row(path, loc)
	row[0]++ // visits
	var prow []float64
	if parent >= 0 {
		prow = p.row(parent, loc)
	}
	for _, x := range rg.values {
		m := 1 + p.evIdx[x.event]
		if !p.events[m-1].additive() {
			if math.IsNaN(row[m]) || x.v > row[m] {
				row[m] = x.v
			}
			continue
		}
		row[m] += x.v
		if prow != nil {
			prow[m] -= x.v
		}
	}
}

// eventOrder puts PAPI's own cycles and real time first.
func eventOrder(name string) int {
	switch name {
	case "region_count":
		return 0
	case "cycles":
		return 1
	case "real_time_nsec":
		return 2
	}
	return 3
}

// threads6 reads PAPI 6.0's "threads" array: per thread, a list of
// region names with their totals.
func (p *profile) threads6(s *scanner, f rankFile) error {
	return s.array("threads", func(i int) error {
		var id string
		type total struct {
			name   string
			count  float64
			values []eventValue
		}
		var totals []total
		err := s.object("thread", func(k string) error {
			switch k {
			case "id":
				var err error
				id, err = s.str("thread id")
				return err
			case "regions":
				return s.array("regions", func(int) error {
					return s.object("region", func(name string) error {
						t := total{name: name, count: 1}
						err := s.object("region "+importer.Quote(name), func(ev string) error {
							v, err := p.eventValue(s, "region "+importer.Quote(name), ev)
							if ev == "region_count" {
								t.count = v
							} else {
								t.values = append(t.values, eventValue{ev, v})
							}
							return err
						})
						totals = append(totals, t)
						return err
					})
				})
			}
			return s.skip(k)
		})
		if err != nil {
			return err
		}
		name := "thread " + strconv.Itoa(i)
		if id != "" {
			name += " (id " + id + ")"
		}
		loc := p.location(f.rank, i, name)
		for _, t := range totals {
			path := p.path(-1, t.name)
			p.instance(region{parent: -1, name: t.name, values: t.values}, path, -1, loc)
			p.row(path, loc)[0] += t.count - 1
		}
		return nil
	})
}

// experiment builds the experiment.
func (p *profile) experiment() (*model.Experiment, error) {
	if len(p.paths) == 0 {
		return nil, errors.New("no region was measured")
	}
	b := build.New("PAPI high-level measurement (rank_*.json)")
	b.Attr("Creator", "PAPI")
	for _, a := range p.attrs {
		b.Attr(a.Key, a.Value)
	}
	if p.reads > 0 {
		b.Attr("PAPI_hl_read values not imported", fmt.Sprintf("%d region values also list intermediate reads; the region values are imported", p.reads))
	}
	if p.flat {
		b.Attr("PAPI 6.0 regions", "PAPI 6.0 records no nesting: each region's values include those of the regions inside it")
	}
	// metrics: real time, visits, cycles, the events in the order of the
	// files
	evOrder := make([]int, len(p.events))
	for i := range evOrder {
		evOrder[i] = i
	}
	sort.SliceStable(evOrder, func(i, j int) bool {
		return eventOrder(p.events[evOrder[i]].name) < eventOrder(p.events[evOrder[j]].name)
	})
	metricOf := make([]int, 1+len(p.events)) // row index → metric
	factors := make([]float64, 1+len(p.events))
	factors[0] = 1
	// real time first (the metric a window shows first), then visits
	rows := []int{0}
	if i, ok := p.evIdx["real_time_nsec"]; ok {
		rows = []int{1 + i, 0}
	}
	for _, i := range evOrder {
		if p.events[i].name != "real_time_nsec" {
			rows = append(rows, 1+i)
		}
	}
	for _, row := range rows {
		if row == 0 {
			metricOf[0] = b.Metric("visits", "Visits", "occ", model.Uint64, "Region instances recorded (PAPI_hl_region_begin … end)")
			continue
		}
		i := row - 1
		ev := p.events[i]
		uniq, disp, unit, dtype, factor := ev.name, ev.name, "occ", model.Int64, 1.0
		descr := "PAPI event " + ev.name
		switch ev.name {
		case "cycles":
			disp, descr = "Cycles", "Elapsed CPU cycles (PAPI's cycle counter)"
		case "real_time_nsec":
			uniq, disp, unit, dtype, factor = "real_time", "Real time", "sec", model.Double, 1e-9
			descr = "Elapsed real time; nanoseconds converted to seconds"
		case "perf::TASK-CLOCK":
			unit, dtype, factor = "sec", model.Double, 1e-9
			descr += " (CPU time); nanoseconds converted to seconds"
		}
		if ev.component != "" {
			descr += "; component " + ev.component
		}
		if !ev.additive() {
			dtype = model.MaxDouble
			descr += "; " + ev.typ + " values: the largest recorded at a region's end"
		}
		m := b.Metric(uniq, disp, unit, dtype, descr)
		b.E.Metrics[m].Attrs = []model.Attr{{Key: "PAPI event", Value: ev.name}}
		metricOf[1+i], factors[1+i] = m, factor
	}

	cnodeOf := make([]int, len(p.paths))
	for i, k := range p.paths { // parents come before their children
		r, added := b.Region(k.name, "")
		if added {
			b.E.Regions[r].Paradigm, b.E.Regions[r].Role = "user", "region"
		}
		parent := -1
		if k.parent >= 0 {
			parent = cnodeOf[k.parent]
		}
		cnodeOf[i] = b.NewCnode(parent, r)
	}

	order := make([]int, len(p.locs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool {
		a, c := p.locs[order[i]], p.locs[order[j]]
		return a.rank < c.rank || a.rank == c.rank && a.thread < c.thread
	})
	machine := b.TreeNode(-1, "machine", "machine")
	node := b.TreeNode(machine, "node", "node")
	procs := map[int]int{}
	sysOf := make([]int, len(p.locs))
	for _, li := range order {
		l := p.locs[li]
		g, ok := procs[l.rank]
		if !ok {
			g = b.Process(node, l.rank, "rank "+strconv.Itoa(l.rank))
			procs[l.rank] = g
		}
		sysOf[li] = b.Location(g, l.thread, "thread", l.name)
	}
	cols := b.Columns()
	vals := build.NewValues(1+len(p.events), len(b.E.Locations))
	for k, row := range p.rows {
		for i, v := range row {
			if v != 0 && !math.IsNaN(v) {
				vals.Add(cnodeOf[k.path], metricOf[i], cols[sysOf[k.loc]], v*factors[i])
			}
		}
	}
	e := b.Finish(vals)
	build.Identify(e, "PAPI", identities)
	return e, nil
}

// identities are the canonical identities of PAPI's own measurements; its
// preset events (PAPI_TOT_CYC, …) are recognised by name.
var identities = map[string]string{
	"visits":           model.IdentityVisits,
	"real_time":        model.IdentityTime,
	"perf::TASK-CLOCK": model.IdentityCPUTime,
}
