package cli

import (
	"bufio"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
)

func init() {
	register(&Command{
		Name:    "series",
		Summary: "scaling of each call path over several runs: speedup, efficiency, models, plot",
		Usage: `usage: cubeview series FILE… --metric UNIQ [--x procs|ATTR|v1,v2,…]
       [--x-from-name REGEXP] [--weak|--strong] [--basis auto|mean|max|sum]
       [--excl] [--per-visit] [--top N] [--rank value|growth|predicted]
       [--predict X] [--csv] [-o plot.png|plot.svg] [matching options]

Orders the runs by x and compares each call path (matched across the runs as
"cubeview diff" matches them) with the first run: per run its value (as
"cubeview tree" shows it), its minimum, mean and maximum across locations,
the speedup b₀/bᵢ and the parallel efficiency speedup·x₀/xᵢ of the basis
value b (strong scaling), or for weak scaling the ratio bᵢ/b₀ and
efficiency b₀/bᵢ. For time the basis is by default the slowest location
(the critical path: a section only one rank runs does not scale, however
many wait); for other metrics the mean across locations.

With 4 runs or more each call path gets a performance model as Extra-P
fits it: the normal form c₀ + c₁·x^i·log₂(x)^j with Extra-P's exponents,
chosen by leave-one-out cross-validation (SMAPE), printed with its
adjusted R² and SMAPE; strong scaling adds negative exponents.

  --metric UNIQ   the metric (stored or derived)
  --x procs       x is each run's process count (default)
  --x ATTR        x is the numeric attribute ATTR of each run: of the
                  experiment, or for repo:… operands of the repository
  --x v1,v2,…     x values for the FILEs in the order given
  --x-from-name RE  x is the number RE's first group captures in the
                  file's name or the nearest directory's ('x(\d+)' reads 25
                  from mm.x25y1z1.r1)
  --weak, --strong  weak scaling (the work grows with x: ratio to the first
                  run) or strong scaling; by default the runs' attribute
                  "scaling" (weak or strong) says, else strong
  --basis B       what speedup and models compare: auto (default), mean,
                  max (the slowest location) or sum (over all locations)
  --excl          each call path's own values instead of inclusive ones
  --per-visit     divide by the call path's own visits: the cost of one
                  visit, to tell more iterations from costlier ones
  --top N         print only N call paths; the plot shows the top N
                  (default 5), a chain of call paths with equal values once
  --rank R        order of --top: value (the basis value in the first run,
                  default), growth (last run's over the first's; paths
                  below 1 % of the largest last value after the others) or
                  predicted (the model's value at --predict)
  --predict X     print each model's value at x = X, rank by it (unless
                  --rank says otherwise) and draw the models up to X
  --csv           print CSV, one row per call path and run:
                  call_path,run,x,value,min,mean,max,speedup,efficiency,
                  model,adj_r2,smape[,predicted]
                  (ratio instead of speedup for weak scaling)
  -o FILE         also draw the top call paths' speedup (or ratio) against
                  the ideal line, their parallel efficiency when x is a
                  process count, and with models their values and model
                  curves (.png or .svg, 1200 × 800 pixels)
  matching: --rename OLD=NEW, --strict-roots, --strict-lines,
                  --map-metric FROM=TO, --copy-system, --collapse-system
                  as for "cubeview diff"`,
		Run: runSeries,
	})
}

