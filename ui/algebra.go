package ui

import (
	"cubeview/algebra"
	"cubeview/document"
	"cubeview/format"
)

// Compute runs r in the background, showing progress in from, and opens
// the result in a new window titled by its expression. The result holds
// all its data, so closing an operand's window later does not affect it.
// Errors are shown in from.
func (a *App) Compute(r document.Operation, from *Window) {
	r.Compute(a.async, from.busy.with, func(doc *document.Doc, err error) {
		if err != nil {
			from.showError(err)
			return
		}
		a.Show(doc)
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
	document.EvaluateExpression(text, opt, format.Open, a.async, target.busy.with, func(doc *document.Doc, message string, err error) {
		if err != nil {
			target.showMessage(message)
			target.showError(err)
			return
		}
		target.setDocument(doc)
	})
}

// showDerived prepares the view of a derived experiment: operand markers
// and, for differences, diverging colours around zero.
func (w *Window) showDerived(doc *document.Doc) {
	document.ShowDerived(w.view, doc)
}
