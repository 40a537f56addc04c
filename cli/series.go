package cli

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "series",
		Summary: "scaling of each call path over several runs: speedup, efficiency, plot",
		Usage: `usage: cubeview series FILE… --metric UNIQ [--x procs|ATTR|v1,v2,…] [--weak]
       [--basis mean|max|sum] [--excl] [--top N] [--csv] [-o plot.png|plot.svg]

Orders the runs by x and compares each call path (matched across the runs as
"cubeview diff" matches them) with the first run: per run its value (as
"cubeview tree" shows it), its minimum, mean and maximum across locations,
the speedup b₀/bᵢ and the parallel efficiency speedup·x₀/xᵢ of the basis
value b (strong scaling), or with --weak the ratio bᵢ/b₀ and efficiency b₀/bᵢ.
The basis is by default the mean across locations, so that perfect strong
scaling gives speedup x/x₀ when x is the process count.

  --metric UNIQ   the metric (stored or derived)
  --x procs       x is each run's process count (default)
  --x ATTR        x is the numeric experiment attribute ATTR
  --x v1,v2,…     x values for the FILEs in the order given
  --weak          weak scaling: ratio to the first run instead of speedup
  --basis B       what speedup compares: mean (default), max (the slowest
                  location) or sum (the value over all locations)
  --excl          each call path's own values instead of inclusive ones
  --top N         print only the N call paths with the largest basis value
                  in the first run; the plot shows the top N (default 5)
  --csv           print CSV, one row per call path and run:
                  call_path,run,x,value,min,mean,max,speedup,efficiency
                  (ratio instead of speedup with --weak)
  -o FILE         also draw speedup and efficiency of the top call paths
                  against the ideal line on log-2 axes (.png or .svg,
                  1200 × 800 pixels)`,
		Run: runSeries,
	})
}

func runSeries(env Env, args []string) error {
	fs := newFlagSet("series")
	metric := fs.String("metric", "", "")
	xSpec := fs.String("x", "procs", "")
	weak := fs.Bool("weak", false, "")
	basis := fs.String("basis", "mean", "")
	excl := fs.Bool("excl", false, "")
	top := fs.Int("top", 0, "")
	asCSV := fs.Bool("csv", false, "")
	out := fs.String("o", "", "")
	matching := matchingFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	algebraOpt, err := matching()
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("want at least two FILEs, got %d", len(pos))
	}
	if *metric == "" {
		return usagef("--metric is required")
	}
	if *top < 0 {
		return usagef("--top %d: want N ≥ 0", *top)
	}
	b, err := analysis.ParseBasis(*basis)
	if err != nil {
		return usagef("--basis: %v", err)
	}
	if *out != "" {
		if _, err := chart.FormatOf(*out); err != nil {
			return usagef("-o %v", err)
		}
		if err := checkOutput(*out, pos, false); err != nil {
			return err
		}
	}
	var xs []float64
	if strings.Contains(*xSpec, ",") {
		if xs, err = analysis.ParseXValues(*xSpec, len(pos)); err != nil {
			return usagef("--x: %v", err)
		}
	}
	trials := make([]analysis.Trial, len(pos))
	for i, path := range pos {
		e, err := openExperiment(path)
		if err != nil {
			return err
		}
		t := analysis.Trial{Name: path, Exp: e}
		switch {
		case xs != nil:
			t.X = xs[i]
		case *xSpec == "procs":
			t.X = float64(analysis.ProcessCount(e))
		default:
			if t.X, err = analysis.AttrNumber(e, *xSpec); err != nil {
				return err
			}
		}
		trials[i] = t
	}
	if xs == nil && *xSpec == "procs" {
		same := true
		for _, t := range trials[1:] {
			same = same && t.X == trials[0].X
		}
		if same {
			return fmt.Errorf("every run has %v processes: give x values with --x v1,v2,… or --x ATTR", trials[0].X)
		}
	}
	exps := make([]*model.Experiment, len(trials))
	for i, t := range trials {
		exps[i] = t.Exp
	}
	if *metric, err = metricUniqName(*metric, pos, exps); err != nil {
		return err
	}
	res, err := analysis.Series(trials, analysis.SeriesOptions{Metric: *metric, Weak: *weak, Exclusive: *excl, Basis: b, Algebra: algebraOpt})
	if err != nil {
		return err
	}
	rows := res.Rows
	if *top > 0 {
		rows = res.Top(*top)
	}
	if *out != "" {
		if err := saveScalingPlot(*out, res, *xSpec, *top); err != nil {
			return err
		}
	}
	if *asCSV {
		return writeSeriesCSV(env.Stdout, res, rows)
	}
	return writeSeriesText(env.Stdout, res, rows)
}

