package analysis

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"path"
	"strings"
	"testing"

	"cubeview/analysis/significance"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// rajaPerfRuns returns the 10 repeated RAJAPerf runs (Caliper .cali, one
// process, Sequential variants, 8M elements, on LLNL's quartz) of GCC
// 10.3.1 at optimisation level opt ("O0" … "O3") from Thicket's tutorial.
func rajaPerfRuns(t *testing.T, opt string) []*model.Experiment {
	t.Helper()
	dir := "data/quartz/GCC_10.3.1_BaseSeq_08388608/" + opt + "/"
	paths, local := testkit.MirrorFiles(t, "LLNL/thicket-tutorial", func(p string) bool {
		return strings.HasPrefix(p, dir) && strings.HasSuffix(p, ".cali")
	})
	if len(paths) != 10 {
		t.Fatalf("%s: %d runs, want 10", dir, len(paths))
	}
	runs := make([]*model.Experiment, len(paths))
	for i, p := range paths {
		runs[i] = open(t, local[p])
	}
	return runs
}

// TestRealRepeatedRuns compares real repeated runs: ten RAJAPerf runs of
// each of GCC's -O2 and -O3 builds, and -O0 against -O3.
func TestRealRepeatedRuns(t *testing.T) {
	o0, o2, o3 := rajaPerfRuns(t, "O0"), rajaPerfRuns(t, "O2"), rajaPerfRuns(t, "O3")
	noise, err := RunNoise(o3, GroupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := noise.Result
	t.Logf("O3, %d runs, metric %s: total mean %.4g, CV %.2f %%, detectable %.2f %%", noise.Runs, res.Metrics[noise.Metric].UniqName, noise.Total.Mean, 100*noise.Total.CV, 100*noise.Total.Detectable)
	noisy := 0
	for _, r := range noise.Rows {
		if r.CV > 0.05 {
			noisy++
		}
	}
	t.Logf("O3: %d of %d call paths vary by more than 5 %% from run to run", noisy, len(noise.Rows))
	for _, r := range noise.Rows[:min(8, len(noise.Rows))] {
		t.Logf("  mean %.4g  cv %5.2f %%  min %.4g max %.4g  %s", r.Mean, 100*r.CV, r.Min, r.Max, path.Base(res.CallPath(r.Cnode)))
	}
	// The runs' own spread, recomputed by hand for the whole program: the
	// coefficient of variation is the sample standard deviation over the
	// mean of the ten totals.
	var totals []float64
	for _, e := range o3 {
		m := e.MetricByName(res.Metrics[noise.Metric].UniqName)
		v, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		totals = append(totals, v)
	}
	if !closeTo(noise.Total.Mean, mean(totals), 1e-12) || !closeTo(noise.Total.CV, sd(totals)/mean(totals), 1e-9) {
		t.Errorf("total: mean %g CV %g, by hand %g %g", noise.Total.Mean, noise.Total.CV, mean(totals), sd(totals)/mean(totals))
	}

	var cases []scipyCase
	for _, pair := range []struct {
		name string
		a, b []*model.Experiment
	}{{"O0 vs O3", o0, o3}, {"O2 vs O3", o2, o3}} {
		g, err := CompareGroups(pair.a, pair.b, GroupOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d of %d call paths significant; total %.4g vs %.4g, p %.3g", pair.name, g.Significant(), len(g.Rows), g.Total.A.Mean, g.Total.B.Mean, g.Total.P)
		for _, r := range g.Rows[:min(6, len(g.Rows))] {
			t.Logf("  A %.4g±%.2g B %.4g±%.2g diff %+.4g [%.4g, %.4g] p %.3g q %.3g g %.3g %v %s", r.A.Mean, r.A.SD(), r.B.Mean, r.B.SD(), r.Diff, r.CILow, r.CIHigh, r.P, r.Q, r.Effect, r.Significant, path.Base(g.Result.CallPath(r.Cnode)))
		}
		cases = append(cases, scipyCase{pair.name, g, pair.a, pair.b})
	}
	// Generated groups with a planted shift, as TestPlantedShift makes them.
	a, b := plantedGroups(5, 6, 4, constSigma(0.03), map[int]float64{17: 0.2})
	g, err := CompareGroups(a, b, GroupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, scipyCase{"planted", g, a, b})
	checkAgainstScipy(t, cases)
}

type scipyCase struct {
	name string
	g    *GroupComparison
	a, b []*model.Experiment
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func sd(x []float64) float64 {
	m, s := mean(x), 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

func closeTo(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(math.Abs(a), math.Abs(b), 1e-300)
}

// scipyScript prints, for each [a, b, exact] read as JSON, scipy's Welch
// t-test (t, p), the Welch–Satterthwaite df, the 95 % interval of
// mean(a) − mean(b) from scipy's t quantile, and scipy's Mann–Whitney U of
// a with its two-sided p-value (exact or asymptotic as asked).
const scipyScript = `
import json, sys
import numpy as np
from scipy import stats
out = []
for a, b, exact in json.load(sys.stdin):
    r = stats.ttest_ind(a, b, equal_var=False)
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    h = stats.t.ppf(0.975, df) * np.sqrt(va + vb)
    d = np.mean(a) - np.mean(b)
    m = stats.mannwhitneyu(a, b, alternative="two-sided", method="exact" if exact else "asymptotic")
    out.append([float(r.statistic), float(r.pvalue), float(df), float(d - h), float(d + h), float(m.statistic), float(m.pvalue)])
print(json.dumps(out))
`

// scipyPython returns a Python 3 interpreter that has scipy (Debian's
// python3-scipy, which scripts/ensure-deps.sh --test installs), or skips.
func scipyPython(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exe, err := exec.LookPath(p); err == nil && exec.Command(exe, "-c", "import scipy").Run() == nil {
			return exe
		}
	}
	t.Skip("no python3 with scipy (Debian package python3-scipy): p-values not compared with scipy")
	return ""
}

// checkAgainstScipy compares every row whose groups both vary with
// scipy's ttest_ind(equal_var=False) and mannwhitneyu on the same numbers
// (one Python run for all cases: starting scipy is slow).
func checkAgainstScipy(t *testing.T, cases []scipyCase) {
	t.Helper()
	python := scipyPython(t)
	type job struct {
		c, row int
		a, b   []float64
	}
	var jobs []job
	var input [][3]any
	for ci, c := range cases {
		ga, gb := rowValues(t, c.g, c.a), rowValues(t, c.g, c.b)
		// Generated call trees may repeat a callee under one parent; such
		// call paths are not told apart by name.
		paths := map[string]int{}
		for cn := range c.g.Result.Cnodes {
			paths[c.g.Result.CallPath(cn)]++
		}
		n := 0
		for i, r := range c.g.Rows {
			if r.A.Var == 0 || r.B.Var == 0 || paths[c.g.Result.CallPath(r.Cnode)] > 1 {
				continue
			}
			_, _, exact := significance.MannWhitneyU(ga[i], gb[i], significance.Auto)
			jobs = append(jobs, job{ci, i, ga[i], gb[i]})
			input = append(input, [3]any{ga[i], gb[i], exact})
			n++
		}
		t.Logf("%s: %d of %d call paths compared with scipy", c.name, n, len(c.g.Rows))
		if n < len(c.g.Rows)/2 {
			t.Errorf("%s: only %d of %d rows compared", c.name, n, len(c.g.Rows))
		}
	}
	data, _ := json.Marshal(input)
	cmd := exec.Command(python, "-c", scipyScript)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v: %s", err, stderr.String())
	}
	var ref [][7]float64
	if err := json.Unmarshal(out, &ref); err != nil || len(ref) != len(jobs) {
		t.Fatalf("scipy's answer: %v (%d results for %d)", err, len(ref), len(jobs))
	}
	for k, j := range jobs {
		c := cases[j.c]
		r, want := c.g.Rows[j.row], ref[k]
		u, pmw, _ := significance.MannWhitneyU(j.a, j.b, significance.Auto)
		got := [7]float64{r.Stat, r.P, r.DF, r.CILow, r.CIHigh, u, pmw}
		for f, label := range []string{"t", "p", "df", "ci_low", "ci_high", "U", "Mann–Whitney p"} {
			if !closeTo(got[f], want[f], 1e-8) {
				t.Errorf("%s, %s: %s = %.12g, scipy %.12g", c.name, c.g.Result.CallPath(r.Cnode), label, got[f], want[f])
			}
		}
	}
}

// rowValues returns, per row of g, the value of each run at the row's
// call path, looked up independently of the comparison: by the call
// path's name in each run, its own values summed over locations.
func rowValues(t *testing.T, g *GroupComparison, runs []*model.Experiment) [][]float64 {
	t.Helper()
	metric := g.Result.Metrics[g.Metric].UniqName
	out := make([][]float64, len(g.Rows))
	for _, e := range runs {
		m := e.MetricByName(metric)
		v, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, g.Options.Inclusive)
		if err != nil {
			t.Fatal(err)
		}
		byPath := map[string]float64{}
		for c := range e.Cnodes {
			byPath[e.CallPath(c)] += v[c]
		}
		for i, r := range g.Rows {
			out[i] = append(out[i], byPath[g.Result.CallPath(r.Cnode)])
		}
	}
	return out
}

// TestRealRunPair: two Kripke runs of one configuration (128 ranks,
// different PAPI counters) in ../shared/data: their whole-program times
// are the extremes of RunNoise's total, and time is the one metric both
// have that is compared.
func TestRealRunPair(t *testing.T) {
	dir := testkit.DataDir(t)
	var runs []*model.Experiment
	var totals []float64
	for _, f := range []string{"L2_DCM_negative.cubex", "L3_DCA_negative.cubex"} {
		e := open(t, dir+"/cube4/hw_counter/"+f)
		v, err := e.MetricTotal(model.MetricSel{Metric: e.MetricByName("time"), Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		runs, totals = append(runs, e), append(totals, v)
	}
	n, err := RunNoise(runs, GroupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n.Result.Metrics[n.Metric].UniqName != "time" || n.Total.Min != min(totals[0], totals[1]) || n.Total.Max != max(totals[0], totals[1]) {
		t.Errorf("metric %s, total min %g max %g, want %v", n.Result.Metrics[n.Metric].UniqName, n.Total.Min, n.Total.Max, totals)
	}
	t.Logf("Kripke pair: whole program %.6g vs %.6g (cv %.2f %%); hottest call paths:", totals[0], totals[1], 100*n.Total.CV)
	for _, r := range n.Rows[:5] {
		t.Logf("  %.6g .. %.6g cv %.2f %%  %s", r.Min, r.Max, 100*r.CV, path.Base(n.Result.CallPath(r.Cnode)))
	}
}
