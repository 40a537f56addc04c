package analysisview

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"

	"cubeview/analysis"
	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
)

// XSource says where the x value of each trial of a scaling study comes
// from.
type XSource uint8

const (
	// XProcesses takes each experiment's process count.
	XProcesses XSource = iota
	// XAttribute reads a numeric experiment attribute (e.g. a problem size).
	XAttribute
	// XValues takes the values given, one per trial in the given order.
	XValues
	// XGiven takes each ScalingTrial's X (e.g. a repository attribute);
	// XText names it on the axis.
	XGiven
)

// ScalingSpec is what a user chooses for a scaling study.
type ScalingSpec struct {
	Metric string // uniq_name
	X      XSource
	// XText is the attribute name (XAttribute) or the comma-separated
	// values (XValues).
	XText     string
	Weak      bool
	Exclusive bool
	Basis     analysis.Basis
	// Plotted is the number of call paths drawn (the first ranked).
	Plotted int
	// PerVisit divides each call path's value by its own visits: the
	// cost of one call.
	PerVisit bool
	// Rank orders the table and chooses the call paths plotted: the
	// value in the first run, the growth to the last, or the model's
	// prediction at Predict.
	Rank analysis.RankBy
	// Predict, when > 0, is the x each call path's model is evaluated at
	// (a column of the table) and the plot draws the models up to.
	Predict float64
}

// ScalingTrial is one experiment of a scaling study with its name.
type ScalingTrial struct {
	Name string
	Exp  *model.Experiment
	X    float64 // the trial's x when the spec says XGiven
}

// ScalingReport is what a window shows of a scaling study: a table of
// every call path with a value, largest first, and a plot of the first
// ones.
type ScalingReport struct {
	Result  *analysis.SeriesResult
	Title   string
	XLabel  string
	Runs    string // which experiment is at which x
	Columns []string
	// Rows are the table's lines, one per call path (RowCnodes, in the
	// result's domain), cells as Columns say.
	Rows      [][]string
	RowCnodes []int
	nums      [][]float64 // per row, the numbers of the cells after the call path
	plot      chart.Scaling
}

