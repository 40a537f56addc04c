package format

import (
	"path/filepath"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestMetricIdentities checks the canonical identities every importer
// gives the metrics of one program recorded by five tools, and that the
// description keeps the tool's own name.
func TestMetricIdentities(t *testing.T) {
	tests := []struct {
		path  []string
		want  map[string]string // unique name → identity ("" for none)
		descr map[string]string // unique name → start of the description
	}{
		{[]string{"cube4", "cpi", "profile.cubex"},
			map[string]string{"time": "time", "visits": "visits", "bytes_sent": "bytes_sent", "bytes_received": "bytes_received", "min_time": "", "hits": ""}, nil},
		{[]string{"tau", "cpi-mpi"},
			map[string]string{"TIME": "time", "visits": "visits", "Message_size_for_broadcast.sum": "", "Message size for broadcast": ""},
			map[string]string{"TIME": "TAU TIME (wall clock)", "visits": "TAU visits (calls)"}},
		{[]string{"hpctoolkit", "cpi-database-v2"}, map[string]string{"CPUTIME": "cputime"},
			map[string]string{"CPUTIME": "HPCToolkit CPUTIME (CPU time)"}},
		{[]string{"hpctoolkit", "cpi-database-v4"}, map[string]string{"CPUTIME": "cputime"}, nil},
		// a sampling profile: count counts samples, not calls
		{[]string{"caliper", "cpi-json", "cpi-callpath-profile.json"}, map[string]string{"sum#time.duration": "time", "count": ""},
			map[string]string{"sum#time.duration": "Caliper sum#time.duration (wall clock)"}},
		{[]string{"cube4", "mm_sweep", "mm.x10y1z1.r1.cubex"}, map[string]string{"PAPI_FP_OPS": "PAPI_FP_OPS", "PAPI_L2_TCM": "PAPI_L2_TCM"}, nil},
		{[]string{"cube3", "example3.cube"}, map[string]string{"bytes_rcvd": "bytes_received"}, nil},
	}
	for _, tt := range tests {
		path := testkit.Data(t, tt.path...)
		t.Run(filepath.Base(path), func(t *testing.T) {
			e, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for name, id := range tt.want {
				m := e.MetricByName(name)
				if m < 0 {
					t.Fatalf("no metric %q", name)
				}
				if got := e.Metrics[m].Identity; got != id {
					t.Errorf("%s: identity %q, want %q", name, got, id)
				}
			}
			for name, d := range tt.descr {
				if got := e.Metrics[e.MetricByName(name)].Descr; !strings.HasPrefix(got, d) {
					t.Errorf("%s: description %q, want it to start with %q", name, got, d)
				}
			}
		})
	}
}

// TestMetricIdentitiesSamples checks the identities of the newer readers
// on their own samples.
func TestMetricIdentitiesSamples(t *testing.T) {
	tests := []struct {
		path string
		want map[string]string
	}{
		{"papi/testdata/papi7-threads", map[string]string{"visits": "visits", "real_time": "time", "perf::TASK-CLOCK": "cputime", "cycles": ""}},
		{"perf/testdata/two-events.perf-script", map[string]string{"cycles": "PAPI_TOT_CYC", "instructions": "PAPI_TOT_INS"}}, // summed periods of the hardware events
		{"caliper/testdata/handmade.cali", map[string]string{"sum#sum#time.duration": "time", "count": "visits", "min#inclusive#sum#time.duration": ""}},
		{"caliper/testdata/handmade.json", map[string]string{"sum#time.duration": "time", "count": "visits"}}, // no region.count: the record count of annotated regions
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			e, err := Open(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			for name, id := range tt.want {
				m := e.MetricByName(name)
				if m < 0 {
					t.Fatalf("no metric %q", name)
				}
				if got := e.Metrics[m].Identity; got != id {
					t.Errorf("%s: identity %q, want %q", name, got, id)
				}
			}
		})
	}
}

// TestIdentityWritten: a result whose metric has a name that does not say
// its identity (TAU's TIME first in a difference) keeps the identity
// through .cubex and .cube files, and a well-known name is written
// without it.
func TestIdentityWritten(t *testing.T) {
	tau, err := Open(testkit.Data(t, "tau", "cpi-mpi"))
	if err != nil {
		t.Fatal(err)
	}
	scorep, err := Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := algebra.Diff(tau, scorep, algebra.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := d.MetricByName("TIME"); m < 0 || d.Metrics[m].Identity != model.IdentityTime {
		t.Fatalf("the difference has no TIME of identity time")
	}
	for _, name := range []string{"d.cubex", "d.cube"} {
		out := filepath.Join(t.TempDir(), name)
		if err := Write(out, d); err != nil {
			t.Fatal(err)
		}
		back, err := Open(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct{ name, id string }{{"TIME", "time"}, {"visits", "visits"}, {"bytes_sent", "bytes_sent"}} {
			m := back.MetricByName(w.name)
			if m < 0 || back.Metrics[m].Identity != w.id {
				t.Errorf("%s: %s read back without identity %s", name, w.name, w.id)
				continue
			}
			for _, a := range back.Metrics[m].Attrs {
				if strings.HasPrefix(a.Key, "cubeview::identity") {
					t.Errorf("%s: %s keeps the attribute %s", name, w.name, a.Key)
				}
			}
		}
		// and it still matches Score-P's time
		ig, err := algebra.Integrate([]*model.Experiment{back, scorep}, algebra.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p := ig.Result.Metrics[ig.Result.MetricByName("TIME")].Present; !p.Has(0) || !p.Has(1) {
			t.Errorf("%s: TIME read back does not match Score-P's time", name)
		}
	}
}
