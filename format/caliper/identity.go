package caliper

import (
	"strings"

	"cubeview/model"
)

// identities returns the canonical identities of a Caliper experiment's
// metrics, by unique name: a summed time.duration (time.duration.ns, or
// Caliper's alias "time") is wall-clock time, a summed PAPI counter
// ("sum#papi.PAPI_TOT_CYC") its preset, and counted region visits
// (region.count, rc.count) are visits — or, in a profile of annotated regions
// without them, the record count; in a sampling profile (sampled) the
// count counts samples and means no visits. Only sums are tagged: a
// minimum, maximum or a mean's parts are not the metric itself.
func identities(names []string, sampled bool) map[string]string {
	sums := func(name string) (string, bool) {
		ops, base := splitOps(name)
		for _, op := range ops {
			if op != "sum" && op != "inclusive" {
				return base, false
			}
		}
		return base, true
	}
	regionCount := false
	for _, n := range names {
		if base, ok := sums(n); ok && (base == "region.count" || base == "rc.count") {
			regionCount = true
		}
	}
	ids := map[string]string{}
	for _, n := range names {
		base, ok := sums(n)
		if !ok {
			continue
		}
		switch {
		case base == "time.duration" || base == "time.duration.ns" || base == "time":
			ids[n] = model.IdentityTime
		case model.IsPAPIPreset(strings.TrimPrefix(base, "papi.")):
			ids[n] = strings.TrimPrefix(base, "papi.")
		case base == "region.count" || base == "rc.count":
			ids[n] = model.IdentityVisits
		case base == "count" && !sampled && !regionCount:
			ids[n] = model.IdentityVisits
		}
	}
	return ids
}

// metricNamesOf returns the unique names of e's metrics.
func metricNamesOf(e *model.Experiment) []string {
	out := make([]string, len(e.Metrics))
	for i := range e.Metrics {
		out[i] = e.Metrics[i].UniqName
	}
	return out
}
