package sourceview

import (
	"fmt"

	"cubeview/model"
)

// AnnotationKind tells what an annotation refers to.
type AnnotationKind uint8

const (
	// CallSite annotates the line of a call: a cnode's call site.
	CallSite AnnotationKind = iota
	// RegionBegin annotates the first line of a region's definition.
	RegionBegin
)

// String returns "call" or "region".
func (k AnnotationKind) String() string {
	if k == RegionBegin {
		return "region"
	}
	return "call"
}

// Annotation is a value of the selected metric attached to a line.
type Annotation struct {
	Kind  AnnotationKind
	Index int    // cnode index (CallSite) or region index (RegionBegin) in the experiment
	Name  string // the called region's name, or the region's name
	Value float64
}

// String renders a for dumps and tooltips, e.g. "call MPI_Barrier (cnode 13) = 1.5".
func (a Annotation) String() string {
	what := "cnode"
	if a.Kind == RegionBegin {
		what = "region"
	}
	return fmt.Sprintf("%s %s (%s %d) = %g", a.Kind, a.Name, what, a.Index, a.Value)
}

// Values are the selected metric's values to annotate a file with, as
// the display computed them for the current selection (inclusive or
// exclusive, absolute or relative).
type Values struct {
	Cnodes  []float64 // indexed like Experiment.Cnodes; nil: no call-site annotations
	Regions []float64 // indexed like Experiment.Regions; nil: no region annotations
}

// Annotations returns the annotations of the source file recorded as file
// in e, keyed by line: for each region defined in file its value at its
// begin line, and for each cnode whose call site is in file its value at
// its call line. On a line, regions come first, then call sites in
// depth-first call-tree order. Recorded paths are compared after
// normalising separators, so "a//b.c" and "a/b.c" are the same file.
func Annotations(e *model.Experiment, file string, v Values) map[int][]Annotation {
	out := map[int][]Annotation{}
	file = normalize(file)
	if v.Regions != nil {
		for i := range e.Regions {
			r := &e.Regions[i]
			if r.Begin > 0 && i < len(v.Regions) && normalize(r.Module) == file {
				out[r.Begin] = append(out[r.Begin], Annotation{RegionBegin, i, r.Name, v.Regions[i]})
			}
		}
	}
	if v.Cnodes != nil {
		for _, c := range e.CnodeOrder() {
			cn := &e.Cnodes[c]
			if cn.CallLine > 0 && c < len(v.Cnodes) && normalize(cn.CallFile) == file {
				out[cn.CallLine] = append(out[cn.CallLine], Annotation{CallSite, c, e.CnodeRegion(c).Name, v.Cnodes[c]})
			}
		}
	}
	return out
}

// Annotate replaces the annotations of lines (numbered from 1 in order,
// as Highlight returns them) by Annotations(e, file, v). It returns the
// number of annotations that point beyond the last line and were
// dropped, a sign that the file differs from the measured one.
func Annotate(lines []Line, e *model.Experiment, file string, v Values) (dropped int) {
	for i := range lines {
		lines[i].Annotations = nil
	}
	for n, as := range Annotations(e, file, v) {
		if n > len(lines) {
			dropped += len(as)
			continue
		}
		lines[n-1].Annotations = as
	}
	return dropped
}
