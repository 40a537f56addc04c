package document

import (
	"fmt"
	"path/filepath"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/model"
	"cubeview/view"
)

// Doc is an open experiment, original or derived: the experiment, the
// name its window and the menus show, the file it was read from ("" for a
// derived experiment not saved), and for a derived one the display form
// of its expression, the names of its operands (in the order of the
// presence masks) and the open experiments it was computed from.
type Doc struct {
	Exp        *model.Experiment
	Name       string // file base name or expression
	Path       string // the file read, "" for a derived experiment
	Expression string // e.g. "before − after"; "" for originals
	Operands   []string
	Sources    []*Doc
}

// Experiment returns d's experiment; nil for no document (a nil d).
func (d *Doc) Experiment() *model.Experiment {
	if d == nil {
		return nil
	}
	return d.Exp
}

// Read reads the experiment at path (a file or a folder in any format
// format.Open reads) and sums up the metric a new window shows first;
// call it off the UI goroutine.
func Read(path string) (*Doc, error) {
	exp, err := format.Open(path)
	if err != nil {
		return nil, err
	}
	view.PrimeFirstMetric(exp)
	return &Doc{Exp: exp, Name: filepath.Base(path), Path: path}, nil
}

// Describe fills in the expression and operand names of a derived
// experiment from its provenance attributes (a result read from a file,
// or evaluated from an expression). Originals are left alone.
func (d *Doc) describe() {
	if d.Expression != "" || len(d.Operands) > 0 {
		return
	}
	if name, operands, derived := derivedNames(d.Exp); derived {
		d.Expression, d.Operands = name, operands
	}
}

// OperandNames returns the names of operands as a result's window and
// markers show them: short file names of originals (with parent folders
// where two would be equal), expressions of derived experiments.
func OperandNames(operands []*Doc) []string {
	var paths []string
	for _, d := range operands {
		if d.Path != "" {
			paths = append(paths, d.Path)
		}
	}
	short := shortNames(paths)
	names := make([]string, len(operands))
	for i, d := range operands {
		switch {
		case d.Path != "":
			names[i] = short[d.Path]
		case d.Expression != "":
			names[i] = d.Expression
		default:
			names[i] = d.Name
		}
	}
	return names
}

// Labels returns a distinct label per document, as the dialogs offer
// them: a file by as much of its path as tells it from the other files
// (distinctPaths), a derived experiment by its name; numbered when still
// the same.
func Labels(docs []*Doc) []string {
	var paths []string
	for _, d := range docs {
		if d.Path != "" {
			paths = append(paths, d.Path)
		}
	}
	tails := distinctPaths(paths)
	out := make([]string, len(docs))
	count := map[string]int{}
	for i, d := range docs {
		out[i] = d.Name
		if d.Path != "" {
			out[i] = tails[d.Path]
		}
		count[out[i]]++
	}
	seen := map[string]int{}
	for i, l := range out {
		if count[l] > 1 {
			seen[l]++
			out[i] = fmt.Sprintf("%s (%d)", l, seen[l])
		}
	}
	return out
}

// derivedNames returns the expression and operand names of a derived
// experiment as its provenance records them; derived is false for an
// original. Operands are nil unless every operand is named and there are
// at least two (markers need every operand; one operand has all nodes).
func derivedNames(e *model.Experiment) (expression string, operands []string, derived bool) {
	p, ok, err := algebra.ReadProvenance(e)
	if !ok {
		return "", nil, false
	}
	name, operands, parsed := NameOfExpression(p.Expr)
	if !parsed {
		name = p.Expression
		operands = nil
		var paths []string
		for _, o := range p.Operands {
			paths = append(paths, o.Path)
		}
		short := shortNames(paths)
		for _, o := range p.Operands {
			if o.Path != "" {
				operands = append(operands, short[o.Path])
			} else {
				operands = append(operands, o.Expression)
			}
		}
	}
	if err != nil || len(operands) < 2 {
		operands = nil
	}
	return name, operands, true
}

// isDifference reports whether e's values may be negative: its
// provenance's expression has a difference.
func isDifference(e *model.Experiment) bool {
	p, ok, _ := algebra.ReadProvenance(e)
	return ok && p.Expr.Has(algebra.OpDiff)
}

// IsDifference reports whether d is a result of the algebra that
// subtracts (a difference, or one made of differences).
func (d *Doc) IsDifference() bool {
	return d != nil && d.Expression != "" && d.Exp != nil && isDifference(d.Exp)
}

// WindowTitle names a window by its experiment: the file name, the
// expression of a derived experiment, or both for a saved result.
func WindowTitle(d *Doc) string {
	if d.Expression == "" || d.Expression == d.Name {
		return "cubeview — " + d.Name
	}
	return "cubeview — " + d.Name + " (" + d.Expression + ")"
}

// Others returns the open documents but doc, in order: the external
// references a window of doc offers.
func Others(docs []*Doc, doc *Doc) []*Doc {
	var out []*Doc
	for _, d := range docs {
		if d != doc {
			out = append(out, d)
		}
	}
	return out
}

// ExternalHint is the status hint after External percent picked ref as the
// reference, or found none (nil) to pick.
func ExternalHint(ref *Doc) string {
	if ref == nil {
		return "External percent needs a second open experiment (View › External reference)."
	}
	return "External percent of " + ref.Name + " (View › Choose external reference… changes it)."
}
