package tau_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/format/tau"
	"cubeview/model"
)

// tauEvent is an interval event of one thread as the file states it, per
// metric, read by the deliberately simple readers of this file —
// independent of the importer's.
type tauEvent struct {
	name, group string
	calls       float64
	excl, incl  []float64 // per metric
}

// tauUser is an atomic (user) event of one thread as the file states it.
type tauUser struct {
	name                          string
	count, max, min, mean, sumsqr float64
}

// tauRun is what a run's files state: the metrics and, per thread in
// (node, context, thread) order, the events and atomic events.
type tauRun struct {
	metrics []string
	threads [][]tauEvent
	user    [][]tauUser
}

// sample reports whether an event is one of event-based sampling's.
func (ev tauEvent) sample() bool {
	return strings.Contains(ev.group, "TAU_SAMPLE") || strings.Contains(ev.group, "TAU_UNWIND")
}

// derived reports whether ParaProf computed the event from others.
func (ev tauEvent) derived() bool {
	return strings.Contains(ev.group, "TAU_CALLPATH_DERIVED") || strings.Contains(ev.group, "TAU_DERIVED")
}

// splitTAUPath returns the trimmed events of a call path "a => b".
func splitTAUPath(name string) []string {
	parts := strings.Split(name, "=>")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// findCnode returns the cnode of a path of region names, or -1.
func findCnode(e *model.Experiment, parts []string) int {
	c := -1
	for _, p := range parts {
		kids := e.CnodeRoots
		if c >= 0 {
			kids = e.Cnodes[c].Children
		}
		next := -1
		for _, k := range kids {
			if e.CnodeRegion(k).Name == p {
				next = k
			}
		}
		if next < 0 {
			return -1
		}
		c = next
	}
	return c
}

// pathCnode returns the cnode of a call-path event: the path itself or,
// in a flat experiment (with a call graph), a path of samples from the
// instrumented event that holds them; -1 when there is none.
func pathCnode(e *model.Experiment, name string, sample bool) int {
	parts := splitTAUPath(name)
	if e.CallGraph != nil && sample {
		for i, p := range parts {
			if strings.HasPrefix(p, "[CONTEXT]") || strings.HasPrefix(p, "[SAMPLE]") || strings.HasPrefix(p, "[UNWIND]") {
				parts = parts[max(i-1, 0):]
				break
			}
		}
	}
	return findCnode(e, parts)
}

func closeTo(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-12
}

// compareRun compares every value the run's files state with the
// experiment: per thread, a call path's exclusive, inclusive and calls
// with its cnode's, an event's with its region's (summed over its
// cnodes); where the experiment keeps TAU's own inclusive values in its
// call graph (flat profiles), those summed over the threads. It returns
// how many values it compared and how many disagreed (each reported).
//
// A region's inclusive value is its cnodes' subtrees counted once
// (DESIGN §1), as TAU counts a recursive function's time. Yet for a few
// recursive functions TAU's flat Incl differs from what its own call
// paths say (Geant4's ~G4Allocator, WRF's WRF_DEBUG): where a region's
// cnodes nest and the values differ, the difference is counted in
// quirks, not as a disagreement, and the first few are logged.
func compareRun(t *testing.T, e *model.Experiment, run tauRun, label string) (compared, disagree, quirks int) {
	t.Helper()
	if len(run.threads) != e.NumLocations() {
		t.Errorf("%s: %d threads, %d locations", label, len(run.threads), e.NumLocations())
		return 0, 1, 0
	}
	byName := map[string][]int{}
	for c := range e.Cnodes {
		n := e.CnodeRegion(c).Name
		byName[n] = append(byName[n], c)
	}
	regionOf := map[string]int{}
	for r, reg := range e.Regions {
		regionOf[reg.Name] = r
	}
	// top lists a region's cnodes that have no ancestor of the region.
	tops := map[string][]int{}
	top := func(name string) []int {
		if s, ok := tops[name]; ok {
			return s
		}
		var out []int
		for _, c := range byName[name] {
			nested := false
			for p := e.Cnodes[c].Parent; p >= 0 && !nested; p = e.Cnodes[p].Parent {
				nested = e.CnodeRegion(p).Name == name
			}
			if !nested {
				out = append(out, c)
			}
		}
		tops[name] = out
		return out
	}
	type blocks struct{ excl, incl *model.Block }
	points := map[int]blocks{}
	point := func(m int) blocks {
		if b, ok := points[m]; ok {
			return b
		}
		ex, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		in, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, true)
		if err != nil {
			t.Fatal(err)
		}
		points[m] = blocks{ex, in}
		return points[m]
	}
	sum := func(b *model.Block, cnodes []int, col int) float64 {
		v := 0.0
		for _, c := range cnodes {
			v += b.Value(c, col)
		}
		return v
	}
	type metricOf struct{ value, sampled, calls, samples int }
	var ms []metricOf
	var div []float64
	for _, m := range run.metrics {
		mo := metricOf{e.MetricByName(m), e.MetricByName(m + " (sampled)"), e.MetricByName("visits"), e.MetricByName("samples")}
		if mo.value < 0 {
			t.Errorf("%s: no metric %q", label, m)
			return 0, 1, 0
		}
		ms = append(ms, mo)
		d := 1.0
		if e.Metrics[mo.value].Unit == "sec" {
			d = 1e6
		}
		div = append(div, d)
	}
	quirk := false
	check := func(what func() string, got, want float64) {
		compared++
		if !closeTo(got, want) {
			if quirk {
				quirks++
				if quirks <= 3 {
					t.Logf("%s: %s: %v from the call paths, TAU's flat Incl says %v (recursion)", label, what(), got, want)
				}
				return
			}
			disagree++
			if disagree <= 10 {
				t.Errorf("%s: %s: %v, the file states %v", label, what(), got, want)
			}
		}
	}
	graphIncl := map[[2]int]float64{} // (metric k, region) → Σ threads
	for col, evs := range run.threads {
		for _, ev := range evs {
			if ev.derived() {
				continue
			}
			sample := ev.sample()
			isPath := strings.Contains(ev.name, "=>")
			var own, inclusive []int
			switch {
			case isPath:
				c := pathCnode(e, ev.name, sample)
				if c < 0 {
					if e.CallGraph != nil && !sample {
						continue // a cut call path: an arc of the call graph
					}
					check(func() string { return "no cnode for " + ev.name }, 0, 1)
					continue
				}
				own, inclusive = []int{c}, []int{c}
			default:
				own = byName[ev.name]
				if len(own) == 0 {
					if ev.calls == 0 && allZero(ev.excl) && allZero(ev.incl) {
						continue
					}
					check(func() string { return "no region " + ev.name }, 0, 1)
					continue
				}
				inclusive = top(ev.name)
			}
			for k, mo := range ms {
				vm, cm := mo.value, mo.calls
				if sample {
					vm, cm = mo.sampled, mo.samples
				}
				what := func(v string) func() string {
					return func() string { return "thread " + strconv.Itoa(col) + " " + ev.name + " " + run.metrics[k] + " " + v }
				}
				if vm < 0 {
					check(what("(sampled) missing"), 0, 1)
					continue
				}
				b := point(vm)
				check(what("exclusive"), sum(b.excl, own, col), ev.excl[k]/div[k])
				if e.CallGraph != nil && !sample && !isPath {
					graphIncl[[2]int{k, regionOf[ev.name]}] += ev.incl[k] / div[k]
				} else {
					quirk = len(inclusive) < len(own)
					check(what("inclusive"), sum(b.incl, inclusive, col), ev.incl[k]/div[k])
					quirk = false
				}
				if k == 0 {
					check(what("calls"), sum(point(cm).excl, own, col), ev.calls)
				}
			}
		}
	}
	for kr, want := range graphIncl {
		m := ms[kr[0]].value
		got, ok := e.CallGraph.RegionInclusive(m, kr[1])
		what := func() string { return e.Regions[kr[1]].Name + " " + run.metrics[kr[0]] + " inclusive (all threads)" }
		if !ok {
			check(what, 0, 1)
			continue
		}
		check(what, got, want)
	}
	c, d := compareUser(t, e, run, label)
	return compared + c, disagree + d, quirks
}

