package gprof

import "cubeview/model"

// identities: gprof's seconds are CPU time sampled by the profiling
// timer, its call counts visits.
var identities = map[string]string{
	"time":   model.IdentityCPUTime,
	"visits": model.IdentityVisits,
}
