package document

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
	"cubeview/view"
)

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

// cutRegion returns the region Algebra › Cut cuts at: that of the call
// pane's selected call path (or flat-profile region) of v; the error says
// why there is none.
func cutRegion(v *view.View) (string, error) {
	e := v.Experiment()
	n := v.Selected(view.CallPane)
	var region string
	switch n.Kind {
	case view.CnodeNode:
		region = e.Regions[e.Cnodes[n.Index].Region].Name
	case view.RegionNode:
		region = e.Regions[n.Index].Name
	default:
		return "", errors.New("cut: select a call path (or a region of the flat profile) first")
	}
	if strings.TrimSpace(region) == "" {
		return "", errors.New("cut: the selected call path's region has no name to cut at")
	}
	return region, nil
}
