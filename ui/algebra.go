package ui

import (
	"fmt"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/model"
	"cubeview/view"
)

// Compute runs r in the background, showing progress in from, and opens
// the result in a new window titled by its expression. The result holds
// all its data, so closing an operand's window later does not affect it.
// Errors are shown in from.
func (a *App) Compute(r view.Operation, from *Window) {
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
		a.Show(r.Result(res))
	})
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
		doc := &view.Doc{Exp: res, Name: res.Source}
		doc.Describe()
		if doc.Expression != "" {
			doc.Name = doc.Expression
		}
		target.setDocument(doc)
	})
}

// showDerived prepares the view of a derived experiment: operand markers
// and, for differences, diverging colours around zero.
func (w *Window) showDerived(doc *view.Doc) {
	doc.Describe()
	if len(doc.Operands) > 0 {
		w.view.SetOperandNames(doc.Operands)
	}
	if doc.Expression != "" && view.IsDifference(doc.Exp) {
		s := w.view.Scale()
		s.Diverging = true
		w.view.SetScale(s)
	}
	w.hint.SetText(view.MatchingNote(doc.Exp))
}
