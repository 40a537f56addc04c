package cli

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
)

// writeRuns writes n generated runs of one configuration to dir: the same
// call tree and base values, each call path scaled by 1 + 2 %·N(0, 1) per
// run, and call path planted (an operand cnode index, ≥ 0) by 1 + shift.
// It returns the files and the planted call path's name.
func writeRuns(t *testing.T, dir, prefix string, n int, seed uint64, planted int, shift float64) ([]string, string) {
	t.Helper()
	cfg := synth.Config{Cnodes: 60, Locations: 4, Metrics: 1, Seed: 7}
	var files []string
	var name string
	for i := range n {
		e := synth.NoisyRun(cfg, seed, i, synth.Sigma(0.02), synth.ShiftAt(planted, shift))
		if planted >= 0 {
			name = e.CallPath(planted)
		}
		p := filepath.Join(dir, fmt.Sprintf("%s%d.cubex", prefix, i+1))
		if err := format.Write(p, e); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return files, name
}

func csvRecords(t *testing.T, out string) [][]string {
	t.Helper()
	h, rows := readCSV(t, out)
	return append([][]string{h}, rows...)
}

// TestDiffGroups: five runs against five with a 20 % shift planted in
// one call path: the text and the CSV call exactly that one significant.
func TestDiffGroups(t *testing.T) {
	dir := t.TempDir()
	const planted = 23
	a, name := writeRuns(t, dir, "a", 5, 1, planted, 0.2)
	b, _ := writeRuns(t, dir, "b", 5, 2, -1, 0)
	args := append(append(append([]string{"diff", "--groups"}, a...), "--"), b...)
	status, out, errOut := run(append(args, "--csv")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	recs := csvRecords(t, out)
	if strings.Join(recs[0], ",") != strings.Join(groupColumns, ",") || len(recs) < 50 {
		t.Fatalf("CSV: %d records, header %v", len(recs), recs[0])
	}
	var significant []string
	for _, r := range recs[1:] {
		q, err := strconv.ParseFloat(r[9], 64)
		if err != nil {
			t.Fatalf("q %q: %v", r[9], err)
		}
		if (r[11] == "true") != (q < 0.05) {
			t.Errorf("%s: significant %s with q %g", r[0], r[11], q)
		}
		if r[11] == "true" {
			significant = append(significant, r[0])
		}
		lo, _ := strconv.ParseFloat(r[6], 64)
		hi, _ := strconv.ParseFloat(r[7], 64)
		d, _ := strconv.ParseFloat(r[5], 64)
		if !(lo <= d && d <= hi) {
			t.Errorf("%s: diff %g outside [%g, %g]", r[0], d, lo, hi)
		}
	}
	if len(significant) != 1 || significant[0] != name {
		t.Errorf("significant: %v, want only %s", significant, name)
	}
	status, out, errOut = run(append(args, "--significant")...)
	if status != 0 || !strings.Contains(out, "1 of 60 call paths differ significantly") || !strings.Contains(out, "*  "+name+"\n") ||
		!strings.Contains(out, "ci_low") || !strings.Contains(out, "A: 5 runs in "+dir+": a1.cubex") {
		t.Errorf("text: %d %s\n%s", status, errOut, out)
	}
	// Mann–Whitney with 5 runs per group cannot reach q < 0.05 among 60.
	status, out, _ = run(append(args, "--test", "mann-whitney")...)
	if status != 0 || !strings.Contains(out, "0 of 60 call paths differ significantly") || !strings.Contains(out, "Mann–Whitney U test") {
		t.Errorf("mann-whitney: %d\n%s", status, out)
	}
}

func TestDiffGroupsUsage(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeRuns(t, dir, "a", 2, 1, -1, 0)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "--groups", a[0], a[1]}, `then "--", then those of group B`},
		{[]string{"diff", "--groups", a[0], a[1], "--", a[0]}, "each needs at least two"},
		{[]string{"diff", "--groups", a[0], a[1], "--", a[0], a[1], "--test", "z"}, `--test "z"`},
		{[]string{"diff", "--groups", a[0], a[1], "--", a[0], a[1], "--alpha", "2"}, "--alpha 2"},
		{[]string{"stat", "--runs", a[0]}, "at least two repeated runs"},
		{[]string{"diff", "--groups", "repo:a=b=c,x", a[1], "--", a[0], a[1]}, `"x" is not key=value`},
	} {
		status, _, errOut := run(tt.args...)
		if status == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: status %d, %q; want %q", tt.args, status, errOut, tt.want)
		}
	}
}

