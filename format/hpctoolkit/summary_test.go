package hpctoolkit

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestSummaryStatistics reads a database whose MetricTable holds a
// per-thread metric beside its summary statistics over threads, all of
// one base name (hpcprof's layout of 2012, testdata/summary-2012): the
// sum is the metric, the minimum and maximum keep their kinds, the mean
// is its sum and its count of threads, the standard deviation is left
// out and said so.
func TestSummaryStatistics(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "summary-2012"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		metric      string
		agg         model.Aggregation
		main, work  float64 // own values
		inclMain    float64
		description string
	}{
		{"PAPI_TOT_CYC", model.Sum, 20, 80, 100, ""},
		{"PAPI_TOT_CYC:Min", model.Min, 8, 30, -1, ""},
		{"PAPI_TOT_CYC:Max", model.Max, 12, 50, -1, ""},
		{"PAPI_TOT_CYC:Mean:num-src", model.Sum, 2, 2, -1, "Mean"},
	}
	for _, w := range want {
		m := e.MetricByName(w.metric)
		if m < 0 {
			t.Errorf("no metric %s among %v", w.metric, metricNamesOf(e))
			continue
		}
		if got := e.Metrics[m].Aggregation; got != w.agg {
			t.Errorf("%s: aggregation %v, want %v", w.metric, got, w.agg)
		}
		if w.description != "" && !strings.Contains(e.Metrics[m].Descr, w.description) {
			t.Errorf("%s: description %q does not say %q", w.metric, e.Metrics[m].Descr, w.description)
		}
		blk, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := blk.Value(0, 0); got != w.main {
			t.Errorf("%s of main: %v, want %v", w.metric, got, w.main)
		}
		if got := blk.Value(1, 0); got != w.work {
			t.Errorf("%s of work: %v, want %v", w.metric, got, w.work)
		}
		if w.inclMain >= 0 {
			if got := cnodeInclusive(t, e, m)[0][0]; got != w.inclMain {
				t.Errorf("%s of main, inclusive: %v, want %v", w.metric, got, w.inclMain)
			}
		}
	}
	for _, name := range []string{"PAPI_TOT_CYC:Mean", "PAPI_TOT_CYC:StdDev", "PAPI_TOT_CYC:Sum"} {
		if e.MetricByName(name) >= 0 {
			t.Errorf("metric %s imported", name)
		}
	}
	left := ""
	for _, a := range e.Attrs {
		if strings.Contains(a.Key, "not imported") {
			left = a.Value
		}
	}
	if !strings.Contains(left, "PAPI_TOT_CYC:StdDev") || !strings.Contains(left, "PAPI_TOT_CYC:Mean") {
		t.Errorf("the statistics left out are not named: %q", left)
	}
}

func metricNamesOf(e *model.Experiment) []string {
	var out []string
	for _, m := range e.Metrics {
		out = append(out, m.UniqName)
	}
	return out
}

// TestRealSummaryStatistics reads the summary statistics of real
// databases (HPCToolkit 2019, hpctoolkit_dataframe's test data): every
// statistic is a metric or named as left out, and the sums equal the
// :Sum values of experiment.xml.
func TestRealSummaryStatistics(t *testing.T) {
	files, local := testkit.MirrorFiles(t, "mbdevpl/hpctoolkit_dataframe", func(p string) bool {
		return strings.HasPrefix(p, "test/data/experiment") && strings.HasSuffix(p, ".xml")
	})
	if len(files) != 2 {
		t.Fatalf("%d experiment files, want 2", len(files))
	}
	for _, f := range files {
		dir := t.TempDir()
		data, err := os.ReadFile(local[f])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "experiment.xml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := Read(dir, importer.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var mins, means int
		for _, m := range e.Metrics {
			switch {
			case strings.HasSuffix(m.UniqName, ":Min") && m.Aggregation == model.Min:
				mins++
			case strings.HasSuffix(m.UniqName, ":Mean") || strings.HasSuffix(m.UniqName, ":StdDev"):
				t.Errorf("%s: %s imported as a metric", f, m.UniqName)
			case strings.HasSuffix(m.UniqName, ":Mean:num-src"):
				means++
			}
		}
		if mins == 0 || means == 0 {
			t.Errorf("%s: %d minimum metrics and %d mean counts: %v", f, mins, means, metricNamesOf(e))
		}
	}
}

