package document

import (
	"errors"
	"fmt"

	"cubeview/algebra"
	"cubeview/model"
	"cubeview/view"
)

// Compute evaluates o with run while busy shows it and passes done the
// result's document, titled by its expression, or why there is none: an
// operation that cannot run (Check) is reported at once, without
// running anything; a failed evaluation is prefixed with the operation's
// name.
func (o Operation) Compute(run view.Runner, busy view.Busy, done func(*Doc, error)) {
	if err := o.Check(); err != nil {
		done(nil, err)
		return
	}
	name := o.Name()
	stop := busy("Computing " + name + " …")
	var res *model.Experiment
	var err error
	run(func() { res, err = o.Evaluate() }, func() {
		stop()
		if err != nil {
			done(nil, fmt.Errorf("%s: %w", name, err))
			return
		}
		done(o.Result(res), nil)
	})
}

// EvaluateExpression evaluates an algebra expression over files, such as
// "diff(before.cubex, after.cubex)" (the --calc flag), reading the files
// with open, with run while busy shows it. done receives the result's
// document, named by its expression, or the error and the message a
// window shows instead of an experiment.
func EvaluateExpression(text string, opt algebra.Options, open algebra.Opener, run view.Runner, busy view.Busy, done func(doc *Doc, message string, err error)) {
	x, err := algebra.Parse(text)
	if err == nil && x.Op == algebra.NoOp {
		err = fmt.Errorf("expression %q is a file, not an operation", text)
	}
	if err != nil {
		done(nil, "Could not evaluate the expression.", err)
		return
	}
	stop := busy("Computing " + text + " …")
	var res *model.Experiment
	run(func() { res, err = algebra.Eval(x, open, opt) }, func() {
		stop()
		if err != nil {
			done(nil, "Could not evaluate "+text+".", err)
			return
		}
		doc := &Doc{Exp: res, Name: res.Source}
		doc.describe()
		if doc.Expression != "" {
			doc.Name = doc.Expression
		}
		done(doc, "", nil)
	})
}

// CutOperation returns Algebra › Cut of doc, whose view is v, at the
// region of the selected call path (or flat-profile region): with
// prune, the region's call paths are pruned into their callers;
// otherwise they become the roots. Cut works on regions, so every call
// path of the region takes part.
func CutOperation(v *view.View, doc *Doc, prune bool) (Operation, error) {
	if v == nil || doc == nil {
		return Operation{}, errors.New("no experiment in this window")
	}
	region, err := cutRegion(v)
	if err != nil {
		return Operation{}, err
	}
	o := Operation{Op: algebra.OpCut, Operands: []*Doc{doc}}
	if prune {
		o.Cut.Prune = []string{region}
	} else {
		o.Cut.Reroot = []string{region}
	}
	return o, nil
}

// ShowDerived prepares v, the view of doc, for a derived experiment:
// operand markers and, for differences, diverging colours around zero.
// NoteLine then says how its operands were matched.
func ShowDerived(v *view.View, doc *Doc) {
	doc.describe()
	if len(doc.Operands) > 0 {
		v.Markers().SetNames(doc.Operands)
	}
	if doc.IsDifference() {
		v.Appearance().SetDiverging(true)
	}
}
