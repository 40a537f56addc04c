package tau

import "cubeview/model"

// identities are the canonical identities of TAU's metrics: its timers'
// names for wall-clock and CPU time, and the visits made of its Calls
// column; PAPI presets are recognised by name. A "(sampled)" estimate
// has none.
var identities = map[string]string{
	"TIME":              model.IdentityTime,
	"Time":              model.IdentityTime, // ParaProf's name of a profile directory's one metric
	"P_WALL_CLOCK_TIME": model.IdentityTime,
	"LINUX_TIMERS":      model.IdentityTime,
	"GET_TIME_OF_DAY":   model.IdentityTime,
	"CPU_TIME":          model.IdentityCPUTime,
	"P_VIRTUAL_TIME":    model.IdentityCPUTime,
	"TAU_CPU_TIME":      model.IdentityCPUTime,
	"visits":            model.IdentityVisits,
}