// newScalingReport runs the series analysis of trials (at least two) as
// spec says and formats it. It may take long: call it off the UI
// goroutine.
func newScalingReport(trials []ScalingTrial, spec ScalingSpec, f numfmt.Format) (*ScalingReport, error) {
	if len(trials) < 2 {
		return nil, errors.New("scaling: choose at least two experiments")
	}
	if spec.Metric == "" {
		return nil, errors.New("scaling: choose a metric")
	}
	ts := make([]analysis.Trial, len(trials))
	var xs []float64
	if spec.X == XValues {
		var err error
		if xs, err = analysis.ParseXValues(spec.XText, len(trials)); err != nil {
			return nil, fmt.Errorf("scaling: %w", err)
		}
	}
	xLabel := "processes"
	for i, t := range trials {
		ts[i] = analysis.Trial{Name: t.Name, Exp: t.Exp}
		switch spec.X {
		case XProcesses:
			ts[i].X = float64(analysis.ProcessCount(t.Exp))
		case XAttribute:
			key := strings.TrimSpace(spec.XText)
			if key == "" {
				return nil, errors.New("scaling: name the attribute that gives x")
			}
			x, err := analysis.AttrNumber(t.Exp, key)
			if err != nil {
				return nil, fmt.Errorf("scaling: %s: %w", t.Name, err)
			}
			ts[i].X, xLabel = x, key
		case XValues:
			ts[i].X, xLabel = xs[i], "x"
		case XGiven:
			ts[i].X, xLabel = t.X, cmp.Or(strings.TrimSpace(spec.XText), "x")
		}
	}
	if spec.Rank == analysis.RankPredicted && !(spec.Predict > 0) {
		return nil, errors.New("scaling: ranking by the predicted value needs the x to predict at")
	}
	if spec.Predict > 0 && len(trials) < analysis.MinModelPoints {
		return nil, fmt.Errorf("scaling: a prediction needs models, which want at least %d runs, got %d", analysis.MinModelPoints, len(trials))
	}
	res, err := analysis.Series(ts, analysis.SeriesOptions{Metric: spec.Metric, Weak: spec.Weak, Exclusive: spec.Exclusive, Basis: spec.Basis, PerVisit: spec.PerVisit})
	if err != nil {
		return nil, err
	}
	rep := &ScalingReport{Result: res, XLabel: xLabel}
	m := &res.Trials[0].Exp.Metrics[res.Trials[0].Exp.MetricByName(spec.Metric)]
	kind := "strong scaling: speedup"
	ratio := "speedup"
	if spec.Weak {
		kind, ratio = "weak scaling: ratio to the first run", "ratio"
	}
	what := "inclusive"
	if spec.Exclusive {
		what = "exclusive"
	}
	basis := "the " + res.Basis.String() + " across locations"
	switch res.Basis {
	case analysis.BasisMax:
		basis = "the slowest location"
	case analysis.BasisSum:
		basis = "the sum over locations"
	}
	if spec.PerVisit {
		basis += ", per visit"
	}
	rep.Title = fmt.Sprintf("%s (%s), %s of %s, %s", metricName(m), what, kind, basis, xLabel)
	switch spec.Rank {
	case analysis.RankGrowth:
		rep.Title += "; largest growth first"
	case analysis.RankPredicted:
		rep.Title += "; largest at " + xLabel + " " + formatX(spec.Predict) + " first"
	}
	rep.Columns = []string{"Call path"}
	var runs []string
	for _, t := range res.Trials {
		at := fmt.Sprintf(" @ %s", formatX(t.X))
		rep.Columns = append(rep.Columns, "value"+at, ratio+at, "efficiency"+at)
		runs = append(runs, formatX(t.X)+": "+t.Name)
	}
	rep.Runs = xLabel + " " + strings.Join(runs, ", ")
	param := "x"
	if spec.X == XProcesses {
		param = "p"
	}
	models := len(res.Trials) >= analysis.MinModelPoints
	predict := models && spec.Predict > 0
	if models {
		rep.Columns = append(rep.Columns, "model", "adj. R²")
	}
	if predict {
		rep.Columns = append(rep.Columns, "predicted @ "+formatX(spec.Predict))
	}
	rows, _ := res.Rank(spec.Rank, 0, spec.Predict)
	integer := m.IsInteger()
	for _, r := range rows {
		b := r.Basis(res.Basis)
		if allZero(r.Value) && allZero(b) {
			continue
		}
		cells := []string{r.CallPath}
		var nums []float64
		for t := range res.Trials {
			cells = append(cells, f.Format(r.Value[t], integer), formatRatio(r.Ratio[t]), formatRatio(r.Efficiency[t]))
			nums = append(nums, r.Value[t], finite(r.Ratio[t]), finite(r.Efficiency[t]))
		}
		if models {
			text, r2 := "–", math.NaN()
			if r.Model != nil {
				text, r2 = r.Model.Format(param), r.Model.AdjR2
			}
			cells = append(cells, text, formatRatio(r2))
			nums = append(nums, math.NaN(), r2)
		}
		if predict {
			v := r.Predict(spec.Predict)
			text := "–"
			if !math.IsNaN(v) {
				text = f.Format(v, false)
			}
			cells = append(cells, text)
			nums = append(nums, v)
		}
		rep.Rows = append(rep.Rows, cells)
		rep.nums = append(rep.nums, nums)
		rep.RowCnodes = append(rep.RowCnodes, r.Cnode)
	}
	processX := spec.X == XProcesses || spec.X != XValues && analysis.IsProcessCount(xLabel)
	rep.plot = chart.Scaling{Title: metricName(m), XLabel: xLabel, Weak: spec.Weak, ProcessX: processX, PredictX: spec.Predict}
	for _, t := range res.Trials {
		rep.plot.X = append(rep.plot.X, t.X)
	}
	plotted := spec.Plotted
	if plotted <= 0 {
		plotted = 5
	}
	kept, folded := res.Distinct(rows, plotted)
	for i, r := range kept {
		ser := chart.ScalingSeries{Name: r.CallPath, Callers: len(folded[i]), Speedup: r.Ratio, Efficiency: r.Efficiency}
		if r.Model != nil {
			m := *r.Model
			ser.Values, ser.Model, ser.ModelText = r.Basis(res.Basis), m.Eval, m.Format(param)
		}
		rep.plot.Series = append(rep.plot.Series, ser)
	}
	return rep, nil
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

func formatX(x float64) string {
	return numfmt.Format{Notation: numfmt.Significant, Digits: 6}.Format(x, x == math.Trunc(x))
}

// formatRatio shows a speedup or efficiency with three significant
// digits, "–" where it is undefined.
func formatRatio(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return numfmt.Format{Notation: numfmt.Significant, Digits: 3}.Format(x, false)
}

// finite returns x, or NaN (sorted last, shown as "–") when it is infinite.
func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	return x
}