// compareUser compares each thread's atomic events with the experiment's
// statistics metrics: an event with a context ("name : a => b") at that
// call path (in a flat experiment at the root of b), an event without
// one — unless the thread has it with a context too — summed over the
// call tree.
func compareUser(t *testing.T, e *model.Experiment, run tauRun, label string) (compared, disagree int) {
	t.Helper()
	regions := map[string]bool{}
	for _, r := range e.Regions {
		regions[r.Name] = true
	}
	blocks := map[int]*model.Block{}
	block := func(m int) *model.Block {
		if b, ok := blocks[m]; ok {
			return b
		}
		b, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		blocks[m] = b
		return b
	}
	for col, evs := range run.user {
		contexts := map[string]bool{}
		type placed struct {
			u     tauUser
			name  string
			cnode int // -1: anywhere
		}
		var list []placed
		for _, u := range evs {
			if u.count == 0 {
				continue
			}
			name, where, ok := strings.Cut(u.name, " : ")
			name, where = strings.TrimSpace(name), strings.TrimSpace(where)
			if ok && name != "" && where != "" && (strings.Contains(where, "=>") || regions[where]) {
				parts := splitTAUPath(where)
				if e.CallGraph != nil {
					parts = parts[len(parts)-1:]
				}
				c := findCnode(e, parts)
				contexts[name] = true
				if c < 0 {
					compared++
					disagree++
					t.Errorf("%s: thread %d: no cnode for the context of %q", label, col, u.name)
					continue
				}
				list = append(list, placed{u, name, c})
				continue
			}
			list = append(list, placed{u, strings.TrimSpace(u.name), -1})
		}
		// Events that land on one call path (in a flat experiment, the
		// contexts ending in one event) add up.
		type slot struct {
			name  string
			cnode int
		}
		sums := map[slot]*[numStats]float64{}
		var order []slot
		for _, p := range list {
			if p.cnode < 0 && contexts[p.name] {
				continue // counted with its contexts
			}
			st := [numStats]float64{p.u.count, p.u.mean * p.u.count, p.u.min, p.u.max, p.u.sumsqr}
			k := slot{p.name, p.cnode}
			acc := sums[k]
			if acc == nil {
				sums[k] = &st
				order = append(order, k)
				continue
			}
			acc[0], acc[1], acc[4] = acc[0]+st[0], acc[1]+st[1], acc[4]+st[4]
			acc[2], acc[3] = math.Min(acc[2], st[2]), math.Max(acc[3], st[3])
		}
		for _, k := range order {
			want := *sums[k]
			at := k.cnode // the call path the event sits on
			for i, stat := range statNames {
				m := tau.StatMetric(e, k.name, stat)
				if m < 0 {
					compared++
					disagree++
					t.Errorf("%s: no metric of %q's %s", label, k.name, stat)
					continue
				}
				b := block(m)
				var got float64
				if k.cnode >= 0 {
					got = b.Value(k.cnode, col)
				} else {
					for c := range e.Cnodes {
						if v := b.Value(c, col); v != 0 {
							got = v
							if i == statCount {
								at = c
							}
						}
					}
				}
				compared++
				if !closeTo(got, want[i]) {
					disagree++
					if disagree <= 10 {
						t.Errorf("%s: thread %d %s %s: %v, the file states %v", label, col, k.name, stat, got, want[i])
					}
				}
			}
			// The event's own metric is its mean, the file's column (summed
			// events: their sum over their count); beside it the standard
			// deviation as ParaProf computes it.
			mean := want[1] / want[0]
			std := math.Sqrt(math.Abs(want[4]/want[0] - mean*mean))
			for _, x := range []struct {
				m    int
				want float64
				what string
			}{{e.MetricByName(k.name), mean, "mean"}, {tau.StatMetric(e, k.name, "std"), std, "std. dev."}} {
				compared++
				if x.m < 0 || at < 0 || !e.Metrics[x.m].IsDerived() {
					disagree++
					t.Errorf("%s: %q has no derived %s (metric %d, call path %d)", label, k.name, x.what, x.m, at)
					continue
				}
				if got := block(x.m).Value(at, col); !closeTo(got, x.want) && math.Abs(got-x.want) > 1e-6*math.Abs(mean) {
					disagree++
					if disagree <= 10 {
						t.Errorf("%s: thread %d %s %s: %v, the file states %v", label, col, k.name, x.what, got, x.want)
					}
				}
			}
		}
	}
	return compared, disagree
}

