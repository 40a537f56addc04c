package papi

import "cubeview/model"

// identities: PAPI's real time is wall-clock time, perf's task clock CPU
// time, region instances are visits; the counters are PAPI presets by
// name. PAPI's "cycles" (its real cycle counter) is no preset.
var identities = map[string]string{
	"real_time":        model.IdentityTime,
	"perf::TASK-CLOCK": model.IdentityCPUTime,
	"visits":           model.IdentityVisits,
}
