package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/analysis/significance"
	"cubeview/internal/flagargs"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
)

// groupsUsage explains diff --groups; it follows diff's usage.
const groupsUsage = `

Repeated runs as groups:
  cubeview diff --groups A1 A2 [A3…] -- B1 B2 [B3…] [--metric NAME] [--incl]
       [--test welch|mann-whitney] [--alpha Q] [--top N] [--significant] [--csv]
       [--where FILTER] [matching options]

compares two groups of repeated runs call path by call path. A run's value
at a call path is the metric summed over all locations (0 where the run
lacks the call path); a group's value is the mean over its runs, shown
with their standard deviation. Each call path is tested with Welch's
t-test (or, --test mann-whitney, the Mann–Whitney U test: exact for fewer
than 50 runs per group without ties; it cannot reach significance among
many call paths with fewer than about 8 runs per group), and the p-values
of all call paths are adjusted by Benjamini–Hochberg into q-values.
"significant" means q < α (--alpha, default 0.05), and only that.
Columns: the means and standard deviations of A and B, A − B and its 95 %
confidence interval (ci_low, ci_high, Welch–Satterthwaite degrees of
freedom), p, q, the effect size (Hedges' g: A − B in pooled standard
deviations), and * where significant. Each group needs at least two runs.
  --significant   print only the significant call paths
  --csv           every call path, values in full precision, as CSV:
                  call_path,mean_a,sd_a,mean_b,sd_b,diff,ci_low,ci_high,p,q,effect,significant
A run is a file, or a trial of the repository: repo:ID, or repo:key=value,…
naming every trial that meets the conditions (repo:experiment=baseline);
--where FILTER (repo ls's filter language) further restricts those trials.`

// hasFlag reports whether args set the boolean flag name before any "--".
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-"+name || a == "--"+name || a == "-"+name+"=true" || a == "--"+name+"=true" {
			return true
		}
	}
	return false
}

