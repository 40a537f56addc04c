package build

import (
	"slices"
	"strings"

	"cubeview/model"
)

// IdentityAttr is the metric attribute under which a written experiment
// keeps a metric's canonical identity (model.Metric.Identity), so that a
// derived experiment read back still matches other tools' metrics.
const IdentityAttr = "cubeview::identity"

// Identify tags the metrics of e with their canonical identity
// (model.Metric.Identity): from the IdentityAttr attribute a written
// experiment carries (which it removes), else from names, the tool's
// table of metric unique names → identity, else a PAPI preset name
// ("PAPI_TOT_CYC") is its own identity. The description of a tagged
// metric starts with the tool, its name and the meaning, e.g. "TAU TIME
// (wall clock)", so the original name stays visible after a match; with
// tool "" (files that carry their own descriptions) it is left alone. Identify is the one place importers tag metrics; each importer
// calls it once with its own table.
func Identify(e *model.Experiment, tool string, names map[string]string) {
	for i := range e.Metrics {
		m := &e.Metrics[i]
		if k := slices.IndexFunc(m.Attrs, func(a model.Attr) bool { return a.Key == IdentityAttr }); k >= 0 {
			m.Identity = model.CanonicalIdentity(m.Attrs[k].Value)
			m.Attrs = slices.Delete(slices.Clone(m.Attrs), k, k+1)
			if len(m.Attrs) == 0 {
				m.Attrs = nil
			}
			continue
		}
		if m.Identity != "" {
			continue
		}
		if id, ok := names[m.UniqName]; ok {
			m.Identity = id
		} else if model.IsPAPIPreset(m.UniqName) {
			m.Identity = m.UniqName
		}
		if m.Identity == "" || tool == "" {
			continue
		}
		origin := tool + " " + m.UniqName + " (" + model.IdentityMeaning(m.Identity) + ")"
		switch {
		case m.Descr == "":
			m.Descr = origin
		case !strings.HasPrefix(m.Descr, origin):
			m.Descr = origin + "; " + m.Descr
		}
	}
}

// IdentityAttrs returns m's attributes for a writer that keeps the
// canonical identity in the file: with IdentityAttr added unless the
// identity is the one Identify derives from the name with names (the
// reader's table), so a file of well-known names is written unchanged.
func IdentityAttrs(m *model.Metric, names map[string]string) []model.Attr {
	derived := names[m.UniqName]
	if derived == "" && model.IsPAPIPreset(m.UniqName) {
		derived = m.UniqName
	}
	if m.Identity == "" || m.Identity == derived {
		return m.Attrs
	}
	return append(slices.Clip(m.Attrs), model.Attr{Key: IdentityAttr, Value: m.Identity})
}