func runSeries(env Env, args []string) error {
	fs := newFlagSet("series")
	metric := fs.String("metric", "", "")
	xSpec := fs.String("x", "procs", "")
	xName := fs.String("x-from-name", "", "")
	weak := fs.Bool("weak", false, "")
	strong := fs.Bool("strong", false, "")
	basis := fs.String("basis", "auto", "")
	excl := fs.Bool("excl", false, "")
	perVisit := fs.Bool("per-visit", false, "")
	top := fs.Int("top", 0, "")
	rankSpec := fs.String("rank", "", "")
	predictSpec := fs.String("predict", "", "")
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
	if *weak && *strong {
		return usagef("--weak and --strong exclude each other")
	}
	b, err := analysis.ParseBasis(*basis)
	if err != nil {
		return usagef("--basis: %v", err)
	}
	predict := 0.0
	if *predictSpec != "" {
		if predict, err = strconv.ParseFloat(*predictSpec, 64); err != nil || !(predict > 0) || math.IsInf(predict, 0) {
			return usagef("--predict %q: want a positive number", *predictSpec)
		}
	}
	rank := analysis.RankValue
	switch {
	case *rankSpec != "":
		if rank, err = analysis.ParseRankBy(*rankSpec); err != nil {
			return usagef("--rank: %v", err)
		}
		if rank == analysis.RankPredicted && predict == 0 {
			return usagef("--rank predicted needs --predict X")
		}
	case predict > 0:
		rank = analysis.RankPredicted
	}
	var nameRE *regexp.Regexp
	if *xName != "" {
		if nameRE, err = regexp.Compile(*xName); err != nil {
			return usagef("--x-from-name: %v", err)
		}
		if setFlag(fs, "x") {
			return usagef("--x and --x-from-name exclude each other")
		}
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
	if nameRE == nil && strings.Contains(*xSpec, ",") {
		if xs, err = analysis.ParseXValues(*xSpec, len(pos)); err != nil {
			return usagef("--x: %v", err)
		}
	}
	trials := make([]analysis.Trial, len(pos))
	scaling := make([]string, len(pos))
	for i, path := range pos {
		e, err := openExperiment(path)
		if err != nil {
			return err
		}
		t := analysis.Trial{Name: path, Exp: e}
		switch {
		case nameRE != nil:
			if t.X, err = analysis.XFromName(nameRE, path); err != nil {
				return fmt.Errorf("--x-from-name %s: %w", nameRE, err)
			}
		case xs != nil:
			t.X = xs[i]
		case *xSpec == "procs":
			t.X = float64(analysis.ProcessCount(e))
		default:
			if t.X, err = runAttrNumber(path, e, *xSpec); err != nil {
				return err
			}
		}
		if scaling[i], err = runAttr(path, e, analysis.ScalingAttr); err != nil {
			return err
		}
		trials[i] = t
	}
	if nameRE == nil && xs == nil && *xSpec == "procs" {
		same := true
		for _, t := range trials[1:] {
			same = same && t.X == trials[0].X
		}
		if same {
			return fmt.Errorf("every run has %v processes: give x values with --x v1,v2,…, --x ATTR or --x-from-name", trials[0].X)
		}
	}
	isWeak := *weak
	if !*weak && !*strong {
		if isWeak, _, err = analysis.WeakFromAttrs(pos, scaling); err != nil {
			return err
		}
	}
	exps := make([]*model.Experiment, len(trials))
	for i, t := range trials {
		exps[i] = t.Exp
	}
	if *metric, err = metricUniqName(*metric, pos, exps); err != nil {
		return err
	}
	res, err := analysis.Series(trials, analysis.SeriesOptions{Metric: *metric, Weak: isWeak, Exclusive: *excl, Basis: b, PerVisit: *perVisit, Algebra: algebraOpt})
	if err != nil {
		return err
	}
	if predict > 0 && len(res.Trials) < analysis.MinModelPoints {
		return fmt.Errorf("--predict: models want at least %d runs, got %d", analysis.MinModelPoints, len(res.Trials))
	}
	sv := seriesView{res: res, xSpec: *xSpec, xName: nameRE != nil, predict: predict}
	rows, _ := res.Rank(rank, *top, predict)
	if *out != "" {
		plotted := *top
		if plotted <= 0 {
			plotted = 5
		}
		all, _ := res.Rank(rank, 0, predict)
		if err := saveScalingPlot(*out, sv, all, plotted); err != nil {
			return err
		}
	}
	if *asCSV {
		return writeSeriesCSV(env.Stdout, sv, rows)
	}
	return writeSeriesText(env.Stdout, sv, rows)
}

// seriesView is a series result with what the command line says of its x.
type seriesView struct {
	res     *analysis.SeriesResult
	xSpec   string
	xName   bool    // x from the names
	predict float64 // 0: none
}

// xLabel names x on an axis; param names it in a model.
func (v seriesView) xLabel() (label, param string) {
	switch {
	case v.xName:
		return "x", "x"
	case strings.Contains(v.xSpec, ","):
		return "x", "x"
	case v.xSpec != "procs":
		return v.xSpec, v.xSpec
	}
	return "processes", "p"
}

// processX reports whether x counts processes.
func (v seriesView) processX() bool {
	return !v.xName && (v.xSpec == "procs" || analysis.IsProcessCount(v.xSpec))
}

// runAttr returns attribute key of a run: for a repository reference its
// repository attribute, else (or when it has none) the experiment's; ""
// when neither has it.
func runAttr(path string, e *model.Experiment, key string) (string, error) {
	if strings.HasPrefix(path, repo.RefPrefix) {
		a, ok, err := referenceAttr(path, key)
		if err != nil {
			return "", err
		}
		if ok {
			return a.Value, nil
		}
	}
	v, _ := e.Attr(key)
	return v, nil
}

// runAttrNumber returns attribute key of a run as a positive number.
func runAttrNumber(path string, e *model.Experiment, key string) (float64, error) {
	if strings.HasPrefix(path, repo.RefPrefix) {
		a, ok, err := referenceAttr(path, key)
		if err != nil {
			return 0, err
		}
		if ok {
			if !a.IsNumber || !(a.Number > 0) {
				return 0, fmt.Errorf("%s: attribute %s = %q is not a positive number", path, key, a.Value)
			}
			return a.Number, nil
		}
	}
	x, err := analysis.AttrNumber(e, key)
	if err != nil {
		if strings.HasPrefix(path, repo.RefPrefix) {
			return 0, fmt.Errorf("%s has no attribute %q in the repository or the experiment", path, key)
		}
		return 0, err
	}
	if !(x > 0) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s: attribute %s = %v is not a positive number", path, key, x)
	}
	return x, nil
}

