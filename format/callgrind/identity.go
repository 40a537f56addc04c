package callgrind

import "cubeview/model"

// identities: the calls= lines give visits; the simulated events (Ir,
// Dr, …) mean nothing another tool measures in the same way.
var identities = map[string]string{
	"visits": model.IdentityVisits,
}
