package view

import (
	"fmt"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
)

// Coverage says which operands of a derived experiment contribute nothing
// to the values of metric m: an operand without a metric matched to m, or
// one that shares no call path with the others. Their values are then not
// compared with anything, and the window must not let the result pass for
// an ordinary difference. The sentences name the dialog option that
// matches more; none when every operand contributes or presence is not
// known (an experiment read from a file).
func (m *Markers) Coverage(metric int) []string {
	if !m.known || len(m.names) < 2 || metric < 0 || metric >= len(m.v.exp.Metrics) {
		return nil
	}
	e := m.v.exp
	var out []string
	if met := &e.Metrics[metric]; !met.IsDerived() && met.Present&m.all != 0 {
		for i, name := range m.names {
			if !met.Present.Has(i) {
				out = append(out, fmt.Sprintf("%s (%s) has no metric matching %s, so it contributes nothing to these values; "+
					"Map metrics in the algebra dialog compares metrics of different names or meaning",
					operandLetter(i), name, met.DispName))
			}
		}
	}
	shared := make([]bool, len(m.names))
	known := false
	for c := range e.Cnodes {
		p := e.Cnodes[c].Present & m.all
		known = known || p != 0
		if p&(p-1) == 0 {
			continue // in one operand at most
		}
		for i := range shared {
			shared[i] = shared[i] || p.Has(i)
		}
	}
	for i, ok := range shared {
		if known && !ok {
			out = append(out, fmt.Sprintf("%s (%s) shares no call path with the other operands, so none of its values is compared with theirs; "+
				"Rename regions in the algebra dialog renames regions before matching", operandLetter(i), m.names[i]))
		}
	}
	return out
}

// matching returns what a derived experiment's provenance says was
// matched other than by equal names — metrics by canonical identity or a
// mapping, regions by canonical name, call paths across frames one tool
// did not record, call-tree roots of different regions — and what was
// not compared, in sentences; none for an experiment that is not
// derived.
func matching(e *model.Experiment) []string {
	p, ok, err := algebra.ReadProvenance(e)
	if !ok || err != nil {
		return nil
	}
	out := slices.Clone(p.Matching) // metrics first: what the values compare
	if p.Roots != "" {
		out = append(out, strings.ToUpper(p.Roots[:1])+p.Roots[1:]+" (Strict root matching in the algebra dialogs keeps them apart)")
	}
	return out
}

// NoteLine is the line a window shows above its status line about what
// its experiment's values rest on (File › Properties lists it in full),
// "" when nothing needs saying; warn asks for a warning's colour:
//   - for a derived experiment, what an operand contributes nothing to
//     for the selected metric (warn);
//   - what the reader tolerated in the input (Experiment.Warnings, which
//     the command line prints on stderr) (warn);
//   - for a derived experiment, what was matched other than by name.
func NoteLine(v *View) (line string, warn bool) {
	if v == nil {
		return "", false
	}
	m := -1
	if ms, ok := metricSel(v); ok {
		m = ms.Metric
	}
	if c := v.markers.Coverage(m); len(c) > 0 {
		return "Not compared: " + strings.Join(c, " · "), true
	}
	if w := v.exp.Warnings; len(w) > 0 {
		return fmt.Sprintf("%s reading the input (File › Properties lists them): %s", Count(len(w), "warning"), strings.Join(w, " · ")), true
	}
	if s := matching(v.exp); len(s) > 0 {
		return "Matched: " + strings.Join(s, " · "), false
	}
	return "", false
}
