package tau

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"cubeview/format/importer"
	"cubeview/model"
)

// prof writes a profile file: the header for n events of kind, the
// column header with metadata, the event lines, aggregates and user events.
func prof(kind string, meta map[string]string, events []string, user []string) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(events)) + " " + kind + "\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata>")
	for _, k := range sortedKeys(meta) {
		b.WriteString("<attribute><name>" + k + "</name><value>" + meta[k] + "</value></attribute>")
	}
	b.WriteString("</metadata>\n")
	for _, e := range events {
		b.WriteString(e + "\n")
	}
	b.WriteString("0 aggregates\n")
	if user != nil {
		b.WriteString(strconv.Itoa(len(user)) + " userevents\n# eventname numevents max min mean sumsqr\n")
		for _, u := range user {
			b.WriteString(u + "\n")
		}
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func read(t *testing.T, files map[string]string) (*model.Experiment, error) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	e, err := ReadFS(fsys, "run", importer.Options{})
	if err == nil {
		if verr := e.Validate(); verr != nil {
			t.Fatalf("invalid experiment: %v", verr)
		}
	}
	return e, err
}

func mustRead(t *testing.T, files map[string]string) *model.Experiment {
	t.Helper()
	e, err := read(t, files)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func total(t *testing.T, e *model.Experiment, uniq string, c int) float64 {
	t.Helper()
	m := e.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("no metric %q", uniq)
	}
	v, err := e.LocationValues(model.MetricSel{Metric: m, Inclusive: true}, model.CnodeSel{Cnode: c, Inclusive: c < 0})
	if err != nil {
		t.Fatal(err)
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

var treeEvents = []string{
	`".TAU application" 1 2 100 1000 0 GROUP="TAU_DEFAULT"`,
	`"foo()" 3 1 300 800 0 GROUP="TAU_USER"`,
	`".TAU application => foo()" 2 1 200 600 0 GROUP="TAU_CALLPATH|TAU_USER"`,
	`"bar() [{bar.c} {12,1}-{40,2}]" 1 0 200 200 0 GROUP="TAU_USER"`,
	`".TAU application => foo() => bar() [{bar.c} {12,1}-{40,2}]" 1 0 200 200 0 GROUP="TAU_CALLPATH|TAU_USER"`,
	`"MPI_Send()" 4 0 100 100 0 GROUP="MPI"`,
	`".TAU application => MPI_Send()" 4 0 100 100 0 GROUP="TAU_CALLPATH|MPI"`,
}

// TestCallTree: call paths become the call tree; foo's third call, which
// no path holds, is a top-level call (a root of its own).
func TestCallTree(t *testing.T) {
	e := mustRead(t, map[string]string{"profile.0.0.0": prof("templated_functions_MULTI_TIME", nil, treeEvents, []string{})})
	for path, want := range map[string][2]float64{
		".TAU application":       {100e-6, 1},
		".TAU application/foo()": {200e-6, 2},
		".TAU application/foo()/bar() [{bar.c} {12,1}-{40,2}]": {200e-6, 1},
		".TAU application/MPI_Send()":                          {100e-6, 4},
		"foo()":                                                {100e-6, 1},
	} {
		c := e.CnodeByPath(path)
		if c < 0 {
			t.Errorf("no call path %s", path)
			continue
		}
		if got := [2]float64{total(t, e, "TIME", c), total(t, e, "visits", c)}; !near2(got, want) {
			t.Errorf("%s: time, visits %v, want %v", path, got, want)
		}
	}
	if len(e.Cnodes) != 5 || e.CallGraph != nil {
		t.Errorf("%d cnodes (want 5), call graph %v (want none)", len(e.Cnodes), e.CallGraph)
	}
	bar := e.Regions[e.Cnodes[e.CnodeByPath(".TAU application/foo()/bar() [{bar.c} {12,1}-{40,2}]")].Region]
	if bar.Module != "bar.c" || bar.Begin != 12 || bar.End != 40 || bar.Paradigm != "user" {
		t.Errorf("bar: %+v", bar)
	}
	send := e.Regions[e.Cnodes[e.CnodeByPath(".TAU application/MPI_Send()")].Region]
	if send.Paradigm != "mpi" || send.Role != "function" {
		t.Errorf("MPI_Send: paradigm %q role %q", send.Paradigm, send.Role)
	}
}

func near2(a, b [2]float64) bool {
	for i := range a {
		d := a[i] - b[i]
		if d < 0 {
			d = -d
		}
		if d > 1e-12*(1+b[i]) {
			return false
		}
	}
	return true
}

// TestMultiMetric: MULTI__ directories give one metric each; counters stay
// counts, visits come from the time metric.
func TestMultiMetric(t *testing.T) {
	counts := []string{
		`".TAU application" 1 1 7000 9000 0 GROUP="TAU_DEFAULT"`,
		`"foo()" 3 0 2000 2000 0 GROUP="TAU_USER"`,
		`".TAU application => foo()" 3 0 2000 2000 0 GROUP="TAU_CALLPATH|TAU_USER"`,
	}
	times := []string{
		`".TAU application" 1 1 10 40 0 GROUP="TAU_DEFAULT"`,
		`"foo()" 3 0 30 30 0 GROUP="TAU_USER"`,
		`".TAU application => foo()" 3 0 30 30 0 GROUP="TAU_CALLPATH|TAU_USER"`,
	}
	files := map[string]string{}
	for _, th := range []string{"profile.0.0.0", "profile.0.0.1"} {
		files["MULTI__PAPI_TOT_CYC/"+th] = prof("templated_functions_MULTI_PAPI_TOT_CYC", nil, counts, nil)
		files["MULTI__TIME/"+th] = prof("templated_functions_MULTI_TIME", nil, times, nil)
	}
	e := mustRead(t, files)
	if e.NumLocations() != 2 || e.Metrics[0].UniqName != "TIME" || e.Metrics[1].UniqName != "PAPI_TOT_CYC" {
		t.Fatalf("%d locations, metrics %q, %q", e.NumLocations(), e.Metrics[0].UniqName, e.Metrics[1].UniqName)
	}
	if m := e.Metrics[1]; m.Unit != "occ" || m.DataType != model.Uint64 {
		t.Errorf("counter: unit %q type %q, want occ UINT64", m.Unit, m.DataType)
	}
	foo := e.CnodeByPath(".TAU application/foo()")
	if got := total(t, e, "PAPI_TOT_CYC", foo); got != 4000 {
		t.Errorf("PAPI_TOT_CYC at foo = %v, want 4000", got)
	}
	if got := total(t, e, "TIME", -1); got != 80e-6 {
		t.Errorf("TIME total = %v, want 80e-6", got)
	}
	if got := total(t, e, "visits", foo); got != 6 {
		t.Errorf("visits at foo = %v, want 6", got)
	}
}

// TestTruncatedCallPaths: paths cut at TAU_CALLPATH_DEPTH become arcs of a
// call graph over a flat forest; the flat profile keeps TAU's values.
func TestTruncatedCallPaths(t *testing.T) {
	events := []string{
		`"main" 1 1 10 100 0 GROUP="TAU_USER"`,
		`"a" 1 1 20 90 0 GROUP="TAU_USER"`,
		`"main => a" 1 1 20 90 0 GROUP="TAU_CALLPATH|TAU_USER"`,
		`"b" 2 0 70 70 0 GROUP="TAU_USER"`,
		`"a => b" 2 0 70 70 0 GROUP="TAU_CALLPATH|TAU_USER"`,
	}
	e := mustRead(t, map[string]string{"profile.0.0.0": prof("templated_functions", map[string]string{"TAU_CALLPATH_DEPTH": "2"}, events, nil)})
	if e.CallGraph == nil || len(e.CnodeRoots) != 3 || len(e.Cnodes) != 3 {
		t.Fatalf("want a flat forest of 3 regions with a call graph; %d cnodes, graph %v", len(e.Cnodes), e.CallGraph)
	}
	m := e.MetricByName("TIME")
	ex, in, _ := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
	want := map[string][2]float64{"main": {10e-6, 100e-6}, "a": {20e-6, 90e-6}, "b": {70e-6, 70e-6}}
	for r, reg := range e.Regions {
		if got := [2]float64{ex[r], in[r]}; !near2(got, want[reg.Name]) {
			t.Errorf("%s: %v, want %v", reg.Name, got, want[reg.Name])
		}
	}
	if len(e.CallGraph.Arcs) != 2 {
		t.Fatalf("arcs %+v", e.CallGraph.Arcs)
	}
	a := e.CallGraph.Arcs[1]
	if e.Regions[a.Caller].Name != "a" || e.Regions[a.Callee].Name != "b" || a.Calls != 2 || !near2([2]float64{a.Values[m]}, [2]float64{70e-6}) {
		t.Errorf("arc a → b: %+v", a)
	}
	if !strings.Contains(e.Format, "TAU_CALLPATH_DEPTH") {
		t.Errorf("format %q does not say the paths were cut", e.Format)
	}
}

// TestFlatProfileKeepsInclusive: without call paths the tool's inclusive
// values travel in the call graph.
func TestFlatProfileKeepsInclusive(t *testing.T) {
	events := []string{`"main" 1 1 10 100 0 GROUP="TAU_USER"`, `"work" 5 0 90 90 0 GROUP="TAU_USER"`}
	e := mustRead(t, map[string]string{
		"profile.0.0.0": prof("templated_functions", nil, events, nil),
		"profile.1.0.0": prof("templated_functions", nil, events, nil),
	})
	_, in, _ := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("TIME"), Inclusive: true})
	if in[0] != 200e-6 || in[1] != 180e-6 {
		t.Errorf("inclusive %v, want [200e-6 180e-6]", in)
	}
}

