package hpctoolkit

import "cubeview/model"

// identities are the canonical identities of HPCToolkit's sample sources:
// CPUTIME (and the older WALLCLOCK, an interval timer of CPU time) is
// sampled CPU time, REALTIME wall-clock time; PAPI presets are recognised
// by name.
var identities = map[string]string{
	"CPUTIME":   model.IdentityCPUTime,
	"WALLCLOCK": model.IdentityCPUTime,
	"REALTIME":  model.IdentityTime,
}