// Statistics of an atomic event, as the importer names its metrics.
const (
	statCount = iota
	numStats  = 5
)

var statNames = [numStats]string{"count", "sum", "min", "max", "sumsqr"}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

var profileFileRE = regexp.MustCompile(`^profile\.(\d+)\.(\d+)\.(\d+)$`)

// readDirRun reads a profile directory's files (and MULTI__ directories)
// the simple way: the first two lines, then per event line the quoted
// name, Calls, Excl, Incl and GROUP.
func readDirRun(t *testing.T, dir string) tauRun {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var subdirs []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "MULTI__") {
			subdirs = append(subdirs, e.Name())
		}
	}
	if len(subdirs) == 0 {
		subdirs = []string{""}
	}
	// The importer puts time metrics first.
	slices.SortStableFunc(subdirs, func(a, b string) int {
		ta, tb := isTime(strings.TrimPrefix(a, "MULTI__")), isTime(strings.TrimPrefix(b, "MULTI__"))
		switch {
		case ta && !tb:
			return -1
		case tb && !ta:
			return 1
		}
		return strings.Compare(a, b)
	})
	var run tauRun
	for k, sd := range subdirs {
		files := threadFiles(t, filepath.Join(dir, sd))
		if k == 0 {
			run.threads = make([][]tauEvent, len(files))
		}
		name := strings.TrimPrefix(sd, "MULTI__")
		for col, f := range files {
			evs, metric, user := readProfileFile(t, f)
			if name == "" {
				name = metric
			}
			if k == 0 {
				run.user = append(run.user, user)
			}
			if k == 0 {
				for _, ev := range evs {
					run.threads[col] = append(run.threads[col], tauEvent{name: ev.name, group: ev.group, calls: ev.calls,
						excl: []float64{ev.excl}, incl: []float64{ev.incl}})
				}
				continue
			}
			for i, ev := range evs {
				th := run.threads[col]
				if i >= len(th) || th[i].name != ev.name {
					t.Fatalf("%s: events differ in order from the first metric's", f)
				}
				th[i].excl = append(th[i].excl, ev.excl)
				th[i].incl = append(th[i].incl, ev.incl)
			}
		}
		run.metrics = append(run.metrics, name)
	}
	return run
}

