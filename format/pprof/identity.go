package pprof

import "cubeview/model"

// identities: a "cpu" sample type is sampled CPU time, "wall" (fgprof)
// wall-clock time.
var identities = map[string]string{
	"cpu":  model.IdentityCPUTime,
	"wall": model.IdentityTime,
}