// TestSamples: [SAMPLE] and [CONTEXT] events go to their own metrics, so
// the instrumented time keeps TAU's inclusive values.
func TestSamples(t *testing.T) {
	events := []string{
		`".TAU application" 1 1 100 300 0 GROUP="TAU_DEFAULT"`,
		`"work" 1 0 200 200 0 GROUP="TAU_USER"`,
		`".TAU application => work" 1 0 200 200 0 GROUP="TAU_CALLPATH|TAU_USER"`,
		`"[CONTEXT] .TAU application" 3 0 0 150 0 GROUP="TAU_SAMPLE_CONTEXT"`,
		`".TAU application  => [CONTEXT] .TAU application" 3 0 0 150 0 GROUP="TAU_SAMPLE_CONTEXT|TAU_CALLPATH"`,
		`"[SAMPLE] hot [{hot.c} {7}]" 3 0 150 150 0 GROUP="TAU_SAMPLE"`,
		`".TAU application  => [CONTEXT] .TAU application  => [SAMPLE] hot [{hot.c} {7}]" 3 0 150 150 0 GROUP="TAU_SAMPLE|TAU_CALLPATH"`,
	}
	e := mustRead(t, map[string]string{"profile.0.0.0": prof("templated_functions_MULTI_TIME", nil, events, nil)})
	root := e.CnodeByPath(".TAU application")
	if got := total(t, e, "TIME", -1); !near2([2]float64{got}, [2]float64{300e-6}) {
		t.Errorf("TIME total %v, want TAU's inclusive 300e-6", got)
	}
	if got := total(t, e, "TIME (sampled)", -1); got != 150e-6 {
		t.Errorf("sampled total %v, want 150e-6", got)
	}
	if got := total(t, e, "samples", -1); got != 6 {
		t.Errorf("samples %v, want 6 (3 in the context, 3 at the sample)", got)
	}
	if got := total(t, e, "visits", root); got != 1 {
		t.Errorf("visits at the root %v, want 1", got)
	}
	hot := e.Regions[e.Cnodes[cnodeWithRegion(e, "[SAMPLE] hot [{hot.c} {7}]")].Region]
	if hot.Paradigm != "sampling" || hot.Module != "hot.c" || hot.Begin != 7 {
		t.Errorf("sample region %+v", hot)
	}
}

