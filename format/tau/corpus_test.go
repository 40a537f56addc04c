package tau_test

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/format/tau"
	"cubeview/internal/testkit"
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
			for _, p := range paths {
				tried++
				e, err := tau.OpenPacked(local[p], tau.Options{})
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
// authors profiled their programs with TAU.
var profileRepos = []string{
	"UO-OACISS/tau2", "LLNL/hatchet", "ag14774/MPILattice-Boltzmann", "stevenpl98/ParallelFinalProject",
	"AnhTuTran/temp", "HomeworkBox/cs140_hw3", "NarcisNogue/CAP_Practica1", "RubenBorges/Misc",
	"adhunganaunm/CS491", "ellenshin/UoB_OpenMP", "jonesmabea/HPC", "s1998/parallel-DBSCAN",
	"scrasmussen/tools", "taroyz/hehe", "Arroch35/Lab1-Parallel-Programming", "msmania/Score-P",
}

// TestRealProfileDirs reads every TAU profile directory of the
// repositories above (and those packed in TAU's PowerCapEffect example)
// and compares each thread's values with the files' own columns.
func TestRealProfileDirs(t *testing.T) {
	var tried, opened, compared, disagree, quirks int
	check := func(t *testing.T, dir, label string) {
		tried++
		e, err := tau.OpenWith(dir, tau.Options{})
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
	for _, repo := range profileRepos {
		t.Run(strings.ReplaceAll(repo, "/", "+"), func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, repo, func(p string) bool {
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

// untarDirs extracts a gzip-compressed tar of profile directories into a
// temporary folder and returns the directories holding profile files.
func untarDirs(t *testing.T, archive string) []string {
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
	root := t.TempDir()
	tr := tar.NewReader(zr)
	seen := map[string]bool{}
	var dirs []string
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
		if d := filepath.Dir(p); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	return dirs
}