// splitGroups parses args with fs: the positional arguments before the
// first "--" are group A, those after it group B.
func splitGroups(fs *flag.FlagSet, args []string) (a, b []string, err error) {
	cut := -1
	for i, x := range args {
		if x == "--" {
			cut = i
			break
		}
	}
	if cut < 0 {
		return nil, nil, usagef("--groups: give the runs of group A, then \"--\", then those of group B")
	}
	if a, err = parseArgs(fs, args[:cut]); err != nil {
		return nil, nil, err
	}
	if b, err = parseArgs(fs, args[cut+1:]); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// groupFlags are the options of the commands that compare or measure
// groups of runs.
type groupFlags struct {
	metric             *string
	incl, excl         *bool
	test               *string
	alpha              *float64
	top                *int
	significant, asCSV *bool
	exact              *bool
	where              *string
	options            func() (analysis.GroupOptions, error)
}

func newGroupFlags(fs *flag.FlagSet, top int) *groupFlags {
	g := &groupFlags{
		metric:      fs.String("metric", "", ""),
		incl:        fs.Bool("incl", false, ""),
		excl:        fs.Bool("excl", false, ""),
		test:        fs.String("test", "welch", ""),
		alpha:       fs.Float64("alpha", significance.DefaultAlpha, ""),
		top:         fs.Int("top", top, ""),
		significant: fs.Bool("significant", false, ""),
		asCSV:       fs.Bool("csv", false, ""),
		exact:       fs.Bool("exact", false, ""),
		where:       fs.String("where", "", ""),
	}
	matching := matchingFlags(fs)
	g.options = func() (analysis.GroupOptions, error) {
		m, err := matching()
		if err != nil {
			return analysis.GroupOptions{}, err
		}
		opt := analysis.GroupOptions{Metric: *g.metric, Alpha: *g.alpha, Algebra: m}
		switch strings.ToLower(*g.test) {
		case "welch", "t", "welch-t":
			opt.Test = significance.Welch
		case "mann-whitney", "mannwhitney", "u", "wilcoxon":
			opt.Test = significance.MannWhitney
		default:
			return opt, usagef("--test %q: want welch or mann-whitney", *g.test)
		}
		if *g.alpha <= 0 || *g.alpha >= 1 {
			return opt, usagef("--alpha %g: want a false-discovery rate between 0 and 1", *g.alpha)
		}
		if *g.top < 0 {
			return opt, usagef("--top %d: want N ≥ 0 (0: every call path)", *g.top)
		}
		return opt, nil
	}
	return g
}

// expandRuns turns a group's operands into the runs to open: files stay,
// repo:ID stays, and repo:key=value,… becomes every trial that meets the
// conditions (and the --where filter), in import order.
func expandRuns(operands []string, where string) ([]string, error) {
	var out []string
	for _, op := range operands {
		spec, isRef := strings.CutPrefix(op, repo.RefPrefix)
		if !isRef {
			out = append(out, op)
			continue
		}
		if id, err := strconv.ParseInt(spec, 10, 64); err == nil && id > 0 && where == "" {
			out = append(out, op)
			continue
		}
		filter, err := refFilter(op, spec)
		if err != nil {
			return nil, err
		}
		if where != "" {
			filter = "(" + filter + ") and (" + where + ")"
		}
		r, err := sharedRepo(refLocation)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		trials, err := r.Trials(context.Background(), filter, repo.ListOptions{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if len(trials) == 0 {
			return nil, fmt.Errorf("%s: no trial of repository %s matches %s", op, r.Name(), filter)
		}
		for _, t := range trials {
			out = append(out, repo.RefPrefix+strconv.FormatInt(t.ID, 10))
		}
	}
	return out, nil
}

var filterWord = regexp.MustCompile(`^@?[A-Za-z_][A-Za-z0-9_.:-]*$`)

// refFilter writes a reference's conditions (an id, or key=value,…) in
// the repository's filter language: numbers unquoted (they compare
// numerically), other values quoted.
func refFilter(ref, spec string) (string, error) {
	if id, err := strconv.ParseInt(spec, 10, 64); err == nil && id > 0 {
		return "id = " + spec, nil
	}
	if spec == "" {
		return "", fmt.Errorf("%s: no trial named; write repo:ID or repo:key=value,…", ref)
	}
	var parts []string
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || !filterWord.MatchString(k) {
			return "", fmt.Errorf("%s: %q is not key=value (use --where FILTER for other conditions)", ref, kv)
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			parts = append(parts, k+" = "+v)
		} else {
			parts = append(parts, k+" = '"+strings.ReplaceAll(v, "'", "''")+"'")
		}
	}
	return strings.Join(parts, " and "), nil
}

// runList names a group's runs briefly: the folder they share once, then
// their names, at most five.
func runList(paths []string) string {
	dir := filepath.Dir(paths[0])
	for _, p := range paths {
		if filepath.Dir(p) != dir || strings.HasPrefix(p, repo.RefPrefix) {
			dir = ""
			break
		}
	}
	names := paths
	if dir != "" && dir != "." {
		names = make([]string, len(paths))
		for i, p := range paths {
			names[i] = filepath.Base(p)
		}
		return "in " + dir + ": " + briefList(names)
	}
	return briefList(names)
}

func openRuns(paths []string) ([]*model.Experiment, error) {
	runs := make([]*model.Experiment, len(paths))
	for i, p := range paths {
		e, err := openExperiment(p)
		if err != nil {
			return nil, err
		}
		if e.Source == "" {
			e.Source = p
		}
		runs[i] = e
	}
	return runs, nil
}

func runGroupDiff(env Env, args []string) error {
	fs := flagargs.New("diff")
	fs.Bool("groups", true, "")
	g := newGroupFlags(fs, 20)
	opsA, opsB, err := splitGroups(fs, args)
	if err != nil {
		return err
	}
	opt, err := g.options()
	if err != nil {
		return err
	}
	if *g.excl {
		return usagef("--excl: diff compares own values by default; --incl compares inclusive ones")
	}
	opt.Inclusive = *g.incl
	pathsA, err := expandRuns(opsA, *g.where)
	if err != nil {
		return err
	}
	pathsB, err := expandRuns(opsB, *g.where)
	if err != nil {
		return err
	}
	if len(pathsA) < 2 || len(pathsB) < 2 {
		return usagef("--groups: group A has %d run%s and group B %d; each needs at least two to estimate its noise", len(pathsA), plural(len(pathsA)), len(pathsB))
	}
	a, err := openRuns(pathsA)
	if err != nil {
		return err
	}
	b, err := openRuns(pathsB)
	if err != nil {
		return err
	}
	cmp, err := analysis.CompareGroups(a, b, opt)
	if err != nil {
		return err
	}
	if *g.asCSV {
		return writeGroupCSV(env.Stdout, cmp, *g.significant)
	}
	return writeGroupText(env.Stdout, cmp, pathsA, pathsB, *g.top, *g.significant, *g.exact)
}

var groupColumns = []string{"call_path", "mean_a", "sd_a", "mean_b", "sd_b", "diff", "ci_low", "ci_high", "p", "q", "effect", "significant"}

func writeGroupCSV(w io.Writer, g *analysis.GroupComparison, onlySignificant bool) error {
	cw := csv.NewWriter(w)
	cw.Write(groupColumns)
	f := numfmt.RoundTrip()
	num := func(v float64) string { return f.Format(v, false) }
	for _, r := range g.Rows {
		if onlySignificant && !r.Significant {
			continue
		}
		cw.Write([]string{g.Result.CallPath(r.Cnode), num(r.A.Mean), num(r.A.SD()), num(r.B.Mean), num(r.B.SD()), num(r.Diff),
			num(r.CILow), num(r.CIHigh), num(r.P), num(r.Q), num(r.Effect), strconv.FormatBool(r.Significant)})
	}
	cw.Flush()
	return cw.Error()
}

// pValue prints a p- or q-value as significance.FormatP does, "-" for none.
func pValue(p float64) string { return significance.FormatP(p, "-") }

func effectCell(g float64) string {
	switch {
	case math.IsNaN(g):
		return "-"
	case math.IsInf(g, 1):
		return "+inf"
	case math.IsInf(g, -1):
		return "-inf"
	}
	return strconv.FormatFloat(g, 'f', 2, 64)
}

func writeGroupText(w io.Writer, g *analysis.GroupComparison, pathsA, pathsB []string, top int, onlySignificant, exact bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	res := g.Result
	met := &res.Metrics[g.Metric]
	nf := numberFormat(exact)
	num := func(v float64) string { return nf.Format(v, false) }
	kind := "exclusive (own) values"
	if g.Options.Inclusive {
		kind = "inclusive values"
	}
	fmt.Fprintf(bw, "%s [%s] %s, call-tree %s summed over all locations, per run\n", orNone(met.DispName), met.UniqName, orNone(met.Unit), kind)
	fmt.Fprintf(bw, "A: %d runs %s\nB: %d runs %s\n", len(pathsA), runList(pathsA), len(pathsB), runList(pathsB))
	ig := g.Integration
	if ig.RootsMatched != "" {
		fmt.Fprintf(bw, "matched: %s (--strict-roots keeps them apart)\n", ig.RootsMatched)
	}
	for _, n := range ig.Report.Matched() {
		fmt.Fprintln(bw, "matched: "+n)
	}
	for _, n := range ig.Report.NotCompared() {
		fmt.Fprintln(bw, "note: "+n)
	}
	test := g.Options.Test.String()
	alpha := g.Options.Alpha
	if alpha <= 0 {
		alpha = significance.DefaultAlpha
	}
	t := g.Total
	fmt.Fprintf(bw, "whole program: A %s ± %s, B %s ± %s, A − B %s [%s, %s], p %s (%s test)\n",
		num(t.A.Mean), num(t.A.SD()), num(t.B.Mean), num(t.B.SD()), signed(num(t.Diff)), num(t.CILow), num(t.CIHigh), pValue(t.P), test)
	fmt.Fprintf(bw, "%d of %d call paths differ significantly (*: Benjamini–Hochberg q < %g over all %d; %s test, 95 %% intervals)\n\n",
		g.Significant(), len(g.Rows), alpha, len(g.Rows), test)
	cells := [][]string{{"mean A", "± sd", "mean B", "± sd", "A − B", "ci_low", "ci_high", "p", "q", "effect", "", "call path"}}
	shown, eligible := 0, 0
	for _, r := range g.Rows {
		if onlySignificant && !r.Significant {
			continue
		}
		eligible++
		if top > 0 && shown >= top {
			continue
		}
		shown++
		mark := ""
		if r.Significant {
			mark = "*"
		}
		cells = append(cells, []string{num(r.A.Mean), num(r.A.SD()), num(r.B.Mean), num(r.B.SD()), signed(num(r.Diff)),
			num(r.CILow), num(r.CIHigh), pValue(r.P), pValue(r.Q), effectCell(r.Effect), mark, res.CallPath(r.Cnode)})
	}
	if shown == 0 {
		if onlySignificant {
			fmt.Fprintln(bw, "no call path differs significantly")
		} else {
			fmt.Fprintln(bw, "no call path has a value")
		}
		return bw.Flush()
	}
	writeTable(bw, cells, 10)
	what := "call paths"
	if onlySignificant {
		what = "significant call paths"
	}
	if shown < eligible {
		fmt.Fprintf(bw, "(top %d of %d %s by |A − B|; --top N for more, --top 0 for all)\n", shown, eligible, what)
	}
	return bw.Flush()
}

// runsUsage explains stat --runs; it follows stat's usage.
const runsUsage = `

Noise of repeated runs:
  cubeview stat --runs R1 R2 [R3…] [--metric NAME] [--excl] [--top N] [--csv]
       [--where FILTER] [matching options]

measures how much repeated runs of one configuration scatter, per call
path, before anything is compared: a run's value at a call path is the
metric (default: time) summed over all locations, inclusive unless --excl.
Columns: the mean over the runs, the standard deviation, the coefficient
of variation (cv: standard deviation / mean), the smallest and largest
value, and "detectable": the smallest difference of means, in percent of
the mean, that Welch's test would find (p < 0.05) between two groups of
this many runs with this spread — t(0.975, 2(n−1))·sd·√(2/n)/mean; a change
smaller than that cannot be told from noise. Largest mean first.
  --top N   print the N call paths of largest mean (default 20; 0: all)
  --csv     every call path, full precision, as CSV:
            call_path,runs,mean,sd,cv,min,max,detectable
A run is a file, repo:ID, or repo:key=value,… naming every trial that meets
the conditions (repo:experiment=baseline); --where FILTER (repo ls's filter
language) further restricts those trials.`

// noisyCV is the coefficient of variation above which stat --runs counts
// a call path as noisy in its summary.
const noisyCV = 0.05

func runStatRuns(env Env, args []string) error {
	fs := flagargs.New("stat")
	fs.Bool("runs", true, "")
	g := newGroupFlags(fs, 20)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	opt, err := g.options()
	if err != nil {
		return err
	}
	if *g.incl {
		return usagef("--incl: stat --runs takes inclusive values by default; --excl takes each call path's own")
	}
	opt.Inclusive = !*g.excl
	paths, err := expandRuns(pos, *g.where)
	if err != nil {
		return err
	}
	if len(paths) < 2 {
		return usagef("--runs: %d run%s; at least two repeated runs are needed to measure their noise", len(paths), plural(len(paths)))
	}
	runs, err := openRuns(paths)
	if err != nil {
		return err
	}
	n, err := analysis.RunNoise(runs, opt)
	if err != nil {
		return err
	}
	if *g.asCSV {
		cw := csv.NewWriter(env.Stdout)
		cw.Write([]string{"call_path", "runs", "mean", "sd", "cv", "min", "max", "detectable"})
		f := numfmt.RoundTrip()
		num := func(v float64) string { return f.Format(v, false) }
		for _, r := range n.Rows {
			cw.Write([]string{n.Result.CallPath(r.Cnode), strconv.Itoa(r.N), num(r.Mean), num(r.SD()), num(r.CV), num(r.Min), num(r.Max), num(r.Detectable)})
		}
		cw.Flush()
		return cw.Error()
	}
	return writeNoiseText(env.Stdout, n, paths, *g.top, *g.exact)
}

func percent(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(100*v, 'f', 2, 64) + "%"
}

func writeNoiseText(w io.Writer, n *analysis.RunNoiseResult, paths []string, top int, exact bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	res := n.Result
	met := &res.Metrics[n.Metric]
	nf := numberFormat(exact)
	num := func(v float64) string { return nf.Format(v, false) }
	kind := "exclusive (own) values"
	if n.Options.Inclusive {
		kind = "inclusive values"
	}
	fmt.Fprintf(bw, "%s [%s] %s, call-tree %s summed over all locations, per run\n", orNone(met.DispName), met.UniqName, orNone(met.Unit), kind)
	fmt.Fprintf(bw, "%d runs %s\n", n.Runs, runList(paths))
	for _, s := range n.Integration.Report.NotCompared() {
		fmt.Fprintln(bw, "note: "+s)
	}
	t := n.Total
	fmt.Fprintf(bw, "whole program: mean %s, sd %s, cv %s, min %s, max %s, detectable %s\n",
		num(t.Mean), num(t.SD()), percent(t.CV), num(t.Min), num(t.Max), percent(t.Detectable))
	noisy, hot, hotNoisy := 0, 0, 0
	for _, r := range n.Rows {
		isHot := math.Abs(r.Mean) >= 0.01*math.Abs(t.Mean)
		if isHot {
			hot++
		}
		if r.CV > noisyCV {
			noisy++
			if isHot {
				hotNoisy++
			}
		}
	}
	fmt.Fprintf(bw, "cv above %g%%: %d of %d call paths; of the %d holding at least 1%% of the total: %d\n\n", 100*noisyCV, noisy, len(n.Rows), hot, hotNoisy)
	cells := [][]string{{"mean", "sd", "cv", "min", "max", "detectable", "call path"}}
	for i, r := range n.Rows {
		if top > 0 && i >= top {
			break
		}
		cells = append(cells, []string{num(r.Mean), num(r.SD()), percent(r.CV), num(r.Min), num(r.Max), percent(r.Detectable), res.CallPath(r.Cnode)})
	}
	writeTable(bw, cells, 6)
	if top > 0 && len(n.Rows) > top {
		fmt.Fprintf(bw, "(top %d of %d call paths by mean; --top N for more, --top 0 for all)\n", top, len(n.Rows))
	}
	return bw.Flush()
}