// TestMissingRankFile removes metric-db files from a database of four
// ranks: each time the experiment says what is missing (the rank, and
// experiment.xml's total against the files'), and with Strict it is an
// error.
func TestMissingRankFile(t *testing.T) {
	src := testkit.Data(t, "hpctoolkit", "cpi-database-v2")
	for _, tt := range []struct {
		remove string
		want   []string
	}{
		{"1.cpi-000002-000-a8c00270-160445-0.metric-db", []string{"no metric-db file of rank 2", "experiment.xml states CPUTIME (usec):Sum = 3.99824e+06 at the root, the 3 metric-db files hold"}},
		{"1.cpi-000003-000-a8c00270-160446-0.metric-db", []string{"the 3 metric-db files hold", "%)"}},
	} {
		t.Run(tt.remove, func(t *testing.T) {
			dir := copyDir(t, src)
			if err := os.Remove(filepath.Join(dir, tt.remove)); err != nil {
				t.Fatal(err)
			}
			e, err := Read(dir, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if e.NumLocations() != 3 {
				t.Errorf("%d locations, want the 3 ranks left", e.NumLocations())
			}
			w := strings.Join(e.Warnings, "\n")
			for _, want := range tt.want {
				if !strings.Contains(w, want) {
					t.Errorf("warnings %q do not say %q", w, want)
				}
			}
			if _, err := Read(dir, importer.Options{Strict: true}); err == nil || !strings.Contains(err.Error(), tt.want[0]) {
				t.Errorf("strict: error %v, want one saying %q", err, tt.want[0])
			}
		})
	}
	// the complete database has nothing to say
	e, err := Read(src, importer.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Warnings) != 0 {
		t.Errorf("warnings on the complete database: %v", e.Warnings)
	}
}

// realDatabases are public HPCToolkit databases of the XML layout: Hatchet's
// test data (cpi, 4 ranks; osu_allgather, 10 ranks × 2 threads), its
// tutorial's Kripke (64 ranks), and databases without metric-db files
// (HPCToolkit-Testing-Miniapp's four, hpctoolkit-demo's LULESH).
var realDatabases = []struct {
	repo, prefix string
}{
	{"LLNL/hatchet", "hatchet/tests/data/hpctoolkit-"},
	{"LLNL/hatchet-tutorial", "data/hpctoolkit-"},
	{"ian-bertolacci/HPCToolkit-Testing-Miniapp", "examples/"},
	{"brandonneth/hpctoolkit-demo", "hpctoolkit-"},
}

// TestRealDatabases opens every real XML database of the corpus: none
// may be reported incomplete, and the sum over all call paths and
// locations of each metric must equal experiment.xml's :Sum at the root.
func TestRealDatabases(t *testing.T) {
	total := 0
	for _, src := range realDatabases {
		t.Run(strings.ReplaceAll(src.repo, "/", "_"), func(t *testing.T) {
			files, local := testkit.MirrorFiles(t, src.repo, func(p string) bool {
				return strings.HasPrefix(p, src.prefix) && (strings.HasSuffix(p, "/experiment.xml") || strings.HasSuffix(p, ".metric-db"))
			})
			dirs := map[string]bool{}
			for _, f := range files {
				if strings.HasSuffix(f, "/experiment.xml") {
					dirs[filepath.Dir(local[f])] = true
				}
			}
			if len(dirs) == 0 {
				t.Fatalf("no database in %s", src.repo)
			}
			for dir := range dirs {
				e, err := Read(dir, importer.Options{Strict: true})
				if err != nil {
					t.Errorf("%v", err)
					continue
				}
				if err := e.Validate(); err != nil {
					t.Errorf("%s: %v", dir, err)
				}
				f, err := os.Open(filepath.Join(dir, "experiment.xml"))
				if err != nil {
					t.Fatal(err)
				}
				db, err := parseExperimentXML(f, dir)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				for m, met := range e.Metrics {
					base := ""
					for _, a := range met.Attrs {
						if a.Key == "HPCToolkit metric" {
							base = a.Value
						}
					}
					if met.Aggregation != model.Sum || base == "" {
						continue
					}
					stated, ok := rootSum(db, base)
					if !ok {
						// per-thread values measured where they were
						// measured: their sum over all contexts
						for _, sm := range db.sumMetric {
							if strings.HasPrefix(sm.name, base+".[") {
								for k, v := range db.summary {
									if k[1] == sm.id {
										stated += v
									}
								}
								ok = true
							}
						}
					}
					if !ok {
						t.Errorf("%s: no %s:Sum at the root", dir, base)
						continue
					}
					blk, err := e.Block(m)
					if err != nil {
						t.Fatal(err)
					}
					got := 0.0
					for c := range e.Cnodes {
						for l := 0; l < e.NumLocations(); l++ {
							got += blk.Value(c, l)
						}
					}
					factor := got / stated
					if u := met.Unit; u == "sec" && strings.Contains(base, "usec") {
						factor *= 1e6
					}
					if math.Abs(factor-1) > 1e-5 {
						t.Errorf("%s: %s: the experiment's total %g, experiment.xml's :Sum at the root %g", dir, met.UniqName, got, stated)
					}
					total++
				}
			}
		})
	}
	t.Logf("%d metric totals equal to experiment.xml's", total)
}

// TestPerThreadMetrics reads a database whose experiment.xml holds
// per-thread metrics "X.[rank,thread]" with the values where they were
// measured (testdata/per-thread, the layout of hpctoolkit-demo's real
// LULESH database): one metric, a location per thread, the values as
// written, and the summary statistics named as derived from them.
func TestPerThreadMetrics(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "per-thread"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	m := e.MetricByName("CPUTIME")
	if m < 0 || len(e.Metrics) != 1 || e.Metrics[m].Unit != "sec" {
		t.Fatalf("metrics %v, want CPUTIME in seconds only", metricNamesOf(e))
	}
	if e.NumLocations() != 3 {
		t.Fatalf("%d locations, want 3 (rank 0 threads 0 and 1, rank 1 thread 0)", e.NumLocations())
	}
	incl := cnodeInclusive(t, e, m)
	want := []float64{0.75, 0.125, 1} // main's inclusive per location
	for l, w := range want {
		if got := incl[l][0]; got != w {
			t.Errorf("location %d: main's inclusive %v, want %v", l, got, w)
		}
	}
	left := ""
	for _, a := range e.Attrs {
		if strings.Contains(a.Key, "not imported") {
			left = a.Value
		}
	}
	if !strings.Contains(left, "CPUTIME (sec):Sum") {
		t.Errorf("the summary statistics are not named: %q", left)
	}
}

// TestBOM reads an experiment.xml that starts with a UTF-8 byte-order mark.
func TestBOM(t *testing.T) {
	dir := copyDir(t, testkit.Data(t, "hpctoolkit", "cpi-database-v2"))
	edit(t, filepath.Join(dir, "experiment.xml"), func(b []byte) []byte { return append([]byte("\xef\xbb\xbf"), b...) })
	if Detect(nil, dir) == importer.No {
		t.Error("not recognised")
	}
	if _, err := Read(dir, importer.Options{}); err != nil {
		t.Fatal(err)
	}
}