// TestSamplesWithoutCallPaths: event-based sampling without call paths —
// the instrumented events are flat, only the samples have paths (as in
// TAU's examples/mm run packed as HeatMapSamples/matmult.ppk). The
// instrumented events keep TAU's inclusive values, and the run has the
// same model as the run without samples: a flat forest with a call graph.
func TestSamplesWithoutCallPaths(t *testing.T) {
	flat := []string{
		`".TAU application" 1 1 50 2500050 0 GROUP="TAU_USER"`,
		`"int main(int, char **) C [{matmult.c} {225,1}-{301,1}]" 1 2 100 2500000 0 GROUP="TAU_DEFAULT"`,
		`"void compute(double **, double **, double **, int, int, int) C [{matmult.c} {84,1}-{103,1}]" 2 0 2499900 2499900 0 GROUP="TAU_USER"`,
	}
	samples := []string{
		`"int main(int, char **) C [{matmult.c} {225,1}-{301,1}] => [CONTEXT] int main(int, char **) C [{matmult.c} {225,1}-{301,1}]" 3 0 0 30000 0 GROUP="TAU_SAMPLE_CONTEXT|TAU_CALLPATH"`,
		`"int main(int, char **) C [{matmult.c} {225,1}-{301,1}] => [CONTEXT] int main(int, char **) C [{matmult.c} {225,1}-{301,1}] => [SAMPLE] compute [{matmult.c} {93}]" 3 0 30000 30000 0 GROUP="TAU_SAMPLE|TAU_CALLPATH"`,
		`"[CONTEXT] int main(int, char **) C [{matmult.c} {225,1}-{301,1}]" 3 0 0 30000 0 GROUP="TAU_SAMPLE_CONTEXT"`,
		`"[SAMPLE] compute [{matmult.c} {93}]" 3 0 30000 30000 0 GROUP="TAU_SAMPLE"`,
	}
	withSamples := mustRead(t, map[string]string{
		"profile.0.0.0": prof("templated_functions_MULTI_TIME", nil, append(slices.Clone(flat), samples...), nil),
		"profile.1.0.0": prof("templated_functions_MULTI_TIME", nil, append(slices.Clone(flat), samples...), nil),
	})
	without := mustRead(t, map[string]string{
		"profile.0.0.0": prof("templated_functions_MULTI_TIME", nil, flat, nil),
		"profile.1.0.0": prof("templated_functions_MULTI_TIME", nil, flat, nil),
	})
	for _, e := range []*model.Experiment{withSamples, without} {
		if e.CallGraph == nil {
			t.Fatal("no call graph: TAU's inclusive values are lost")
		}
		m := e.MetricByName("TIME")
		ex, in, err := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		for r, reg := range e.Regions {
			if strings.HasPrefix(reg.Name, "int main") && (!near2([2]float64{ex[r], in[r]}, [2]float64{200e-6, 5.0})) {
				t.Errorf("main: exclusive, inclusive %v %v; want TAU's 200e-6 and 5 s", ex[r], in[r])
			}
		}
	}
	// The instrumented part is the same model; the samples hang below
	// main, the instrumented event that holds them.
	if len(without.Cnodes) != 3 || len(withSamples.Cnodes) != 5 || len(withSamples.CnodeRoots) != 3 {
		t.Errorf("%d and %d cnodes, %d roots with samples; want 3, 5 and 3", len(without.Cnodes), len(withSamples.Cnodes), len(withSamples.CnodeRoots))
	}
	c := cnodeWithRegion(withSamples, "[SAMPLE] compute [{matmult.c} {93}]")
	if c < 0 || withSamples.CnodeRegion(withSamples.Cnodes[withSamples.Cnodes[c].Parent].Parent).Name != "int main(int, char **) C [{matmult.c} {225,1}-{301,1}]" {
		t.Errorf("the sample is not below main's context")
	} else if got := total(t, withSamples, "TIME (sampled)", c); got != 60000e-6 {
		t.Errorf("sampled time at the sample %v, want 0.06", got)
	}
	if got := total(t, withSamples, "samples", -1); got != 12 {
		t.Errorf("%v samples, want 12 (3 in the context, 3 at the sample, 2 threads)", got)
	}
}