func isTime(m string) bool {
	n := strings.ToUpper(strings.ReplaceAll(m, " ", "_"))
	return n == "" || n == "TIME" || n == "GET_TIME_OF_DAY" || strings.HasSuffix(n, "_TIME") || strings.HasSuffix(n, "_TIMERS") || strings.HasSuffix(n, "_TIMER") || strings.HasSuffix(n, "WALL_CLOCK")
}

// threadFiles lists a directory's profile.N.C.T files in (node,
// context, thread) order.
func threadFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		key  [3]int
		path string
	}
	var files []file
	for _, e := range entries {
		if m := profileFileRE.FindStringSubmatch(e.Name()); m != nil {
			var k [3]int
			for i := range k {
				k[i], _ = strconv.Atoi(m[i+1])
			}
			files = append(files, file{k, filepath.Join(dir, e.Name())})
		}
	}
	slices.SortFunc(files, func(a, b file) int { return slices.Compare(a.key[:], b.key[:]) })
	var out []string
	for _, f := range files {
		out = append(out, f.path)
	}
	return out
}

type plainEvent struct {
	name, group       string
	calls, excl, incl float64
}

// readProfileFile returns a profile file's events and the metric its
// first line or metadata name ("" if none).
func readProfileFile(t *testing.T, path string) ([]plainEvent, string, []tauUser) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<26)
	sc.Scan()
	first := strings.TrimPrefix(sc.Text(), "\ufeff")
	n, _ := strconv.Atoi(strings.Fields(first)[0])
	metric := ""
	if _, m, ok := strings.Cut(first, "templated_functions_MULTI_"); ok {
		metric = strings.TrimSpace(m)
	}
	sc.Scan()
	if metric == "" {
		if _, rest, ok := strings.Cut(sc.Text(), "<name>Metric Name</name><value>"); ok {
			metric, _, _ = strings.Cut(rest, "</value>")
		}
	}
	var evs []plainEvent
	for i := 0; i < n && sc.Scan(); i++ {
		line := sc.Text()
		end := strings.LastIndex(line, `" `)
		if g := strings.Index(line, ` GROUP="`); g >= 0 {
			end = strings.LastIndex(line[:g], `" `)
		}
		name := strings.TrimSpace(line[1:end])
		f := strings.Fields(line[end+2:])
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatalf("%s: %s: %v", path, line, err)
			}
			return v
		}
		group := ""
		if _, g, ok := strings.Cut(line[end+2:], `GROUP="`); ok {
			group = strings.TrimSuffix(strings.TrimSpace(g), `"`)
		}
		evs = append(evs, plainEvent{name: name, group: group, calls: num(0), excl: num(2), incl: num(3)})
		numbers := 0
		for numbers < len(f) && !strings.HasPrefix(f[numbers], "GROUP=") {
			numbers++
		}
		for range int(num(numbers - 1)) { // ProfileCalls lines
			sc.Scan()
		}
	}
	// "0 aggregates", then maybe "K userevents", a header and K lines
	// `"name" numevents max min mean sumsqr`.
	var user []tauUser
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || f[1] != "userevents" {
			continue
		}
		k, _ := strconv.Atoi(f[0])
		sc.Scan() // header
		for i := 0; i < k && sc.Scan(); i++ {
			line := sc.Text()
			end := strings.LastIndex(line, `"`)
			v := strings.Fields(line[end+1:])
			if len(v) != 5 {
				t.Fatalf("%s: user event %q", path, line)
			}
			var n [5]float64
			for j := range n {
				n[j], _ = strconv.ParseFloat(v[j], 64)
			}
			user = append(user, tauUser{strings.TrimSpace(line[1:end]), n[0], n[1], n[2], n[3], n[4]})
		}
		break
	}
	return evs, metric, user
}

