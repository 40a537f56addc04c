package document

import (
	"slices"

	"cubeview/model"
)

// External percent shows values in percent of the same metric's total in
// a reference experiment chosen among the open ones, e.g. a difference in
// percent of the old run.

// DefaultReference returns the reference External percent starts with
// for doc among the open experiments: for a derived experiment its first
// operand (the minuend of a difference) while it is open, otherwise the
// first other open experiment; nil when there is none.
func DefaultReference(doc *Doc, open []*Doc) *Doc {
	if doc == nil {
		return nil
	}
	for _, s := range doc.Sources {
		if s != doc && slices.Contains(open, s) {
			return s
		}
	}
	for _, d := range open {
		if d != doc {
			return d
		}
	}
	return nil
}

// ReferenceName names ref, the reference of External percent: an open
// experiment by its name, one whose window was closed by its source;
// "none" for nil.
func ReferenceName(ref *model.Experiment, open []*Doc) string {
	if ref == nil {
		return "none"
	}
	for _, d := range open {
		if d.Exp == ref {
			return d.Name
		}
	}
	return ShortName(ref.Source) + " (window closed)"
}