func cnodeWithRegion(e *model.Experiment, name string) int {
	for c := range e.Cnodes {
		if e.CnodeRegion(c).Name == name {
			return c
		}
	}
	return -1
}

// TestUserEvents: an atomic event with a call-path context sits on that
// path, the plain event of the same name is then not counted again; a
// mean is stored as sum and count.
func TestUserEvents(t *testing.T) {
	user := []string{
		`"Message size : .TAU application => MPI_Send()" 2 64 16 40 4352`,
		`"Message size" 2 64 16 40 4352`,
		`"Heap (KB)" 4 10 1 2.5 50`,
	}
	e := mustRead(t, map[string]string{"profile.0.0.0": prof("templated_functions_MULTI_TIME", nil, treeEvents, user)})
	send := e.CnodeByPath(".TAU application/MPI_Send()")
	for stat, want := range map[string]float64{
		"count": 2, "sum": 80, "min": 16, "max": 64, "sumsqr": 4352,
	} {
		uniq := statUniq(e, "Message size", stat)
		if got := total(t, e, uniq, send); got != want {
			t.Errorf("%s at MPI_Send: %v, want %v", uniq, got, want)
		}
		if got := total(t, e, uniq, -1); stat != "min" && got != want {
			t.Errorf("%s in total: %v, want %v (counted once)", uniq, got, want)
		}
	}
	root := e.CnodeByPath(".TAU application")
	if got := total(t, e, statUniq(e, "Heap (KB)", "sum"), root); got != 10 {
		t.Errorf("plain event on the main root: sum %v, want 10", got)
	}
	if m := e.Metrics[e.MetricByName(statUniq(e, "Heap (KB)", "min"))]; m.Aggregation != model.Min {
		t.Errorf("min statistic aggregates by %v", m.Aggregation)
	}
}

