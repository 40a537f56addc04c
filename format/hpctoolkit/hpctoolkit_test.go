package hpctoolkit

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// cnodeInclusive returns, per location, each cnode's inclusive value of
// metric m.
func cnodeInclusive(t *testing.T, e *model.Experiment, m int) [][]float64 {
	t.Helper()
	blk, err := e.Block(m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float64, e.NumLocations())
	for l := range out {
		excl := make([]float64, len(e.Cnodes))
		for c := range excl {
			excl[c] = blk.Value(c, l)
		}
		out[l] = e.CallInclusive(excl, model.Sum)
	}
	return out
}

// TestXMLDatabase checks the cpi database: four ranks are four processes,
// and for every rank the inclusive value of every procedure, loop and
// statement computed from the imported own values equals the inclusive
// value in that rank's metric-db file (so the root's inclusive value is
// the sum of all own values and no exclusive value is counted twice).
func TestXMLDatabase(t *testing.T) {
	dir := testkit.Data(t, "hpctoolkit", "cpi-database-v2")
	e, err := Read(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	var ranks []int
	for _, n := range e.System {
		if n.Kind == model.Group {
			ranks = append(ranks, n.Rank)
		}
	}
	if len(ranks) != 4 || e.NumLocations() != 4 {
		t.Fatalf("%d processes %v and %d locations, want 4 and 4", len(ranks), ranks, e.NumLocations())
	}
	m := e.MetricByName("CPUTIME")
	if m < 0 || e.Metrics[m].Unit != "sec" {
		t.Fatalf("no CPUTIME metric in seconds: %+v", e.Metrics)
	}
	f, err := os.Open(filepath.Join(dir, "experiment.xml"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := parseExperimentXML(f, "experiment.xml")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	tree := buildCheckTree(db)
	incl := cnodeInclusive(t, e, m)
	files, _ := filepath.Glob(filepath.Join(dir, "*.metric-db"))
	sort.Strings(files)
	if len(files) != 4 {
		t.Fatalf("%d metric-db files", len(files))
	}
	var inclCol int
	for _, x := range db.dbMetrics {
		if x.inclusive {
			inclCol = x.dbID
		}
	}
	for l, path := range files {
		rows, _, err := readMetricDB(path, db.numDB, db.maxID)
		if err != nil {
			t.Fatal(err)
		}
		want := func(id int) float64 { return rows[(id-1)*db.numDB+inclCol] * 1e-6 }
		root := 0.0
		for _, r := range e.CnodeRoots {
			root += incl[l][r]
		}
		if !near(root, want(1)) || want(1) == 0 {
			t.Errorf("rank %d: root inclusive %g s, metric-db says %g s", l, root, want(1))
		}
		checked := 0
		for s, sc := range db.scopes {
			if sc.kind == scopeC {
				continue
			}
			if got := incl[l][tree[s]]; !near(got, want(sc.id)) {
				t.Errorf("rank %d node id %d: inclusive %g s, metric-db says %g s", l, sc.id, got, want(sc.id))
			}
			checked++
		}
		if checked < 30 {
			t.Errorf("only %d nodes checked", checked)
		}
	}
	// the summary in experiment.xml (6 significant digits) agrees too
	total, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(total-3.99824) > 1e-5 {
		t.Errorf("total %g s, experiment.xml says 3.99824e+06 µs", total)
	}
}

// buildCheckTree maps scopes to cnode indices the way openXML numbers
// them: one cnode per scope that is not a call site, in document order.
func buildCheckTree(db *xmlDB) []int {
	out := make([]int, len(db.scopes))
	n := 0
	for s, sc := range db.scopes {
		if sc.kind == scopeC {
			out[s] = -1
			if sc.parent >= 0 {
				out[s] = out[sc.parent]
			}
			continue
		}
		out[s] = n
		n++
	}
	return out
}

// TestSparseDatabase checks the vectorAdd database of the sparse format:
// for every thread, metric and context, the inclusive value from the
// imported own values equals the "execution" value in profile.db, and per
// metric the total equals the summary profile's sum over threads.
func TestSparseDatabase(t *testing.T) {
	dir := testkit.Data(t, "hpctoolkit", "vectorAdd-metadb")
	e, err := Read(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	meta, err := readMeta(filepath.Join(dir, "meta.db"))
	if err != nil {
		t.Fatal(err)
	}
	profiles, err := readProfiles(filepath.Join(dir, "profile.db"))
	if err != nil {
		t.Fatal(err)
	}
	if !profiles[0].summary {
		t.Fatal("the first profile is not the summary profile")
	}
	var threads []sparseProfile
	for _, p := range profiles {
		if !p.summary {
			threads = append(threads, p)
		}
	}
	e, cols := sparseExperiment(meta, profiles)
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if e.NumLocations() != len(threads) || len(threads) < 2 {
		t.Fatalf("%d locations for %d thread profiles", e.NumLocations(), len(threads))
	}
	if len(e.Cnodes) < len(meta.contexts) {
		t.Fatalf("%d cnodes for %d contexts", len(e.Cnodes), len(meta.contexts))
	}
	value := func(p sparseProfile, ctx uint32, metric int) float64 {
		for _, v := range p.values[ctx] {
			if int(v.metric) == metric {
				return v.value
			}
		}
		return 0
	}
	checkedMetrics := 0
	for _, mm := range meta.metrics {
		if mm.execution < 0 {
			continue
		}
		uniq, _, factor := metricUnit(mm.name)
		m := e.MetricByName(uniq)
		if m < 0 {
			t.Fatalf("no metric %s", uniq)
		}
		incl := cnodeInclusive(t, e, m)
		nonzero := false
		for p, prof := range threads {
			l := cols[p]
			for i, c := range meta.contexts {
				want := value(prof, c.id, mm.execution) * factor
				nonzero = nonzero || want != 0
				if got := incl[l][i]; !near(got, want) && math.Abs(got-want) > 1e-12 {
					t.Errorf("%s %s context %d: inclusive %g, profile.db says %g", uniq, e.Location(l).Name, c.id, got, want)
				}
			}
		}
		// the exclusive ("function") values: a context's own value plus
		// those of the contexts below it not separated by a call
		if mm.function >= 0 {
			blk, err := e.Block(m)
			if err != nil {
				t.Fatal(err)
			}
			children := make([][]int, len(meta.contexts))
			for i, c := range meta.contexts {
				if c.parent >= 0 {
					children[c.parent] = append(children[c.parent], i)
				}
			}
			var lexical func(i, l int) float64
			lexical = func(i, l int) float64 {
				v := blk.Value(i, l)
				for _, ch := range children[i] {
					if meta.contexts[ch].propagation&(1<<mm.funcBit) != 0 {
						v += lexical(ch, l)
					}
				}
				return v
			}
			for p, prof := range threads {
				for i, c := range meta.contexts {
					want := value(prof, c.id, mm.function) * factor
					if got := lexical(i, cols[p]); !near(got, want) && math.Abs(got-want) > 1e-12 {
						t.Errorf("%s %s context %d: exclusive %g, profile.db says %g", uniq, e.Location(cols[p]).Name, c.id, got, want)
					}
				}
			}
		}
		if mm.sumStat >= 0 {
			total, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			if want := value(profiles[0], 0, mm.sumStat) * factor; !near(total, want) && math.Abs(total-want) > 1e-12 {
				t.Errorf("%s: total %g, the summary profile says %g", uniq, total, want)
			}
		}
		if nonzero {
			checkedMetrics++
		}
	}
	if checkedMetrics < 10 {
		t.Errorf("only %d metrics with values checked", checkedMetrics)
	}
}
