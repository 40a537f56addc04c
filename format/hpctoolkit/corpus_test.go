package hpctoolkit

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// TestRealMetricDB compares, for every real XML database of the corpus
// with metric-db files (Hatchet's cpi and osu_allgather, its tutorial's
// 64-rank Kripke), every context's inclusive value on every thread with
// the inclusive value of that thread's metric-db file.
func TestRealMetricDB(t *testing.T) {
	total := 0
	for _, src := range realDatabases {
		t.Run(strings.ReplaceAll(src.repo, "/", "_"), func(t *testing.T) {
			files, local := testkit.MirrorFiles(t, src.repo, func(p string) bool {
				return strings.HasPrefix(p, src.prefix) && (strings.HasSuffix(p, "/experiment.xml") || strings.HasSuffix(p, ".metric-db"))
			})
			dbs := map[string][]string{}
			for _, f := range files {
				if strings.HasSuffix(f, ".metric-db") {
					d := filepath.Dir(local[f])
					dbs[d] = append(dbs[d], local[f])
				}
			}
			for dir, mdb := range dbs {
				total += checkMetricDB(t, dir, mdb)
			}
		})
	}
	t.Logf("%d values equal to the metric-db files'", total)
}

// checkMetricDB checks one database; it returns the number of values
// compared.
func checkMetricDB(t *testing.T, dir string, files []string) int {
	t.Helper()
	e, err := Read(dir, importer.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
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
	tree := buildCheckTree(db)
	sort.Strings(files) // rank, then thread: the order of the locations
	n := 0
	for _, x := range db.dbMetrics {
		if !x.inclusive {
			continue
		}
		name := strings.TrimSuffix(x.name, " (I)")
		m := -1
		for i := range e.Metrics {
			for _, a := range e.Metrics[i].Attrs {
				if a.Key == "HPCToolkit metric" && a.Value == name {
					m = i
				}
			}
		}
		if m < 0 {
			t.Fatalf("%s: no metric for %s", dir, name)
		}
		_, _, factor := metricUnit(name)
		incl := cnodeInclusive(t, e, m)
		for l, path := range files {
			rows, _, err := readMetricDB(path, db.numDB, db.maxID)
			if err != nil {
				t.Fatal(err)
			}
			for s, sc := range db.scopes {
				if sc.kind == scopeC {
					continue
				}
				want := rows[(sc.id-1)*db.numDB+x.dbID] * factor
				if got := incl[l][tree[s]]; !near(got, want) {
					t.Errorf("%s: %s, node id %d: inclusive %g, metric-db says %g", filepath.Base(path), name, sc.id, got, want)
				}
				n++
			}
		}
	}
	return n
}

// TestHatchetGraphframe compares with what Hatchet's test of its
// HPCToolkit reader expects of the cpi database (hpctoolkit-cpi-graphframe.csv):
// per node id and rank the inclusive time.
func TestHatchetGraphframe(t *testing.T) {
	files, local := testkit.MirrorFiles(t, "LLNL/hatchet", func(p string) bool {
		return strings.HasPrefix(p, "hatchet/tests/data/hpctoolkit-cpi-")
	})
	var dir, csvPath string
	for _, f := range files {
		switch {
		case strings.HasSuffix(f, "/experiment.xml"):
			dir = filepath.Dir(local[f])
		case strings.HasSuffix(f, "graphframe.csv"):
			csvPath = local[f]
		}
	}
	if dir == "" || csvPath == "" {
		t.Fatalf("cpi database or its graphframe in the Hatchet snapshot: %v", files)
	}
	e, err := Read(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fx, err := os.Open(filepath.Join(dir, "experiment.xml"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := parseExperimentXML(fx, dir)
	fx.Close()
	if err != nil {
		t.Fatal(err)
	}
	tree := buildCheckTree(db)
	scopeOf := map[int]int{}
	for s, sc := range db.scopes {
		scopeOf[sc.id] = s
	}
	incl := cnodeInclusive(t, e, e.MetricByName("CPUTIME"))
	fc, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	rows, err := csv.NewReader(fc).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	n := 0
	for _, r := range rows[1:] {
		nid, _ := strconv.Atoi(r[col["nid"]])
		rank, _ := strconv.Atoi(r[col["rank"]])
		want, err := strconv.ParseFloat(r[col["time (inc)"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := scopeOf[nid]
		if !ok {
			t.Fatalf("node id %d of Hatchet's graphframe is not in experiment.xml", nid)
		}
		if db.scopes[s].kind == scopeC {
			continue // Hatchet's call-site rows: the call site has no cnode of its own
		}
		if got := incl[rank][tree[s]]; !near(got, want*1e-6) {
			t.Errorf("node id %d, rank %d: inclusive %g s, Hatchet expects %g µs", nid, rank, got, want)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d values compared", n)
	}
	t.Logf("%d inclusive values equal to Hatchet's graphframe", n)
}