// TestStatRuns: twenty runs with 2 % noise per call path: the whole
// program's and each call path's coefficient of variation come out near
// 2 %, and nothing counts as noisy (cv > 5 %).
func TestStatRuns(t *testing.T) {
	dir := t.TempDir()
	runs, _ := writeRuns(t, dir, "r", 20, 3, -1, 0)
	status, out, errOut := run(append([]string{"stat", "--runs", "--excl", "--csv"}, runs...)...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	recs := csvRecords(t, out)
	if len(recs) != 61 || strings.Join(recs[0], ",") != "call_path,runs,mean,sd,cv,min,max,detectable" {
		t.Fatalf("%d records: %v", len(recs), recs[0])
	}
	var sum float64
	for _, r := range recs[1:] {
		cv, err := strconv.ParseFloat(r[4], 64)
		if err != nil || r[1] != "20" {
			t.Fatalf("%v: %v", r, err)
		}
		sum += cv
	}
	if mean := sum / 60; mean < 0.018 || mean > 0.022 {
		t.Errorf("mean cv %g, want 0.02", mean)
	}
	status, out, _ = run(append([]string{"stat", "--runs", "--top", "3"}, runs...)...)
	if status != 0 || !strings.Contains(out, "cv above 5%: 0 of 60 call paths") || !strings.Contains(out, "(top 3 of 60 call paths by mean") {
		t.Errorf("text: %d\n%s", status, out)
	}
}

// TestGroupsFromRepository: trials selected by repo:key=value (and
// --where) make the same groups as the files they were imported from.
func TestGroupsFromRepository(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CUBEVIEW_REPO", filepath.Join(dir, "repo.db"))
	if status, _, errOut := run("repo", "init"); status != 0 {
		t.Fatal(errOut)
	}
	a, _ := writeRuns(t, dir, "a", 5, 1, 11, 0.2)
	b, _ := writeRuns(t, dir, "b", 5, 2, -1, 0)
	if status, _, errOut := run(append([]string{"repo", "import", "--app", "synth", "--experiment", "baseline"}, b...)...); status != 0 {
		t.Fatal(errOut)
	}
	if status, _, errOut := run(append([]string{"repo", "import", "--app", "synth", "--experiment", "tuned", "--attr", "size=25"}, a...)...); status != 0 {
		t.Fatal(errOut)
	}
	_, fromFiles, errOut := run(append(append(append([]string{"diff", "--groups", "--csv"}, a...), "--"), b...)...)
	status, fromRepo, errOut2 := run("diff", "--groups", "--csv", "repo:experiment=tuned", "--", "repo:app=synth,experiment=baseline")
	if status != 0 || fromRepo != fromFiles || !strings.Contains(fromRepo, "true") {
		t.Errorf("repository groups: %d %s %s\nfiles:\n%s\nrepository:\n%s", status, errOut, errOut2, fromFiles, fromRepo)
	}
	status, viaWhere, errOut := run(append([]string{"diff", "--groups", "--csv", "--where", "size = 25", "repo:app=synth", "--"}, b...)...)
	if status != 0 || viaWhere != fromFiles {
		t.Errorf("--where: %d %s\n%s", status, errOut, viaWhere)
	}
	_, noiseFiles, _ := run(append([]string{"stat", "--runs", "--csv"}, b...)...)
	status, noiseRepo, errOut := run("stat", "--runs", "--csv", "repo:experiment=baseline")
	if status != 0 || noiseRepo != noiseFiles {
		t.Errorf("stat --runs from the repository: %d %s\n%s\n%s", status, errOut, noiseFiles, noiseRepo)
	}
	status, _, errOut = run("stat", "--runs", "repo:experiment=nothing")
	if status == 0 || !strings.Contains(errOut, "no trial of repository") {
		t.Errorf("empty selection: %d %q", status, errOut)
	}
}
