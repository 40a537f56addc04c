package view

import (
	"fmt"
	"strings"

	"cubeview/sourceview"
)

// SourceNote is an annotation of a source line as the source panel shows
// it: the inclusive value of its call path or region in the call pane's
// value mode, formatted and coloured as the call pane does.
type SourceNote struct {
	sourceview.Annotation
	Cell
}

// NotesOf returns the annotations of the source file recorded as file
// for the current metric selection of v, keyed by line, for a text of
// lines lines; dropped counts annotations beyond the last line (the file
// differs from the measured one). info says what the values are.
func NotesOf(v *View, file string, lines int) (notes map[int][]SourceNote, dropped int, info string) {
	e := v.Experiment()
	vals := sourceview.Values{Cnodes: make([]float64, len(e.Cnodes)), Regions: make([]float64, len(e.Regions))}
	for c := range vals.Cnodes {
		vals.Cnodes[c] = v.Inclusive(CallPane, Node{CnodeNode, c})
	}
	for r := range vals.Regions {
		vals.Regions[r] = v.Inclusive(CallPane, Node{RegionNode, r})
	}
	raw := sourceview.Annotations(e, file, vals)
	notes = make(map[int][]SourceNote, len(raw))
	for line, as := range raw {
		if line > lines {
			dropped += len(as)
			continue
		}
		ns := make([]SourceNote, len(as))
		for i, a := range as {
			n := Node{CnodeNode, a.Index}
			if a.Kind == sourceview.RegionBegin {
				n = Node{RegionNode, a.Index}
			}
			a.Value = v.CallValue(n)
			ns[i] = SourceNote{Annotation: a, Cell: v.CallCell(a.Value)}
		}
		notes[line] = ns
	}
	if m := v.Selected(MetricPane); m.Kind == MetricNode {
		info = fmt.Sprintf("%s, inclusive, %s", v.Label(m), strings.ToLower(v.Mode(CallPane).String()))
		if unit := v.Unit(CallPane, v.Selected(CallPane)); unit != "" {
			info += " (" + unit + ")"
		}
	}
	return notes, dropped, info
}