// setFlag reports whether flag name was given.
func setFlag(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func ratioName(res *analysis.SeriesResult) string {
	if res.Weak {
		return "ratio"
	}
	return "speedup"
}

func writeSeriesCSV(w io.Writer, v seriesView, rows []analysis.SeriesRow) error {
	res := v.res
	_, param := v.xLabel()
	cw := csv.NewWriter(w)
	header := []string{"call_path", "run", "x", "value", "min", "mean", "max", ratioName(res), "efficiency", "model", "adj_r2", "smape"}
	if v.predict > 0 {
		header = append(header, "predicted")
	}
	cw.Write(header)
	num := func(v float64) string {
		if v != v { // NaN: not defined
			return ""
		}
		return numfmt.RoundTrip().Format(v, false)
	}
	for _, r := range rows {
		model, r2, sm := "", "", ""
		if r.Model != nil {
			model, r2, sm = r.Model.Format(param), num(r.Model.AdjR2), num(r.Model.SMAPE)
		}
		for t, tr := range res.Trials {
			rec := []string{r.CallPath, tr.Name, numfmt.RoundTrip().Format(tr.X, false), num(r.Value[t]), num(r.Min[t]), num(r.Mean[t]), num(r.Max[t]), num(r.Ratio[t]), num(r.Efficiency[t]), model, r2, sm}
			if v.predict > 0 {
				rec = append(rec, num(r.Predict(v.predict)))
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	return cw.Error()
}

// basisText says what the series compares.
func basisText(res *analysis.SeriesResult) string {
	basis := "the " + res.Basis.String() + " across locations"
	switch res.Basis {
	case analysis.BasisSum:
		basis = "the value over all locations"
	case analysis.BasisMax:
		basis = "the slowest location (max)"
	}
	if res.PerVisit {
		basis += ", per visit"
	}
	return basis
}

func writeSeriesText(w io.Writer, v seriesView, rows []analysis.SeriesRow) error {
	res := v.res
	bw := bufio.NewWriter(w)
	kind := "strong scaling"
	if res.Weak {
		kind = "weak scaling"
	}
	label, param := v.xLabel()
	fmt.Fprintf(bw, "metric %s, %s; %s, efficiency and models compare %s\n", res.Metric, kind, ratioName(res), basisText(res))
	for i, t := range res.Trials {
		fmt.Fprintf(bw, "run %d: %s = %s  %s\n", i+1, param, numfmt.RoundTrip().Format(t.X, false), t.Name)
	}
	if len(res.Trials) >= analysis.MinModelPoints {
		fmt.Fprintf(bw, "models over %s: Extra-P's c0 + c1·%s^i·log2(%s)^j, chosen by leave-one-out cross-validation\n", label, param, param)
	}
	for _, r := range rows {
		fmt.Fprintf(bw, "\n%s\n", r.CallPath)
		table := [][]string{{"run", param, "value", "min", "mean", "max", ratioName(res), "efficiency"}}
		for t, tr := range res.Trials {
			table = append(table, []string{strconv.Itoa(t + 1), numfmt.RoundTrip().Format(tr.X, false), fmtG(r.Value[t]), fmtG(r.Min[t]), fmtG(r.Mean[t]), fmtG(r.Max[t]), fmtG(r.Ratio[t]), fmtG(r.Efficiency[t])})
		}
		writeTable(bw, table, 8)
		if m := r.Model; m != nil {
			fmt.Fprintf(bw, "model: %s  (adjusted R² %.4f, SMAPE %.2f %%)", m.Format(param), m.AdjR2, m.SMAPE)
			if v.predict > 0 {
				fmt.Fprintf(bw, "; at %s = %s: %s", param, numfmt.RoundTrip().Format(v.predict, false), fmtG(r.Predict(v.predict)))
			}
			fmt.Fprintln(bw)
		}
	}
	return bw.Flush()
}

// saveScalingPlot draws the first top distinct call paths of rows.
func saveScalingPlot(path string, v seriesView, rows []analysis.SeriesRow, top int) error {
	res := v.res
	label, param := v.xLabel()
	title := res.Metric
	var unit string
	if m := res.Domain.MetricByName(res.Metric); m >= 0 {
		title = metricTitle(&res.Domain.Metrics[m])
		unit = res.Domain.Metrics[m].Unit
	}
	valueLabel := res.Metric
	if unit != "" {
		valueLabel += " (" + unit + ")"
	}
	valueLabel += ", " + strings.TrimPrefix(basisText(res), "the ")
	s := chart.Scaling{Title: title, XLabel: label, Weak: res.Weak, ProcessX: v.processX(), ValueLabel: valueLabel, PredictX: v.predict}
	for _, t := range res.Trials {
		s.X = append(s.X, t.X)
	}
	kept, folded := res.Distinct(rows, top)
	for i, r := range kept {
		ser := chart.ScalingSeries{Name: r.CallPath, Callers: len(folded[i]), Speedup: r.Ratio, Efficiency: r.Efficiency}
		if r.Model != nil {
			m := *r.Model
			ser.Values, ser.Model, ser.ModelText = r.Basis(res.Basis), m.Eval, m.Format(param)
		}
		s.Series = append(s.Series, ser)
	}
	c, err := chart.ScalingChart(s)
	if err != nil {
		return err
	}
	return c.Save(path, chart.DefaultWidth, chart.DefaultHeight)
}
