package view

import (
	"strconv"
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

// operandLetter names operand i in badges: A, B, C, …, then 27, 28, …
func operandLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i + 1)
}

// Marker returns the badge of a row of a derived experiment that not
// every operand had: the letters of the operands that had it, "A" or
// "A,C"; "" for rows present in every operand. Tooltip and the legend
// name the operands.
func (v *View) Marker(n Node) string {
	m, ok := v.presence(n)
	if !ok {
		return ""
	}
	var ls []string
	for i := range v.markerNames {
		if m.Has(i) {
			ls = append(ls, operandLetter(i))
		}
	}
	return strings.Join(ls, ",")
}

// Tooltip returns the description of n (a metric's unit and description,
// a region's file and lines, a location's rank) and, in a derived
// experiment, which operands had n and which did not: "only in A
// (before), not in B (after)".
func (v *View) Tooltip(n Node) string {
	s := v.description(n)
	m, ok := v.presence(n)
	if !ok {
		return s
	}
	var in, out []string
	for i, name := range v.markerNames {
		l := operandLetter(i) + " (" + name + ")"
		if m.Has(i) {
			in = append(in, l)
		} else {
			out = append(out, l)
		}
	}
	note := "in " + strings.Join(in, ", ")
	if len(in) == 1 {
		note = "only " + note
	}
	note += ", not in " + strings.Join(out, ", ")
	if s == "" {
		return note
	}
	return s + " · " + note
}
