package mpip

import "cubeview/model"

// identities: mpiP times MPI calls by the wall clock, counts calls and
// sums sent bytes.
var identities = map[string]string{
	"time":       model.IdentityTime,
	"visits":     model.IdentityVisits,
	"bytes_sent": model.IdentityBytesSent,
}
