package tau

import (
	"strings"

	"cubeview/model"
)

// StatMetric and StatUniq find an atomic event's statistics for the
// package's external tests.
var StatMetric, StatUniq = statMetric, statUniq

// statMetric returns the metric of statistic stat ("count", "std", …) of
// atomic event name: the child of the event's metric (its mean) whose
// unique name ends in "."+stat; -1 when there is none.
func statMetric(e *model.Experiment, name, stat string) int {
	p := e.MetricByName(name)
	if p < 0 {
		return -1
	}
	for _, c := range e.Metrics[p].Children {
		if strings.HasSuffix(e.Metrics[c].UniqName, "."+stat) {
			return c
		}
	}
	return -1
}

// statUniq returns the unique name of statMetric(e, name, stat), or a
// name no metric has.
func statUniq(e *model.Experiment, name, stat string) string {
	if m := statMetric(e, name, stat); m >= 0 {
		return e.Metrics[m].UniqName
	}
	return name + " has no " + stat
}
