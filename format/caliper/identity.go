package caliper

import (
	"strings"

	"cubeview/model"
)

// identities returns the canonical identities of a Caliper profile's
// metrics (by unique name): a summed time.duration (also summed across
// processes, sum#sum#…, or in nanoseconds) is wall-clock time, a summed
// PAPI counter ("sum#papi.PAPI_TOT_CYC") its preset, and region.count
// counts region entries, visits. Caliper's count counts records
// (snapshots at region begin and end, or samples), not visits.
func identities(e *model.Experiment) map[string]string {
	ids := map[string]string{}
	for _, m := range e.Metrics {
		name := m.UniqName
		base := name
		for strings.HasPrefix(base, "sum#") {
			base = base[len("sum#"):]
		}
		switch {
		case (base == "time.duration" || base == "time.duration.ns" || base == "time") && m.Unit == "sec":
			ids[name] = model.IdentityTime
		case model.IsPAPIPreset(strings.TrimPrefix(base, "papi.")):
			ids[name] = strings.TrimPrefix(base, "papi.")
		case base == "region.count":
			ids[name] = model.IdentityVisits
		}
	}
	return ids
}
