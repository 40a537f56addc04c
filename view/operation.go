package view

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
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

// Operation is one algebra operation over open experiments: the
// operator, its operands (in order) and its options.
type Operation struct {
	Op       algebra.Op
	Operands []*Doc
	Options  algebra.Options    // integration options of Difference, Merge, Mean
	Cut      algebra.CutOptions // regions of Cut
}

// Expr returns the operation as an expression whose file operands are
// the operand indices ("0", "1", …).
func (o Operation) expr() *algebra.Expr {
	x := &algebra.Expr{Op: o.Op}
	for i := range o.Operands {
		x.Args = append(x.Args, &algebra.Expr{File: strconv.Itoa(i)})
	}
	if o.Op == algebra.OpCut {
		x.Reroot, x.Prune = o.Cut.Reroot, o.Cut.Prune
	}
	return x
}

// experiments returns the operands' experiments, nil for a closed one.
func (o Operation) experiments() []*model.Experiment {
	exps := make([]*model.Experiment, len(o.Operands))
	for i, d := range o.Operands {
		if d != nil {
			exps[i] = d.Exp
		}
	}
	return exps
}

// Check reports an operation that cannot run: wrong number of operands,
// a missing (closed) operand, a cut without region.
func (o Operation) Check() error {
	if err := o.expr().Check(); err != nil {
		return err
	}
	for i, d := range o.Operands {
		if d == nil || d.Exp == nil {
			return fmt.Errorf("%s: operand %d is not an open experiment", o.Op, i+1)
		}
	}
	return nil
}

// Name returns the result's expression for people, e.g. "before − after"
// or "mean(run1, run2, run3)", over operands named by OperandNames.
func (o Operation) Name() string {
	names := OperandNames(o.Operands)
	return displayExpr(o.expr(), func(f string) string {
		i, _ := strconv.Atoi(f)
		return names[i]
	})
}

// MarkerNames returns the operand names the result's markers use: none
// for a cut (one operand has every node).
func (o Operation) markerNames() []string {
	if o.Op == algebra.OpCut {
		return nil
	}
	return OperandNames(o.Operands)
}

// Evaluate runs the operation. It may take long: call it off the UI
// goroutine.
func (o Operation) Evaluate() (*model.Experiment, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	exps := o.experiments()
	switch o.Op {
	case algebra.OpDiff:
		return algebra.Diff(exps[0], exps[1], o.Options)
	case algebra.OpMerge:
		return algebra.Merge(o.Options, exps...)
	case algebra.OpMean:
		return algebra.Mean(o.Options, exps...)
	}
	return algebra.Cut(exps[0], o.Cut)
}

// Result returns the document of res, the result of o, titled by its
// expression.
func (o Operation) Result(res *model.Experiment) *Doc {
	name := o.Name()
	return &Doc{Exp: res, Name: name, Expression: name, Operands: o.markerNames(), Sources: slices.Clone(o.Operands)}
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

// DocLabels returns a distinct label per document, as the dialogs offer
// them: a file by as much of its path as tells it from the other files
// (distinctPaths), a derived experiment by its name; numbered when still
// the same.
func DocLabels(docs []*Doc) []string {
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

// cutRegion returns the region Algebra › Cut cuts at: that of the call
// pane's selected call path (or flat-profile region) of v; the error says
// why there is none.
func cutRegion(v *View) (string, error) {
	e := v.Experiment()
	n := v.Selected(CallPane)
	var region string
	switch n.Kind {
	case CnodeNode:
		region = e.Regions[e.Cnodes[n.Index].Region].Name
	case RegionNode:
		region = e.Regions[n.Index].Name
	default:
		return "", errors.New("cut: select a call path (or a region of the flat profile) first")
	}
	if strings.TrimSpace(region) == "" {
		return "", errors.New("cut: the selected call path's region has no name to cut at")
	}
	return region, nil
}
