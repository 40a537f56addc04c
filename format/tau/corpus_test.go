package tau_test

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/format/importer"
	"cubeview/format/tau"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// corpusTable logs one line of the table of real files a test read:
// format, files tried, opened, values compared, disagreeing.
func corpusTable(t *testing.T, format string, tried, opened, compared, disagree, quirks int) {
	t.Logf("| %s | %d | %d | %d | %d | %d |", format, tried, opened, compared, disagree, quirks)
}

// TestRealPackedProfiles reads every ParaProf packed profile of TAU's
// sources (PerfExplorer's examples) and of other public repositories, and
// compares each thread's values with the file's own.
func TestRealPackedProfiles(t *testing.T) {
	var tried, opened, compared, disagree, quirks int
	for _, repo := range []string{"UO-OACISS/tau2", "AnhTuTran/temp"} {
		t.Run(strings.ReplaceAll(repo, "/", "+"), func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, repo, func(p string) bool { return path.Ext(p) == ".ppk" })
			seen := map[[32]byte]bool{}
			for _, p := range paths {
				tried++
				if data, err := os.ReadFile(local[p]); err == nil {
					sum := sha256.Sum256(data)
					if seen[sum] {
						opened++ // a copy of a file read before
						continue
					}
					seen[sum] = true
				}
				e, err := format.Open(local[p])
				if err != nil {
					t.Errorf("%s: %v", p, err)
					continue
				}
				if err := e.Validate(); err != nil {
					t.Errorf("%s: invalid: %v", p, err)
					continue
				}
				opened++
				c, d, q := compareRun(t, e, readPackedRun(t, local[p]), p)
				compared += c
				disagree += d
				quirks += q
			}
		})
	}
	corpusTable(t, "ParaProf packed profile", tried, opened, compared, disagree, quirks)
}

// profileRepos hold TAU profile directories: TAU's own examples and
// tests, Hatchet's test data, and course and project repositories whose
// authors profiled their programs with TAU (some at an earlier commit,
// when they still held the profiles).
var profileRepos = []struct{ repo, rev string }{
	{"UO-OACISS/tau2", "HEAD"}, {"LLNL/hatchet", "HEAD"}, {"ag14774/MPILattice-Boltzmann", "HEAD"},
	{"stevenpl98/ParallelFinalProject", "HEAD"}, {"AnhTuTran/temp", "HEAD"}, {"HomeworkBox/cs140_hw3", "HEAD"},
	{"NarcisNogue/CAP_Practica1", "HEAD"}, {"RubenBorges/Misc", "HEAD"}, {"adhunganaunm/CS491", "HEAD"},
	{"ellenshin/UoB_OpenMP", "HEAD"}, {"jonesmabea/HPC", "HEAD"}, {"s1998/parallel-DBSCAN", "HEAD"},
	{"scrasmussen/tools", "HEAD"}, {"taroyz/hehe", "HEAD"}, {"Arroch35/Lab1-Parallel-Programming", "HEAD"},
	{"msmania/Score-P", "HEAD"},
	{"amintos/mpi-factoring", "2d810de1a09ce2c6682dc96c0d1cbca0ab834f62"},
	{"jeevan0920/CS633-Project", "44dde20f02d7ef1003ea9349203b0a847cd9a663"},
	{"marinom1/Parallel-Sorting-Project", "de774543bd9a2d7308b0bbf0433d984d78f89876"},
	{"wilsonmui/Assignment2", "4df071246346cb2cc9450c2567d238811bbae8c9"},
	{"DramaCow/d2q9-bgk", "10fad314b9ee7509ac1d368e40e2591349610252"},
	{"brunowu/m-UCGLE", "64b2ce826019b7ddf53f1210fdd08a1f2ce2ff7c"},
	{"cg14823/HPC-CW1", "39ea5a38fb8d6725b3a4e5b088df51d7ebcd808c"},
	{"ThanGeo/Hecatoncheir", "6ef63324f6546937a2f8f8e422119f6eaf20d02b"},
}

