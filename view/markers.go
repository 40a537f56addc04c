package view

import (
	"strings"

	"cubeview/model"
)

// SetOperandNames names the operands of a derived experiment in the order
// of its presence masks, so that Marker and Tooltip can say which of them
// had a node. Nil turns the markers off.
func (v *View) SetOperandNames(names []string) {
	v.markerNames = names
	v.markerAll = model.Mask(1)<<uint(len(names)) - 1
	v.markerOperandsKnown = len(names) > 0
}

// OperandNames returns the names set by SetOperandNames.
func (v *View) OperandNames() []string { return v.markerNames }

// presence returns the operands that had n. A flat-profile region was in
// every operand that had one of its call paths. ok is false when n is in
// every operand or its presence is unknown.
func (v *View) presence(n Node) (m model.Mask, ok bool) {
	if !v.markerOperandsKnown {
		return 0, false
	}
	m = kindOf(n).presence(v, n.Index)
	m &= v.markerAll
	if m == 0 || m == v.markerAll {
		return 0, false
	}
	return m, true
}

// operandsIn splits the operand names by whether m has them.
func (v *View) operandsIn(m model.Mask) (in, out []string) {
	for i, name := range v.markerNames {
		if m.Has(i) {
			in = append(in, name)
		} else {
			out = append(out, name)
		}
	}
	return in, out
}

// Marker returns a short note for a row of a derived experiment that not
// every operand had: "only in before" when one operand had it, "in run1,
// run2" when several did; "" for rows present in every operand.
func (v *View) Marker(n Node) string {
	m, ok := v.presence(n)
	if !ok {
		return ""
	}
	in, _ := v.operandsIn(m)
	if len(in) == 1 {
		return "only in " + in[0]
	}
	return "in " + strings.Join(in, ", ")
}

// Tooltip returns the description of n (a metric's unit and description,
// a region's file and lines, a location's rank) and, in a derived
// experiment, which operands had n and which did not.
func (v *View) Tooltip(n Node) string {
	s := v.description(n)
	m, ok := v.presence(n)
	if !ok {
		return s
	}
	in, out := v.operandsIn(m)
	note := "not in every operand: present in " + strings.Join(in, ", ") + ", missing in " + strings.Join(out, ", ")
	if s == "" {
		return note
	}
	return s + " · " + note
}
