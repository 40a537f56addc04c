package view

import (
	"errors"
	"fmt"
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
