package dialogform

import (
	"errors"
	"strings"

	"cubeview/model"
)

// Dialog contents that do not depend on widgets: the choices offered and
// the checks of what the user typed.

// metricChoices returns the metrics with values of each experiment in
// turn (nil ones are skipped), each unique name once: the unique names and
// the labels a choice shows ("Time (time)").
func metricChoices(exps ...*model.Experiment) (uniq, labels []string) {
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
			labels = append(labels, metricLabel(met))
		}
	}
	return uniq, labels
}

// metricLabel names a metric in a choice: its display name with the
// unique name in parentheses when they differ.
func metricLabel(m *model.Metric) string {
	if m.DispName != "" && m.DispName != m.UniqName {
		return m.DispName + " (" + m.UniqName + ")"
	}
	return m.UniqName
}

// checkMetricName reports why name cannot name a new metric of e.
func checkMetricName(e *model.Experiment, name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("give the metric a name")
	}
	if e.MetricByName(strings.TrimSpace(name)) >= 0 {
		return errors.New("a metric of that name exists")
	}
	return nil
}

// checkThresholds reports why spec is not a thresholds specification;
// an empty one (none) is fine.
func checkThresholds(spec string) error {
	if strings.TrimSpace(spec) == "" {
		return nil
	}
	_, err := model.ParseThresholds(spec)
	return err
}