// readPackedRun decodes a packed profile the simple way, as ParaProf's
// PackedProfileDataSource lays it out.
func readPackedRun(t *testing.T, path string) tauRun {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
		if raw, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	b := raw[6:]
	i32 := func() int { v := int32(binary.BigEndian.Uint32(b)); b = b[4:]; return int(v) }
	f64 := func() float64 { v := math.Float64frombits(binary.BigEndian.Uint64(b)); b = b[8:]; return v }
	str := func() string { n := binary.BigEndian.Uint16(b); s := string(b[2 : 2+n]); b = b[2+n:]; return s }
	version := i32()
	i32() // compatible
	if version >= 2 {
		i32()
		b = b[i32():]
		for range 2 * i32() {
			str()
		}
		for range i32() {
			i32()
			i32()
			i32()
			for range 2 * i32() {
				str()
			}
		}
	} else {
		b = b[i32():]
	}
	var run tauRun
	for range i32() {
		run.metrics = append(run.metrics, str())
	}
	groups := make([]string, i32())
	for i := range groups {
		groups[i] = str()
	}
	type fn struct{ name, group string }
	funcs := make([]fn, i32())
	for i := range funcs {
		funcs[i].name = strings.TrimSpace(str())
		var gs []string
		for range i32() {
			gs = append(gs, groups[i32()])
		}
		funcs[i].group = strings.Join(gs, "|")
	}
	userNames := make([]string, i32())
	for i := range userNames {
		userNames[i] = str()
	}
	type thread struct {
		key  [3]int
		evs  []tauEvent
		user []tauUser
	}
	var threads []thread
	for range i32() {
		th := thread{key: [3]int{i32(), i32(), i32()}}
		for range i32() {
			f := funcs[i32()]
			ev := tauEvent{name: f.name, group: f.group, calls: f64()}
			f64()
			for range run.metrics {
				ev.excl = append(ev.excl, f64())
				ev.incl = append(ev.incl, f64())
			}
			th.evs = append(th.evs, ev)
		}
		for range i32() {
			u := tauUser{name: userNames[i32()], count: float64(i32())}
			u.min, u.max, u.mean, u.sumsqr = f64(), f64(), f64(), f64()
			th.user = append(th.user, u)
		}
		threads = append(threads, th)
	}
	slices.SortFunc(threads, func(a, b thread) int { return slices.Compare(a.key[:], b.key[:]) })
	for _, th := range threads {
		run.threads = append(run.threads, th.evs)
		run.user = append(run.user, th.user)
	}
	return run
}

