package cube

import "cubeview/model"

// identities are the canonical identities of the metrics Score-P and
// Scalasca write (CUBE 3 files of Scalasca 1 call received bytes
// "bytes_rcvd"); PAPI presets are recognised by name.
var identities = map[string]string{
	"time":           model.IdentityTime,
	"visits":         model.IdentityVisits,
	"bytes_sent":     model.IdentityBytesSent,
	"bytes_received": model.IdentityBytesReceived,
	"bytes_rcvd":     model.IdentityBytesReceived,
}
