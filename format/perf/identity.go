package perf

import (
	"strings"

	"cubeview/model"
)

// identities: the periods of perf's software clocks cpu-clock and
// task-clock ("cpu-clock:ppp") are CPU time; hardware events (cycles,
// instructions) are not counted as PAPI counts them, and samples are no
// visits.
func identities(e *model.Experiment) map[string]string {
	ids := map[string]string{}
	for _, m := range e.Metrics {
		base, _, _ := strings.Cut(m.UniqName, ":")
		if (base == "cpu-clock" || base == "task-clock") && m.Unit == "sec" {
			ids[m.UniqName] = model.IdentityCPUTime
		}
	}
	return ids
}