// The lines of TAU's XML profiles the simple reader below needs: TAU
// writes each of these elements on a line of its own.
var (
	xmlThread     = regexp.MustCompile(`<thread id="([^"]*)" node="(\d+)" context="(\d+)" thread="(\d+)">`)
	xmlDefs       = regexp.MustCompile(`<definitions thread="([^"]*)">`)
	xmlMetric     = regexp.MustCompile(`<metric id="(\d+)"><name>(.*?)</name>`)
	xmlEvent      = regexp.MustCompile(`<event id="(\d+)"><name>(.*?)</name><group>(.*?)</group>`)
	xmlProfile    = regexp.MustCompile(`<profile thread="([^"]*)">`)
	xmlIntervalAt = regexp.MustCompile(`<interval_data metrics="([^"]*)">`)
	xmlUserEvent  = regexp.MustCompile(`<userevent id="(\d+)"><name>(.*?)</name>`)
)

func xmlText(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<![CDATA[") {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<![CDATA["), "]]>"))
	}
	return strings.TrimSpace(html.UnescapeString(s))
}

// readXMLRun reads a TAU XML profile's (decompressed) text the simple
// way, line by line: definitions by id (of the thread, else of all
// threads), and each thread's last profile.
func readXMLRun(t *testing.T, text string) tauRun {
	t.Helper()
	type key struct{ scope, id string }
	metrics, events := map[key]string{}, map[key][2]string{}
	var run tauRun
	metricIdx := map[string]int{}
	type thread struct {
		key  [3]int
		evs  map[string]*tauEvent
		list []string
		user []tauUser
	}
	threads := map[string]*thread{}
	userEvents := map[key]string{}
	scope, cur := "", ""
	atomic := false  // in atomic data
	var ids []string // metrics of the interval data being read, or nil
	skip := false    // in a derived profile
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case skip:
			skip = !strings.Contains(line, "</derivedprofile>")
		case strings.HasPrefix(line, "<derivedprofile"):
			skip = !strings.Contains(line, "</derivedprofile>")
		case atomic:
			if strings.HasPrefix(line, "</atomic_data>") {
				atomic = false
				continue
			}
			f := strings.Fields(line)
			if len(f) != 6 {
				continue
			}
			name, ok := userEvents[key{cur, f[0]}]
			if !ok {
				name = userEvents[key{"*", f[0]}]
			}
			th := threads[cur]
			th.user = append(th.user, tauUser{name, num(f[1]), num(f[2]), num(f[3]), num(f[4]), num(f[5])})
		case strings.HasPrefix(line, "<atomic_data>"):
			atomic = true
		case ids != nil:
			if strings.HasPrefix(line, "</interval_data>") {
				ids = nil
				continue
			}
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			def, ok := events[key{cur, f[0]}]
			if !ok {
				def = events[key{"*", f[0]}]
			}
			th := threads[cur]
			ev := th.evs[def[0]]
			if ev == nil {
				ev = &tauEvent{name: def[0], group: def[1], excl: make([]float64, len(run.metrics)), incl: make([]float64, len(run.metrics))}
				th.evs[def[0]] = ev
				th.list = append(th.list, def[0])
			}
			ev.calls = num(f[1])
			for i, id := range ids {
				name, ok := metrics[key{cur, id}]
				if !ok {
					name = metrics[key{"*", id}]
				}
				k := metricIdx[name]
				ev.excl[k], ev.incl[k] = num(f[3+2*i]), num(f[4+2*i])
			}
		default:
			if m := xmlThread.FindStringSubmatch(line); m != nil && threads[m[1]] == nil {
				var k [3]int
				for i := range k {
					k[i], _ = strconv.Atoi(m[2+i])
				}
				threads[m[1]] = &thread{key: k}
			} else if m := xmlDefs.FindStringSubmatch(line); m != nil {
				scope = m[1]
			} else if m := xmlMetric.FindStringSubmatch(line); m != nil {
				name := xmlText(m[2])
				metrics[key{scope, m[1]}] = name
				if _, ok := metricIdx[name]; !ok {
					metricIdx[name] = len(run.metrics)
					run.metrics = append(run.metrics, name)
				}
			} else if m := xmlEvent.FindStringSubmatch(line); m != nil {
				events[key{scope, m[1]}] = [2]string{xmlText(m[2]), xmlText(m[3])}
			} else if m := xmlUserEvent.FindStringSubmatch(line); m != nil {
				userEvents[key{scope, m[1]}] = xmlText(m[2])
			} else if m := xmlProfile.FindStringSubmatch(line); m != nil {
				cur = m[1]
				threads[cur].evs, threads[cur].list, threads[cur].user = map[string]*tauEvent{}, nil, nil
			} else if m := xmlIntervalAt.FindStringSubmatch(line); m != nil {
				ids = strings.Fields(m[1])
			}
		}
	}
	var list []*thread
	for _, th := range threads {
		list = append(list, th)
	}
	slices.SortFunc(list, func(a, b *thread) int { return slices.Compare(a.key[:], b.key[:]) })
	for _, th := range list {
		var evs []tauEvent
		for _, n := range th.list {
			evs = append(evs, *th.evs[n])
		}
		run.threads = append(run.threads, evs)
		run.user = append(run.user, th.user)
	}
	return run
}

