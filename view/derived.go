package view

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"cubeview/model"
)

// storedOperands returns the metrics with stored data that metric m's
// values come from: m itself, or for a derived metric the stored metrics
// its formula names, directly or through other derived metrics. Metrics
// without values and unknown indices yield nothing.
func storedOperands(x *model.Experiment, m int) []int {
	var out []int
	seen := map[int]bool{}
	var walk func(m, depth int)
	walk = func(m, depth int) {
		if m < 0 || m >= len(x.Metrics) || seen[m] || depth > len(x.Metrics) {
			return
		}
		seen[m] = true
		met := &x.Metrics[m]
		switch {
		case met.Unavailable != "":
		case met.IsDerived():
			for _, name := range met.Formula.Metrics() {
				walk(x.MetricByName(name), depth+1)
			}
		default:
			out = append(out, m)
		}
	}
	walk(m, 0)
	return out
}

// callCnodes returns the call paths a call-pane selection stands for: a
// collapsed call path with its subtree, an expanded one alone, a region
// of the flat profile as regionSelection says, and every call path when
// nothing is selected.
func (v *View) callCnodes(n Node) []int { return kindOf(n).cnodes(v, n.Index) }

// ThresholdLabel returns the name of the range row n's absolute value
// falls in, whatever the value mode, when the metric of the row's values
// has thresholds (model.Metric.Thresholds); "" otherwise or when the row
// shows no value.
func (v *View) ThresholdLabel(d Dim, n Node) string {
	m := v.unitMetric(d, n)
	if m < 0 {
		return ""
	}
	t, err := v.exp.Metrics[m].Thresholds()
	if err != nil || t == nil {
		return "" // Validate reports a malformed attribute
	}
	x := v.absolute(d, n)
	if math.IsNaN(x) {
		return ""
	}
	return t.Label(x)
}

// thresholdSuffix is ThresholdLabel as the row label's suffix, " [good]".
func (v *View) thresholdSuffix(d Dim, n Node) string {
	if l := v.ThresholdLabel(d, n); l != "" {
		return " [" + l + "]"
	}
	return ""
}

// DerivedSpec is what a user gives for a new derived metric.
type DerivedSpec struct {
	Name       string // the new metric's unique name
	Expression string // e.g. "PAPI_L2_DCM / PAPI_L1_DCM"
	Unit       string // empty: inferred from the operands
	Thresholds string // optional, e.g. "poor < 0.5 < average < 1 < good"
}

// CheckExpression parses a derived-metric expression and checks that
// every metric it names is in e with values. A syntax error is a
// *model.FormulaError, which names the column.
func CheckExpression(e *model.Experiment, expr string) (*model.Formula, error) {
	if strings.TrimSpace(expr) == "" {
		return nil, errors.New("expression: empty; write e.g. PAPI_TOT_INS / PAPI_TOT_CYC")
	}
	f, err := model.ParseFormula(expr)
	if err != nil {
		return nil, err
	}
	for _, name := range f.Metrics() {
		m := e.MetricByName(name)
		if m < 0 {
			return nil, fmt.Errorf("expression: no metric %q here (metric names are unique names such as %s)", name, exampleMetric(e))
		}
		if r := e.Metrics[m].Unavailable; r != "" {
			return nil, fmt.Errorf("expression: metric %q has no values: %s", name, r)
		}
	}
	return f, nil
}

func exampleMetric(e *model.Experiment) string {
	for _, m := range e.MetricOrder() {
		if e.Metrics[m].Unavailable == "" {
			return e.Metrics[m].UniqName
		}
	}
	return "time"
}

// WithDerived returns e with the metric s describes added as a new root
// of the metric tree (see model.Experiment.WithDerived).
func WithDerived(e *model.Experiment, s DerivedSpec) (*model.Experiment, error) {
	name := strings.TrimSpace(s.Name)
	if name == "" {
		return nil, errors.New("name: empty; give the new metric a name such as ipc")
	}
	f, err := CheckExpression(e, s.Expression)
	if err != nil {
		return nil, err
	}
	return e.WithDerived(model.DerivedMetric{
		UniqName:   name,
		Unit:       strings.TrimSpace(s.Unit),
		Formula:    f,
		Thresholds: strings.TrimSpace(s.Thresholds),
	})
}

// SetExperiment shows e instead of the current experiment; e must be the
// current one with metrics added at the end or metric attributes changed
// (model.Experiment.WithDerived, WithThresholds): the same call tree,
// regions and system tree, so that every node keeps its index. Selections,
// expansions, modes and options stay; the search is cleared.
func (v *View) SetExperiment(e *model.Experiment) error {
	old := v.exp
	if len(e.Cnodes) != len(old.Cnodes) || len(e.Regions) != len(old.Regions) ||
		len(e.System) != len(old.System) || len(e.Metrics) < len(old.Metrics) {
		return errors.New("view: the new experiment does not extend the one shown")
	}
	for i := range old.Metrics {
		if e.Metrics[i].UniqName != old.Metrics[i].UniqName {
			return fmt.Errorf("view: metric %d is %q, was %q", i, e.Metrics[i].UniqName, old.Metrics[i].UniqName)
		}
	}
	v.exp = e
	v.metricRoots, v.flatRegions = nil, nil
	v.derive()
	v.callValid, v.sysValid = false, false
	v.ClearFind()
	return nil
}