// TestContextEventsWithoutCallPaths: TAU records the context of an atomic
// event (up to TAU_CALLPATH_DEPTH events) also when it records no call
// paths (TAU's examples/workflow_consolidation/reader2_0). The context
// must not become an invented call path: the event sits on the root of
// the event that fired it, contexts ending there added up.
func TestContextEventsWithoutCallPaths(t *testing.T) {
	events := []string{
		`".TAU application" 1 3 10 100 0 GROUP="TAU_DEFAULT"`,
		`"ADIOS open" 1 1 20 50 0 GROUP="TAU_USER"`,
		`"ADIOS read" 1 1 10 30 0 GROUP="TAU_USER"`,
		`"MPI_Bcast()  " 2 0 50 50 0 GROUP="MPI"`,
	}
	user := []string{
		`"Message size : ADIOS open => MPI_Bcast()  " 1 8192 8192 8192 67108864`,
		`"Message size : ADIOS read => MPI_Bcast()  " 1 16 16 16 256`,
		`"Message size" 2 8192 16 4104 67109120`,
	}
	e := mustRead(t, map[string]string{"profile.0.0.0": prof("templated_functions_MULTI_TIME", map[string]string{"TAU_CALLPATH_DEPTH": "2"}, events, user)})
	for c := range e.Cnodes {
		if e.Cnodes[c].Parent >= 0 {
			t.Errorf("invented call path %s", e.CallPath(c))
		}
	}
	bcast := e.CnodeByPath("MPI_Bcast()")
	for stat, want := range map[string]float64{"count": 2, "sum": 8208, "min": 16, "max": 8192} {
		uniq := statUniq(e, "Message size", stat)
		if got := total(t, e, uniq, bcast); got != want {
			t.Errorf("%s at MPI_Bcast(): %v, want %v", uniq, got, want)
		}
	}
}

func TestMetadataAttributes(t *testing.T) {
	meta0 := map[string]string{"Hostname": "n0", "TAU Version": "2.33", "Node Name": "n0", "pid": "1", "Note": "a &amp; b &lt;c&gt;"}
	meta1 := map[string]string{"Hostname": "n1", "TAU Version": "2.33", "Node Name": "n1", "pid": "2", "Note": "a &amp; b &lt;c&gt;"}
	ev := []string{`"main" 1 0 1 1 0 GROUP="TAU_USER"`}
	e := mustRead(t, map[string]string{
		"profile.0.0.0": prof("templated_functions", meta0, ev, nil),
		"profile.1.0.0": prof("templated_functions", meta1, ev, nil),
	})
	if v, _ := e.Attr("Note"); v != "a & b <c>" {
		t.Errorf("Note = %q", v)
	}
	if v, _ := e.Attr("Creator"); v != "TAU 2.33" {
		t.Errorf("Creator = %q", v)
	}
	// Each process on its host; the second thread keeps what differs.
	var hosts []string
	for _, n := range e.System {
		if n.Class == "node" {
			hosts = append(hosts, n.Name)
		}
	}
	if strings.Join(hosts, ",") != "n0,n1" {
		t.Errorf("hosts %v", hosts)
	}
	loc := e.Location(1)
	if len(loc.Attrs) != 3 || loc.Attrs[0].Key != "Hostname" || loc.Attrs[0].Value != "n1" {
		t.Errorf("second thread's attributes %v", loc.Attrs)
	}
}

