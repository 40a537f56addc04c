package caliper

import (
	"slices"
	"strings"

	"cubeview/model"
)

// identities returns the canonical identities of a Caliper file's metric
// columns (their unique names): a summed time.duration (or
// time.duration.ns) is wall-clock time, a summed PAPI counter
// ("sum#papi.PAPI_TOT_CYC") its preset, and the record count of a profile
// of annotated regions counts visits; in a sampling profile (columns of
// cali.sampler) the count counts samples and means no visits.
func identities(columns []string) map[string]string {
	sampled := slices.ContainsFunc(columns, func(c string) bool { return strings.Contains(c, "cali.sampler") })
	ids := map[string]string{}
	for _, c := range columns {
		base, _ := strings.CutPrefix(c, "sum#")
		switch {
		case base == "time.duration" || base == "time.duration.ns":
			ids[c] = model.IdentityTime
		case model.IsPAPIPreset(strings.TrimPrefix(base, "papi.")):
			ids[c] = strings.TrimPrefix(base, "papi.")
		case (c == "count" || c == "sum#count") && !sampled:
			ids[c] = model.IdentityVisits
		}
	}
	return ids
}