// readXMLTotals returns the values of TAU's own "total" profile of a
// merged XML profile (first metric): per instrumented event, calls,
// exclusive and inclusive summed over the threads.
func readXMLTotals(text string) map[string][3]float64 {
	start := strings.Index(text, `<derivedprofile derivedentity="total">`)
	if start < 0 {
		return nil
	}
	names := map[string]string{}
	for rest := text; ; {
		i := strings.Index(rest, `<definitions thread="*">`)
		if i < 0 {
			break
		}
		rest = rest[i:]
		end := strings.Index(rest, "</definitions>")
		if end < 0 {
			break
		}
		for _, line := range strings.Split(rest[:end], "\n") {
			if e := xmlEvent.FindStringSubmatch(line); e != nil {
				if ev := (tauEvent{group: e[3]}); !ev.sample() && !ev.derived() {
					names[e[1]] = xmlText(e[2])
				}
			}
		}
		rest = rest[end:]
	}
	block := text[start:]
	block = block[strings.Index(block, ">\n")+2:]
	block = block[strings.Index(block, ">")+1 : strings.Index(block, "</derivedinterval_data>")]
	out := map[string][3]float64{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		name, ok := names[f[0]]
		if !ok {
			continue
		}
		var v [3]float64
		for i, j := range []int{1, 3, 4} {
			v[i], _ = strconv.ParseFloat(f[j], 64)
		}
		out[name] = v
	}
	return out
}