// TestBadInput: every problem is an error naming the file and, inside a
// file, the line.
func TestBadInput(t *testing.T) {
	good := prof("templated_functions_MULTI_TIME", nil, treeEvents, []string{})
	lines := strings.Split(good, "\n")
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"truncated", map[string]string{"profile.0.0.0": strings.Join(lines[:5], "\n")}, "run/profile.0.0.0:1: declares 7 events but the file has only 5 lines (truncated?)"},
		{"truncated before aggregates", map[string]string{"profile.0.0.0": strings.Join(lines[:9], "\n")}, "run/profile.0.0.0:9: file ends after the events"},
		{"non-numeric", map[string]string{"profile.0.0.0": strings.Replace(good, `"foo()" 3 1 300`, `"foo()" 3 1 x300`, 1)}, `run/profile.0.0.0:4: event 2 of 7: event "foo()": column Excl: "x300" is not a number`},
		{"missing column", map[string]string{"profile.0.0.0": strings.Replace(good, `"foo()" 3 1 300 800 0 GROUP="TAU_USER"`, `"foo()" 3 1 300`, 1)}, "run/profile.0.0.0:4: event 2 of 7: event \"foo()\": column Incl is missing"},
		{"not a profile", map[string]string{"profile.0.0.0": "hello\n"}, "run/profile.0.0.0:1: not a TAU profile"},
		{"empty MULTI", map[string]string{"MULTI__TIME/profile.0.0.0": good, "MULTI__X/readme": "x"}, "run/MULTI__X: metric directory without profile files"},
		{"no profiles", map[string]string{"readme": "x"}, "run: no TAU profile files"},
		{"aggregates", map[string]string{"profile.0.0.0": strings.Replace(good, "0 aggregates", "2 aggregates", 1)}, "run/profile.0.0.0:10: 2 aggregates: aggregate profiles are not supported"},
		{"huge count", map[string]string{"profile.0.0.0": "99999999 templated_functions\n"}, "declares 99999999 events but the file has only 2 lines"},
		{"truncated user events", map[string]string{"profile.0.0.0": prof("templated_functions", nil, treeEvents[:1], []string{`"m" 1 2 3 4 5`, `"n" 1 2 3 4 5`})[:len(prof("templated_functions", nil, treeEvents[:1], []string{`"m" 1 2 3 4 5`}))]}, "run/profile.0.0.0:7: file ends after 1 of 2 user events (truncated?)"},
		{"user event", map[string]string{"profile.0.0.0": prof("templated_functions", nil, treeEvents[:1], []string{`"m" 1 2 x 4 5`})}, `run/profile.0.0.0:7: user event "m": column min: "x" is not a number`},
	} {
		_, err := read(t, tt.files)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestDamagedThread: one thread's damaged file does not lose the run. Text
// after a complete profile is ignored with a warning naming file and
// line; a thread whose file is broken is left out with a warning; a strict
// read refuses both.
func TestDamagedThread(t *testing.T) {
	good := prof("templated_functions_MULTI_TIME", nil, treeEvents, []string{})
	lines := strings.Split(good, "\n")
	for _, tt := range []struct {
		name      string
		bad       string
		locations int
		warning   string
	}{
		{"stray lines", good + "junk 1\n\njunk 2\n", 3, `run/profile.1.0.0:13: 3 lines of unexpected text after the user events, starting "junk 1" (ignored)`},
		{"stray line after the aggregates", prof("templated_functions_MULTI_TIME", nil, treeEvents, nil) + "x y z\n", 3, `run/profile.1.0.0:11: a line of unexpected text after the aggregates, starting "x y z" (ignored)`},
		{"truncated", strings.Join(lines[:8], "\n"), 2, "run/profile.1.0.0:8: file ends after 6 of 7 events (truncated?); that thread (node 1, context 0, thread 0) is left out"},
		{"empty", "", 2, "run/profile.1.0.0: empty file; that thread (node 1, context 0, thread 0) is left out"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"profile.0.0.0": good, "profile.1.0.0": tt.bad, "profile.2.0.0": good}
			e, err := read(t, files)
			if err != nil {
				t.Fatalf("one damaged thread refuses the run: %v", err)
			}
			if e.NumLocations() != tt.locations || len(e.Warnings) != 1 || e.Warnings[0] != tt.warning {
				t.Fatalf("%d locations, warnings %q; want %d and %q", e.NumLocations(), e.Warnings, tt.locations, tt.warning)
			}
			// The threads read keep their values (the own times add up to
			// 700 µs per thread).
			if got := total(t, e, "TIME", -1); !near2([2]float64{got}, [2]float64{float64(tt.locations) * 700e-6}) {
				t.Errorf("TIME total %v, want %v", got, float64(tt.locations)*700e-6)
			}
			if tt.locations == 2 {
				for l := 0; l < 2; l++ {
					if r := e.Location(l).Parent; e.System[r].Rank != 2*l {
						t.Errorf("location %d is rank %d, want %d", l, e.System[r].Rank, 2*l)
					}
				}
			}
			fsys := fstest.MapFS{}
			for name, data := range files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err = ReadFS(fsys, "run", importer.Options{Strict: true})
			want, _, _ := strings.Cut(strings.TrimSuffix(tt.warning, " (ignored)"), "; that thread")
			if err == nil || err.Error() != want {
				t.Errorf("strict: error %v, want %q", err, want)
			}
		})
	}
	// Every thread damaged: the first one's problem.
	_, err := read(t, map[string]string{"profile.0.0.0": "", "profile.0.0.1": "x"})
	if err == nil || err.Error() != "run/profile.0.0.0: empty file" {
		t.Errorf("all damaged: error %v", err)
	}
}