// SortKey returns what cell (r, c) of the table sorts by.
func (r *ScalingReport) SortKey(row, c int) SortKey {
	if c == 0 || r.Columns[c] == "model" {
		return TextKey(r.Rows[row][c])
	}
	return NumKey(r.nums[row][c-1])
}

// Numeric reports whether column c holds numbers.
func (r *ScalingReport) Numeric(c int) bool { return c > 0 && r.Columns[c] != "model" }

// chart returns the scaling plot: the largest call paths' speedup (or
// ratio) and efficiency against the ideal.
func (r *ScalingReport) chart() (*chart.Chart, error) {
	return chart.ScalingChart(r.plot)
}

// plottedCallPaths returns the call paths drawn in chart, largest first.
func (r *ScalingReport) plottedCallPaths() []string {
	var out []string
	for _, s := range r.plot.Series {
		out = append(out, s.Name)
	}
	return out
}

// XSourceNames are the choices of x in the Scaling dialog, in the order
// of XSource.
var XSourceNames = []string{"process count", "attribute", "values"}

// xSourceNamed returns the XSource a choice names; XProcesses for an
// unknown one.
func xSourceNamed(name string) XSource {
	for i, c := range XSourceNames {
		if name == c {
			return XSource(i)
		}
	}
	return XProcesses
}

// basisNames are the choices of the basis of a scaling study, in the
// order of analysis.Basis.
var basisNames = []string{"automatic: the slowest location for time, else the mean", "mean across locations", "maximum across locations (the slowest)", "sum over locations"}

// scalingXPreview says where x comes from for the trials checked in the
// Scaling dialog; text is the attribute name or the values typed.
func scalingXPreview(x XSource, text string, trials []ScalingTrial) string {
	switch x {
	case XProcesses:
		var parts []string
		for _, t := range trials {
			parts = append(parts, fmt.Sprintf("%s: %d", t.Name, analysis.ProcessCount(t.Exp)))
		}
		return "x = processes — " + strings.Join(parts, ", ")
	case XAttribute:
		return "x = the attribute " + strings.TrimSpace(text) + " of each experiment"
	}
	return fmt.Sprintf("x = the values given, one for each of the %d checked experiments in list order", len(trials))
}

// Cell returns the text of the table's row r, column c; "" outside it.
func (s *ScalingReport) Cell(r, c int) string {
	if r < 0 || r >= len(s.Rows) || c < 0 || c >= len(s.Columns) {
		return ""
	}
	return s.Rows[r][c]
}

// trialOrder returns, for each trial of the result (ordered by x), the
// index of its experiment in exps; -1 where exps does not have it.
func (s *ScalingReport) trialOrder(exps []*model.Experiment) []int {
	order := make([]int, len(s.Result.Trials))
	for i, t := range s.Result.Trials {
		order[i] = -1
		for j, e := range exps {
			if e == t.Exp {
				order[i] = j
				break
			}
		}
	}
	return order
}
