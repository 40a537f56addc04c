package view

import (
	"errors"
	"fmt"
	"strings"

	"cubeview/analysis"
	"cubeview/model"
)

// Dialog contents that do not depend on widgets: the choices offered and
// the checks of what the user typed.

// MetricChoices returns the metrics with values of each experiment in
// turn (nil ones are skipped), each unique name once: the unique names and
// the labels a choice shows ("Time (time)").
func MetricChoices(exps ...*model.Experiment) (uniq, labels []string) {
	seen := map[string]bool{}
	for _, e := range exps {
		if e == nil {
			continue
		}
		for _, m := range e.MetricOrder() {
			met := &e.Metrics[m]
			if seen[met.UniqName] || met.Unavailable != "" || met.Hidden() {
				continue
			}
			seen[met.UniqName] = true
			uniq = append(uniq, met.UniqName)
			labels = append(labels, MetricLabel(met))
		}
	}
	return uniq, labels
}

// MetricLabel names a metric in a choice: its display name with the
// unique name in parentheses when they differ.
func MetricLabel(m *model.Metric) string {
	if m.DispName != "" && m.DispName != m.UniqName {
		return m.DispName + " (" + m.UniqName + ")"
	}
	return m.UniqName
}

// CheckMetricName reports why name cannot name a new metric of e.
func CheckMetricName(e *model.Experiment, name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("give the metric a name")
	}
	if e.MetricByName(strings.TrimSpace(name)) >= 0 {
		return errors.New("a metric of that name exists")
	}
	return nil
}

// CheckThresholds reports why spec is not a thresholds specification;
// an empty one (none) is fine.
func CheckThresholds(spec string) error {
	if strings.TrimSpace(spec) == "" {
		return nil
	}
	_, err := model.ParseThresholds(spec)
	return err
}

// UsesMode reports whether any pane of v shows values in mode m.
func UsesMode(v *View, m Mode) bool {
	for d := MetricPane; d <= SystemPane; d++ {
		if v.Mode(d) == m {
			return true
		}
	}
	return false
}

// XSourceNames are the choices of x in the Scaling dialog, in the order
// of XSource.
var XSourceNames = []string{"process count", "attribute", "values"}

// XSourceNamed returns the XSource a choice names; XProcesses for an
// unknown one.
func XSourceNamed(name string) XSource {
	for i, c := range XSourceNames {
		if name == c {
			return XSource(i)
		}
	}
	return XProcesses
}

// BasisNames are the choices of the basis of a scaling study, in the
// order of analysis.Basis.
var BasisNames = []string{"mean across locations", "maximum across locations", "sum over locations"}

// ScalingXPreview says where x comes from for the trials checked in the
// Scaling dialog; text is the attribute name or the values typed.
func ScalingXPreview(x XSource, text string, trials []ScalingTrial) string {
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

// TrialOrder returns, for each trial of the result (ordered by x), the
// index of its experiment in exps; -1 where exps does not have it.
func (s *ScalingReport) TrialOrder(exps []*model.Experiment) []int {
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

// Header names column c of the performance difference's table; the
// value columns by the experiments' names.
func (p *PerfDiffReport) Header(c int) string {
	switch c {
	case PerfDiffA:
		return p.NameA
	case PerfDiffB:
		return p.NameB
	case PerfDiffDelta:
		return p.NameA + " − " + p.NameB
	case PerfDiffCallPath:
		return "Call path"
	case PerfDiffSystem:
		return "System"
	}
	return ""
}

// PerfDiffMetric returns the metric uniq of a, or of b when a does not
// have it; nil when neither has.
func PerfDiffMetric(a, b *model.Experiment, uniq string) *model.Metric {
	if m := a.MetricByName(uniq); m >= 0 {
		return &a.Metrics[m]
	}
	if m := b.MetricByName(uniq); m >= 0 {
		return &b.Metrics[m]
	}
	return nil
}