// TestMissingThreadFiles: a thread whose file is missing (ids skip, or one
// metric directory lacks it) is left out with a warning naming the file;
// a strict read refuses the run.
func TestMissingThreadFiles(t *testing.T) {
	good := prof("templated_functions_MULTI_TIME", nil, treeEvents, []string{})
	for _, tt := range []struct {
		name      string
		files     []string
		locations int
		warning   string
	}{
		{"thread ids skip", []string{"profile.0.0.0", "profile.0.0.2"}, 2, "run/profile.0.0.1: profile.0.0.1 is missing: thread ids must not skip (found profile.0.0.2); the run lacks that thread"},
		{"first thread missing", []string{"profile.0.0.1"}, 1, "run/profile.0.0.0: profile.0.0.0 is missing: thread ids must not skip (found profile.0.0.1); the run lacks that thread"},
		{"missing MULTI member", []string{"MULTI__TIME/profile.0.0.0", "MULTI__TIME/profile.0.0.1", "MULTI__PAPI_L1_DCM/profile.0.0.0"}, 1,
			"run/MULTI__PAPI_L1_DCM/profile.0.0.1: missing: the other metrics have profile.0.0.1; that thread (node 0, context 0, thread 1) is left out"},
	} {
		files := map[string]string{}
		for _, f := range tt.files {
			files[f] = good
		}
		e, err := read(t, files)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if e.NumLocations() != tt.locations || len(e.Warnings) != 1 || e.Warnings[0] != tt.warning {
			t.Errorf("%s: %d locations, warnings %q; want %d and %q", tt.name, e.NumLocations(), e.Warnings, tt.locations, tt.warning)
		}
		fsys := fstest.MapFS{}
		for _, f := range tt.files {
			fsys[f] = &fstest.MapFile{Data: []byte(good)}
		}
		want, _, _ := strings.Cut(tt.warning, "; ")
		if _, err := ReadFS(fsys, "run", importer.Options{Strict: true}); err == nil || err.Error() != want {
			t.Errorf("%s: strict: %v, want %q", tt.name, err, want)
		}
	}
}

// TestByteOrderMark: a profile file that starts with a UTF-8 byte-order
// mark is recognised and read.
func TestByteOrderMark(t *testing.T) {
	data := "\xef\xbb\xbf" + prof("templated_functions_MULTI_TIME", nil, treeEvents, []string{})
	if !IsProfileHead([]byte(data)) {
		t.Error("IsProfileHead refuses a byte-order mark")
	}
	e := mustRead(t, map[string]string{"profile.0.0.0": data})
	if got := total(t, e, "TIME", -1); !near2([2]float64{got}, [2]float64{700e-6}) {
		t.Errorf("TIME total %v, want 700e-6", got)
	}
}

func TestParseNumbersExact(t *testing.T) {
	var p profile
	data := []byte(prof("templated_functions", nil, []string{`"x" 1.0 0 1.79507235841765E9 4123.696476068348 0`}, nil))
	if err := parseProfile(data, "f", &p); err != nil {
		t.Fatal(err)
	}
	if ev := p.events[0]; ev.excl != 1.79507235841765e9 || ev.incl != 4123.696476068348 || !bytes.Equal(ev.name, []byte("x")) {
		t.Errorf("event %+v", ev)
	}
}

func modelSel(m int) model.MetricSel { return model.MetricSel{Metric: m, Inclusive: true} }
