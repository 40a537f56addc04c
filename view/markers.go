package view

import (
	"strconv"
	"strings"

	"cubeview/model"
)

// Markers are the badges of a derived experiment's rows that not every
// operand had, and the operand names they stand for.
type Markers struct {
	v     *View
	names []string
	all   model.Mask
	known bool
}

// SetNames names the operands of a derived experiment in the order of
// its presence masks, so that badges and tooltips can say which of them
// had a node. Nil turns the markers off.
func (m *Markers) SetNames(names []string) {
	m.names = names
	m.all = model.Mask(1)<<uint(len(names)) - 1
	m.known = len(names) > 0
}

// Names returns the names set by SetNames.
func (m *Markers) Names() []string { return m.names }

// Legend returns the legend's lines for the operands, "A before", none
// when the names are not known.
func (m *Markers) Legend() []string {
	if !m.known {
		return nil
	}
	var out []string
	for i, name := range m.names {
		out = append(out, operandLetter(i)+" "+name)
	}
	return out
}

// presence returns the operands that had n. A flat-profile region was in
// every operand that had one of its call paths. ok is false when n is in
// every operand or its presence is unknown.
func (m *Markers) presence(n Node) (mask model.Mask, ok bool) {
	if !m.known {
		return 0, false
	}
	mask = kindOf(n).presence(m.v, n.Index) & m.all
	if mask == 0 || mask == m.all {
		return 0, false
	}
	return mask, true
}

// operandLetter names operand i in badges: A, B, C, …, then 27, 28, …
func operandLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i + 1)
}

// badge returns the badge of a row that not every operand had: the
// letters of the operands that had it, "A" or "A,C"; "" for rows present
// in every operand.
func (m *Markers) badge(n Node) string {
	mask, ok := m.presence(n)
	if !ok {
		return ""
	}
	var ls []string
	for i := range m.names {
		if mask.Has(i) {
			ls = append(ls, operandLetter(i))
		}
	}
	return strings.Join(ls, ",")
}

// note says which operands had n and which did not, "only in A (before),
// not in B (after)"; "" for rows present in every operand.
func (m *Markers) note(n Node) string {
	mask, ok := m.presence(n)
	if !ok {
		return ""
	}
	var in, out []string
	for i, name := range m.names {
		l := operandLetter(i) + " (" + name + ")"
		if mask.Has(i) {
			in = append(in, l)
		} else {
			out = append(out, l)
		}
	}
	note := "in " + strings.Join(in, ", ")
	if len(in) == 1 {
		note = "only " + note
	}
	return note + ", not in " + strings.Join(out, ", ")
}
