package sourcepanel

import (
	"fmt"
	"strings"

	"cubeview/model"
	"cubeview/sourceview"
	"cubeview/view"
)

// Note is an annotation of a source line as the source panel shows
// it: the inclusive value of its call path or region in the call pane's
// value mode, formatted and coloured as the call pane does.
type Note struct {
	sourceview.Annotation
	view.Cell
}

// notesOf returns the annotations of the source file recorded as file
// for the current metric selection of v, keyed by line, for a text of
// lines lines; dropped counts annotations beyond the last line (the file
// differs from the measured one). info says what the values are.
func notesOf(v *view.View, file string, lines int) (notes map[int][]Note, dropped int, info string) {
	e, shown := v.Experiment(), v.Values()
	vals := sourceview.Values{Cnodes: make([]float64, len(e.Cnodes)), Regions: make([]float64, len(e.Regions))}
	for c := range vals.Cnodes {
		vals.Cnodes[c] = shown.Inclusive(view.CallPane, view.Node{Kind: view.CnodeNode, Index: c})
	}
	for r := range vals.Regions {
		vals.Regions[r] = shown.Inclusive(view.CallPane, view.Node{Kind: view.RegionNode, Index: r})
	}
	raw := sourceview.Annotations(e, file, vals)
	notes = make(map[int][]Note, len(raw))
	for line, as := range raw {
		if line > lines {
			dropped += len(as)
			continue
		}
		ns := make([]Note, len(as))
		for i, a := range as {
			n := view.Node{Kind: view.CnodeNode, Index: a.Index}
			if a.Kind == sourceview.RegionBegin {
				n = view.Node{Kind: view.RegionNode, Index: a.Index}
			}
			a.Value = shown.ModeValue(view.CallPane, n, shown.Inclusive(view.CallPane, n))
			ns[i] = Note{Annotation: a, Cell: shown.CallCell(a.Value)}
		}
		notes[line] = ns
	}
	if m := v.Selected(view.MetricPane); m.Kind == view.MetricNode {
		info = fmt.Sprintf("%s, inclusive, %s", v.Label(m), strings.ToLower(v.Mode(view.CallPane).String()))
		if unit := v.Values().Unit(view.CallPane, v.Selected(view.CallPane)); unit != "" {
			info += " (" + unit + ")"
		}
	}
	return notes, dropped, info
}

// DescribeNotes explains a line's annotations for the hint line.
func DescribeNotes(e *model.Experiment, notes []Note, valuesInfo string) string {
	var parts []string
	for _, n := range notes {
		switch n.Kind {
		case sourceview.CallSite:
			parts = append(parts, fmt.Sprintf("call of %s (%s): %s", n.Name, e.CallPath(n.Index), n.Text))
		default:
			parts = append(parts, fmt.Sprintf("region %s: %s", n.Name, n.Text))
		}
	}
	return strings.Join(parts, " · ") + " — " + valuesInfo + "; double-click selects the call"
}

// NoteText names the annotations of a line after its code: the first
// one's value is in the gutter, the others' follow their names.
func NoteText(notes []Note) string {
	if len(notes) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("◂ ")
	for i, n := range notes {
		if i > 0 {
			sb.WriteString(" · ")
		}
		sb.WriteString(n.Kind.String())
		sb.WriteByte(' ')
		sb.WriteString(n.Name)
		if i > 0 {
			sb.WriteByte(' ')
			sb.WriteString(n.Text)
		}
	}
	return sb.String()
}

// FirstCallSite returns the call path of the first call site among notes,
// false when there is none.
func FirstCallSite(notes []Note) (cnode int, ok bool) {
	for _, n := range notes {
		if n.Kind == sourceview.CallSite {
			return n.Index, true
		}
	}
	return 0, false
}