func ratioName(res *analysis.SeriesResult) string {
	if res.Weak {
		return "ratio"
	}
	return "speedup"
}

func writeSeriesCSV(w io.Writer, res *analysis.SeriesResult, rows []analysis.SeriesRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"call_path", "run", "x", "value", "min", "mean", "max", ratioName(res), "efficiency"})
	num := func(v float64) string {
		if v != v { // NaN: not defined
			return ""
		}
		return numfmt.RoundTrip().Format(v, false)
	}
	for _, r := range rows {
		for t, tr := range res.Trials {
			cw.Write([]string{r.CallPath, tr.Name, numfmt.RoundTrip().Format(tr.X, false), num(r.Value[t]), num(r.Min[t]), num(r.Mean[t]), num(r.Max[t]), num(r.Ratio[t]), num(r.Efficiency[t])})
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeSeriesText(w io.Writer, res *analysis.SeriesResult, rows []analysis.SeriesRow) error {
	bw := bufio.NewWriter(w)
	kind := "strong scaling"
	if res.Weak {
		kind = "weak scaling"
	}
	basis := res.Basis.String() + " across locations"
	if res.Basis == analysis.BasisSum {
		basis = "value over all locations"
	}
	fmt.Fprintf(bw, "metric %s, %s; %s and efficiency compare the %s\n", res.Metric, kind, ratioName(res), basis)
	for i, t := range res.Trials {
		fmt.Fprintf(bw, "run %d: x = %s  %s\n", i+1, numfmt.RoundTrip().Format(t.X, false), t.Name)
	}
	for _, r := range rows {
		fmt.Fprintf(bw, "\n%s\n", r.CallPath)
		table := [][]string{{"run", "x", "value", "min", "mean", "max", ratioName(res), "efficiency"}}
		for t, tr := range res.Trials {
			table = append(table, []string{strconv.Itoa(t + 1), numfmt.RoundTrip().Format(tr.X, false), fmtG(r.Value[t]), fmtG(r.Min[t]), fmtG(r.Mean[t]), fmtG(r.Max[t]), fmtG(r.Ratio[t]), fmtG(r.Efficiency[t])})
		}
		writeTable(bw, table, 8)
	}
	return bw.Flush()
}

// saveScalingPlot draws the top call paths' speedup (or ratio) and
// efficiency.
func saveScalingPlot(path string, res *analysis.SeriesResult, xSpec string, top int) error {
	if top <= 0 {
		top = 5
	}
	xLabel := "processes"
	switch {
	case strings.Contains(xSpec, ","):
		xLabel = "x"
	case xSpec != "procs":
		xLabel = xSpec
	}
	title := res.Metric
	if m := res.Domain.MetricByName(res.Metric); m >= 0 {
		title = metricTitle(&res.Domain.Metrics[m])
	}
	s := chart.Scaling{Title: title, XLabel: xLabel, Weak: res.Weak}
	for _, t := range res.Trials {
		s.X = append(s.X, t.X)
	}
	for _, r := range res.Top(top) {
		s.Series = append(s.Series, chart.ScalingSeries{Name: r.CallPath, Speedup: r.Ratio, Efficiency: r.Efficiency})
	}
	c, err := chart.ScalingChart(s)
	if err != nil {
		return err
	}
	return c.Save(path, chart.DefaultWidth, chart.DefaultHeight)
}
