package model

import "strings"

// Canonical metric identities: what a metric measures, whatever the tool
// that recorded it calls it. Importers set Metric.Identity to one of
// these, or to a PAPI preset name such as "PAPI_TOT_CYC", so that the
// algebra matches "time" (Score-P), "TIME" (TAU), "sum#time.duration"
// (Caliper) and "REALTIME" (HPCToolkit).
const (
	// IdentityTime is wall-clock time in seconds.
	IdentityTime = "time"
	// IdentityCPUTime is CPU time in seconds, sampled or measured. It
	// differs in meaning from wall-clock time: the two match only when
	// the user maps one onto the other.
	IdentityCPUTime = "cputime"
	// IdentityVisits counts calls (entries into a call path).
	IdentityVisits = "visits"
	// IdentityBytesSent is the number of bytes sent in messages.
	IdentityBytesSent = "bytes_sent"
	// IdentityBytesReceived is the number of bytes received in messages.
	IdentityBytesReceived = "bytes_received"
)

// identityUnits gives, per canonical identity, the unit its values have
// after import; a PAPI preset counts events ("occ").
var identityUnits = map[string]string{
	IdentityTime:          "sec",
	IdentityCPUTime:       "sec",
	IdentityVisits:        "occ",
	IdentityBytesSent:     "bytes",
	IdentityBytesReceived: "bytes",
}

// identityMeanings says in words what each identity measures.
var identityMeanings = map[string]string{
	IdentityTime:          "wall clock",
	IdentityCPUTime:       "CPU time",
	IdentityVisits:        "calls",
	IdentityBytesSent:     "bytes sent",
	IdentityBytesReceived: "bytes received",
}

// IsPAPIPreset reports whether name is a PAPI preset counter name
// ("PAPI_TOT_CYC", "PAPI_L2_DCM"): "PAPI_" followed by upper-case letters,
// digits and underscores.
func IsPAPIPreset(name string) bool {
	rest, ok := strings.CutPrefix(name, "PAPI_")
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Identities lists the canonical identities other than PAPI presets, in
// the order help texts name them.
func Identities() []string {
	return []string{IdentityTime, IdentityCPUTime, IdentityVisits, IdentityBytesSent, IdentityBytesReceived}
}

// CanonicalIdentity returns the canonical identity that s names, ignoring
// case ("TIME" and "time" are IdentityTime, "papi_tot_cyc" is
// "PAPI_TOT_CYC"), or "" when s names none.
func CanonicalIdentity(s string) string {
	l := strings.ToLower(strings.TrimSpace(s))
	if _, ok := identityMeanings[l]; ok {
		return l
	}
	if u := strings.ToUpper(strings.TrimSpace(s)); IsPAPIPreset(u) {
		return u
	}
	return ""
}

// IdentityMeaning says in words what the canonical identity id measures
// ("wall clock", "CPU time", "PAPI preset counter"), or "" for an unknown
// identity.
func IdentityMeaning(id string) string {
	if m, ok := identityMeanings[id]; ok {
		return m
	}
	if IsPAPIPreset(id) {
		return "PAPI preset counter"
	}
	return ""
}

// IdentityUnit returns the unit the values of identity id have ("sec",
// "occ", "bytes"), or "" for an unknown identity.
func IdentityUnit(id string) string {
	if u, ok := identityUnits[id]; ok {
		return u
	}
	if IsPAPIPreset(id) {
		return "occ"
	}
	return ""
}

// unitSynonyms maps spellings of a unit to the one importers use.
var unitSynonyms = map[string]string{
	"s": "sec", "sec": "sec", "secs": "sec", "second": "sec", "seconds": "sec",
	"occ": "occ", "#": "occ", "count": "occ", "counts": "occ", "events": "occ", "": "occ",
	"bytes": "bytes", "byte": "bytes", "b": "bytes",
}

// SameUnit reports whether units a and b are the same unit, however the
// tools spell it ("occ", "#" and "counts" are one).
func SameUnit(a, b string) bool {
	na, oka := unitSynonyms[strings.ToLower(strings.TrimSpace(a))]
	nb, okb := unitSynonyms[strings.ToLower(strings.TrimSpace(b))]
	if oka && okb {
		return na == nb
	}
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// MetricNamed returns the metric name names in e: the metric of that
// unique name, else the one metric whose canonical identity name is
// (CanonicalIdentity, any case: "time" names TAU's TIME), else -1.
func (e *Experiment) MetricNamed(name string) int {
	if m := e.MetricByName(name); m >= 0 {
		return m
	}
	id := CanonicalIdentity(name)
	if id == "" {
		return -1
	}
	found := -1
	for m := range e.Metrics {
		if e.Metrics[m].Identity == id {
			if found >= 0 {
				return -1
			}
			found = m
		}
	}
	return found
}