// TestRealProfileDirs reads every TAU profile directory of the
// repositories above (and those packed in TAU's PowerCapEffect example)
// and compares each thread's values with the files' own columns.
func TestRealProfileDirs(t *testing.T) {
	var tried, opened, compared, disagree, quirks int
	check := func(t *testing.T, dir, label string) {
		tried++
		e, err := format.Open(dir)
		if err != nil {
			t.Errorf("%s: %v", label, err)
			return
		}
		if err := e.Validate(); err != nil {
			t.Errorf("%s: invalid: %v", label, err)
			return
		}
		opened++
		c, d, q := compareRun(t, e, readDirRun(t, dir), label)
		compared += c
		disagree += d
		quirks += q
	}
	for _, src := range profileRepos {
		repo := src.repo
		t.Run(strings.ReplaceAll(repo, "/", "+")+"@"+src.rev[:min(len(src.rev), 7)], func(t *testing.T) {
			paths, local := testkit.MirrorFilesAt(t, repo, src.rev, func(p string) bool {
				return profileFileRE.MatchString(path.Base(p)) || strings.HasSuffix(p, "PowerCapEffect/profile_data.tgz")
			})
			dirs := map[string]string{}
			var order []string
			for _, p := range paths {
				if strings.HasSuffix(p, ".tgz") {
					for _, d := range untarDirs(t, local[p]) {
						check(t, d, p+": "+filepath.Base(d))
					}
					continue
				}
				d := path.Dir(p)
				if strings.HasPrefix(path.Base(d), "MULTI__") {
					d = path.Dir(d)
				}
				if _, ok := dirs[d]; !ok {
					order = append(order, d)
					dirs[d] = filepath.Join(strings.TrimSuffix(local[p], filepath.FromSlash(p)), filepath.FromSlash(d))
				}
			}
			for _, d := range order {
				check(t, dirs[d], repo+": "+d)
			}
		})
	}
	corpusTable(t, "TAU profile directory", tried, opened, compared, disagree, quirks)
}

