package ui

import (
	"fmt"
	"slices"
	"strconv"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/model"
	"cubeview/view"
)

// Request is one algebra operation: the operator, its operands among the
// open experiments (in order) and its options.
type Request struct {
	Op       algebra.Op
	Operands []*Document
	Options  algebra.Options    // integration options of Difference, Merge, Mean
	Cut      algebra.CutOptions // regions of Cut
}

// Check reports a request that cannot run: wrong number of operands, a
// closed operand, a cut without region.
func (r Request) Check() error {
	x := r.expr()
	if err := x.Check(); err != nil {
		return err
	}
	for i, d := range r.Operands {
		if d == nil || d.Exp == nil {
			return fmt.Errorf("%s: operand %d is not an open experiment", r.Op, i+1)
		}
	}
	return nil
}

// expr returns the request as an expression whose file operands are the
// operand indices ("0", "1", …).
func (r Request) expr() *algebra.Expr {
	x := &algebra.Expr{Op: r.Op}
	for i := range r.Operands {
		x.Args = append(x.Args, &algebra.Expr{File: strconv.Itoa(i)})
	}
	if r.Op == algebra.OpCut {
		x.Reroot, x.Prune = r.Cut.Reroot, r.Cut.Prune
	}
	return x
}

// OperandNames returns the names of the operands as the result's window
// and markers show them: short file names of originals (with parent
// folders where two would be equal), expressions of derived experiments.
func (r Request) OperandNames() []string {
	var paths []string
	for _, d := range r.Operands {
		if d.Path != "" {
			paths = append(paths, d.Path)
		}
	}
	short := view.ShortNames(paths)
	names := make([]string, len(r.Operands))
	for i, d := range r.Operands {
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

// Name returns the result's expression for people, e.g. "before − after"
// or "mean(run1, run2, run3)".
func (r Request) Name() string {
	names := r.OperandNames()
	return view.DisplayExpr(r.expr(), func(f string) string {
		i, _ := strconv.Atoi(f)
		return names[i]
	})
}

// Evaluate runs the operation. It may take long: call it off the UI
// goroutine.
func (r Request) Evaluate() (*model.Experiment, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	exps := make([]*model.Experiment, len(r.Operands))
	for i, d := range r.Operands {
		exps[i] = d.Exp
	}
	switch r.Op {
	case algebra.OpDiff:
		return algebra.Diff(exps[0], exps[1], r.Options)
	case algebra.OpMerge:
		return algebra.Merge(r.Options, exps...)
	case algebra.OpMean:
		return algebra.Mean(r.Options, exps...)
	}
	return algebra.Cut(exps[0], r.Cut)
}

// Compute runs r in the background, showing progress in from, and opens
// the result in a new window titled by its expression. The result holds
// all its data, so closing an operand's window later does not affect it.
// Errors are shown in from.
func (a *App) Compute(r Request, from *Window) {
	if err := r.Check(); err != nil {
		from.showError(err)
		return
	}
	name := r.Name()
	from.startBusy("Computing " + name + " …")
	var res *model.Experiment
	var err error
	a.async(func() { res, err = r.Evaluate() }, func() {
		from.stopBusy()
		if err != nil {
			from.showError(fmt.Errorf("%s: %w", name, err))
			return
		}
		a.Show(r.resultDocument(res))
	})
}

// resultDocument returns the document of res, the result of r.
func (r Request) resultDocument(res *model.Experiment) *Document {
	name := r.Name()
	operands := r.OperandNames()
	if r.Op == algebra.OpCut {
		operands = nil // one operand: every node is in it
	}
	return &Document{
		Exp:        res,
		Name:       name,
		Expression: name,
		Operands:   operands,
		sources:    slices.Clone(r.Operands),
	}
}

// OpenExpression evaluates an algebra expression over files, such as
// "diff(before.cubex, after.cubex)", in the background and shows the
// result like OpenFile shows a file: in into when it is empty, else in a
// new window.
func (a *App) OpenExpression(text string, opt algebra.Options, into *Window) {
	target := into
	if target == nil || target.doc != nil {
		target = a.newWindow()
		a.show(target)
	}
	x, err := algebra.Parse(text)
	if err == nil && x.Op == algebra.NoOp {
		err = fmt.Errorf("expression %q is a file, not an operation", text)
	}
	if err != nil {
		target.showMessage("Could not evaluate the expression.")
		target.showError(err)
		return
	}
	target.startBusy("Computing " + text + " …")
	var res *model.Experiment
	a.async(func() { res, err = algebra.Eval(x, format.Open, opt) }, func() {
		target.stopBusy()
		if err != nil {
			target.showMessage("Could not evaluate " + text + ".")
			target.showError(err)
			return
		}
		doc := &Document{Exp: res, Name: res.Source}
		describeDerived(doc)
		if doc.Expression != "" {
			doc.Name = doc.Expression
		}
		target.setDocument(doc)
	})
}

// describeDerived fills in the expression and operand names of a derived
// experiment from its provenance attributes (a result read from a file, or
// evaluated from an expression). Originals are left alone.
func describeDerived(doc *Document) {
	if doc.Expression != "" || len(doc.Operands) > 0 {
		return
	}
	p, ok, err := algebra.ReadProvenance(doc.Exp)
	if !ok {
		return
	}
	name, operands, parsed := view.NameOfExpression(p.Expr)
	if !parsed {
		name = p.Expression
		operands = nil
		var paths []string
		for _, o := range p.Operands {
			paths = append(paths, o.Path)
		}
		short := view.ShortNames(paths)
		for _, o := range p.Operands {
			if o.Path != "" {
				operands = append(operands, short[o.Path])
			} else {
				operands = append(operands, o.Expression)
			}
		}
	}
	if err != nil || len(operands) < 2 {
		operands = nil // markers need every operand; one operand has all nodes
	}
	doc.Expression, doc.Operands = name, operands
}

// isDifference reports whether doc's values may be negative: its
// expression has a difference.
func isDifference(doc *Document) bool {
	p, ok, _ := algebra.ReadProvenance(doc.Exp)
	return ok && p.Expr.Has(algebra.OpDiff)
}

// showDerived prepares the view of a derived experiment: operand markers
// and, for differences, diverging colours around zero.
func (w *Window) showDerived(doc *Document) {
	describeDerived(doc)
	if len(doc.Operands) > 0 {
		w.view.SetOperandNames(doc.Operands)
	}
	if doc.Expression != "" && isDifference(doc) {
		s := w.view.Scale()
		s.Diverging = true
		w.view.SetScale(s)
	}
	w.hint.SetText(matchingNote(doc))
}

// windowTitle names a window by its experiment: the file name, the
// expression of a derived experiment, or both for a saved result.
func windowTitle(doc *Document) string {
	switch {
	case doc.Expression == "" || doc.Expression == doc.Name:
		return "cubeview — " + doc.Name
	}
	return "cubeview — " + doc.Name + " (" + doc.Expression + ")"
}