// untarDirs extracts a gzip-compressed tar of profile directories beside
// it (once) and returns the directories holding profile files.
func untarDirs(t *testing.T, archive string) []string {
	t.Helper()
	root := archive + ".d"
	done := filepath.Join(root, ".complete")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(root)
		extract(t, archive, root)
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && profileFileRE.MatchString(d.Name()) && !slices.Contains(dirs, filepath.Dir(p)) {
			dirs = append(dirs, filepath.Dir(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	return dirs
}

// extract writes the profile files of a gzip-compressed tar below root.
func extract(t *testing.T, archive, root string) {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg || !profileFileRE.MatchString(path.Base(h.Name)) || strings.Contains(h.Name, "..") {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// xmlSources are the real TAU XML profiles: the merged profiles of
// PerfExplorer's examples in TAU's sources, and a snapshot file a
// repository held at one commit (TAU 2.34, TAU_PROFILE_FORMAT=snapshot).
var tauprofileName = regexp.MustCompile(`^tauprofile(-[a-z]+)?\.xml(\.gz)?$`)

var xmlSources = []struct {
	repo, rev string
	match     func(string) bool
}{
	{"UO-OACISS/tau2", "HEAD", func(p string) bool {
		return tauprofileName.MatchString(path.Base(p)) || strings.HasSuffix(p, "MetadataCorrelation/tauprofile.xml.csv")
	}},
	{"ThanGeo/Hecatoncheir", "479dc39f5d2b561c38506a9c9ca7b61b57162260", func(p string) bool { return p == "snapshot.0.0.0" }},
}

// TestRealXMLProfiles reads the real TAU XML profiles and compares each
// thread's values with the documents' own interval data, the flat
// profile with TAU's own "total" profile where the document has one, and
// MetadataCorrelation's values with what PerfExplorer exported of them.
func TestRealXMLProfiles(t *testing.T) {
	var tried, opened, compared, disagree, quirks int
	for _, src := range xmlSources {
		t.Run(strings.ReplaceAll(src.repo, "/", "+"), func(t *testing.T) {
			paths, local := testkit.MirrorFilesAt(t, src.repo, src.rev, src.match)
			for _, p := range paths {
				if strings.HasSuffix(p, ".csv") {
					continue
				}
				tried++
				e, err := format.Open(local[p])
				if err != nil {
					t.Errorf("%s: %v", p, err)
					continue
				}
				if err := e.Validate(); err != nil {
					t.Errorf("%s: invalid: %v", p, err)
					continue
				}
				opened++
				text := xmlContent(t, local[p])
				c, d, q := compareRun(t, e, readXMLRun(t, text), p)
				compared += c
				disagree += d
				quirks += q
				c, d = compareTotals(t, e, readXMLTotals(text), p)
				compared += c
				disagree += d
				if csv, ok := local[p+".csv"]; ok {
					c, d = comparePerfExplorerCSV(t, e, csv)
					compared += c
					disagree += d
				}
			}
		})
	}
	corpusTable(t, "TAU XML profile", tried, opened, compared, disagree, quirks)
}

func xmlContent(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if zr, err := gzip.NewReader(strings.NewReader(string(data))); err == nil {
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return strings.ReplaceAll(string(data), "\x00", " ")
}

// compareTotals compares TAU's own totals over the threads with the
// experiment's flat profile (an event) or call tree (a call path), as the
// display shows them: exclusive, inclusive, calls.
func compareTotals(t *testing.T, e *model.Experiment, totals map[string][3]float64, label string) (compared, disagree int) {
	t.Helper()
	if totals == nil {
		return 0, 0
	}
	tm, visits := e.MetricByName("TIME"), e.MetricByName("visits")
	sel := func(m int) model.MetricSel { return model.MetricSel{Metric: m, Inclusive: true} }
	fEx, fIn, err := e.FlatProfileOf(sel(tm))
	if err != nil {
		t.Fatal(err)
	}
	fCalls, _, _ := e.FlatProfileOf(sel(visits))
	cEx, _ := e.CallTreeValues(sel(tm), false)
	cIn, _ := e.CallTreeValues(sel(tm), true)
	cCalls, _ := e.CallTreeValues(sel(visits), false)
	region := map[string]int{}
	for r, reg := range e.Regions {
		region[reg.Name] = r
	}
	for name, want := range totals {
		var got [3]float64
		if strings.Contains(name, "=>") {
			c := findCnode(e, splitTAUPath(name))
			if c < 0 {
				t.Errorf("%s: total of %q: no cnode", label, name)
				disagree++
				continue
			}
			got = [3]float64{cCalls[c], cEx[c], cIn[c]}
		} else {
			r, ok := region[name]
			if !ok {
				continue
			}
			got = [3]float64{fCalls[r], fEx[r], fIn[r]}
		}
		for i, what := range []string{"calls", "exclusive", "inclusive"} {
			w := want[i]
			if i > 0 {
				w /= 1e6
			}
			compared++
			if !closeTo(got[i], w) {
				disagree++
				if disagree <= 10 {
					t.Errorf("%s: %s: total %s %v, TAU's total profile says %v", label, name, what, got[i], w)
				}
			}
		}
	}
	return compared, disagree
}

// comparePerfExplorerCSV compares what PerfExplorer's MetadataCorrelation
// example exported of its tauprofile.xml — per process the exclusive
// TIME (µs) of five events and five metadata values — with the
// experiment's values at each location and its metadata.
func comparePerfExplorerCSV(t *testing.T, e *model.Experiment, file string) (compared, disagree int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	header := strings.Fields(lines[0])
	events := map[string]string{"se_timestep": "se timestep", "adv": "adv", "se_btr_vel": "se btr vel",
		"equation_of_state": "equation of state", "MPI_Wait()": "MPI_Wait()"}
	tm := e.MetricByName("TIME")
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		loc, _ := strconv.Atoi(f[0])
		for i, col := range header[1:] {
			want, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				t.Fatalf("%s: %q", file, line)
			}
			var got float64
			if ev, ok := events[col]; ok {
				c := findCnode(e, []string{ev})
				if c < 0 {
					t.Errorf("no root %q", ev)
					disagree++
					continue
				}
				vals, err := e.LocationValues(model.MetricSel{Metric: tm, Inclusive: true}, model.CnodeSel{Cnode: c})
				if err != nil {
					t.Fatal(err)
				}
				got, want = vals[loc], want/1e6
			} else {
				if want == 0 {
					continue // PerfExplorer's "absent"
				}
				v, ok := attrOf(e.Location(loc).Attrs, col)
				if !ok {
					v, ok = e.Attr(col)
				}
				if !ok {
					t.Errorf("location %d: no metadata %q", loc, col)
					disagree++
					continue
				}
				got, _ = strconv.ParseFloat(v, 64)
			}
			compared++
			if !closeTo(got, want) {
				disagree++
				t.Errorf("location %d %s: %v, PerfExplorer exported %v", loc, col, got, want)
			}
		}
	}
	return compared, disagree
}

func attrOf(as []model.Attr, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// benchmarkMirrorFile reads one real file of a snapshot with open.
func benchmarkMirrorFile(b *testing.B, repo, file string, open func(string, importer.Options) (*model.Experiment, error)) {
	_, local := testkit.MirrorFiles(b, repo, func(p string) bool { return p == file })
	path, ok := local[file]
	if !ok {
		b.Skipf("the snapshot of %s lacks %s", repo, file)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		if _, err := open(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkReadPackedXGC reads the largest real packed profile: XGC, 96
// threads, 5 metrics, call paths and samples (1.2 MB compressed).
func BenchmarkReadPackedXGC(b *testing.B) {
	benchmarkMirrorFile(b, "UO-OACISS/tau2", "tools/src/perfexplorer/examples/HardwareCounterBasicAnalysis/xgc.ppk", tau.ReadPacked)
}

// BenchmarkReadXMLSunburst reads the largest real TAU XML profile: 256
// threads merged into one 2 MB document.
func BenchmarkReadXMLSunburst(b *testing.B) {
	benchmarkMirrorFile(b, "UO-OACISS/tau2", "tools/src/perfexplorer/examples/Sunburst/tauprofile.xml", tau.ReadXML)
}
