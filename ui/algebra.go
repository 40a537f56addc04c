package ui

import (
	"fmt"
	"slices"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/model"
	"cubeview/view"
)

// info returns what the presentation layer needs of d.
func (d *Document) info() view.Doc {
	return view.Doc{Exp: d.Exp, Name: d.Name, Path: d.Path, Expression: d.Expression, Operands: d.Operands}
}

// docInfos returns the infos of docs.
func docInfos(docs []*Document) []view.Doc {
	out := make([]view.Doc, len(docs))
	for i, d := range docs {
		out[i] = d.info()
	}
	return out
}

// docLabels returns a distinct label per document (view.DocLabels).
func docLabels(docs []*Document) []string { return view.DocLabels(docInfos(docs)) }

// Request is one algebra operation: the operator, its operands among the
// open experiments (in order) and its options.
type Request struct {
	Op       algebra.Op
	Operands []*Document
	Options  algebra.Options    // integration options of Difference, Merge, Mean
	Cut      algebra.CutOptions // regions of Cut
}

func (r Request) operation() view.Operation {
	return view.Operation{Op: r.Op, Options: r.Options, Cut: r.Cut}
}

// experiments returns the operands' experiments, nil for a closed one.
func (r Request) experiments() []*model.Experiment {
	exps := make([]*model.Experiment, len(r.Operands))
	for i, d := range r.Operands {
		if d != nil {
			exps[i] = d.Exp
		}
	}
	return exps
}

// Check reports a request that cannot run: wrong number of operands, a
// closed operand, a cut without region.
func (r Request) Check() error { return r.operation().Check(r.experiments()) }

// OperandNames returns the names of the operands as the result's window
// and markers show them (view.OperandNames).
func (r Request) OperandNames() []string { return view.OperandNames(docInfos(r.Operands)) }

// Name returns the result's expression for people, e.g. "before − after"
// or "mean(run1, run2, run3)".
func (r Request) Name() string { return r.operation().Name(docInfos(r.Operands)) }

// Evaluate runs the operation. It may take long: call it off the UI
// goroutine.
func (r Request) Evaluate() (*model.Experiment, error) {
	return r.operation().Evaluate(r.experiments())
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
	return &Document{
		Exp:        res,
		Name:       name,
		Expression: name,
		Operands:   r.operation().MarkerNames(docInfos(r.Operands)),
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
	if name, operands, derived := view.DerivedNames(doc.Exp); derived {
		doc.Expression, doc.Operands = name, operands
	}
}

// showDerived prepares the view of a derived experiment: operand markers
// and, for differences, diverging colours around zero.
func (w *Window) showDerived(doc *Document) {
	describeDerived(doc)
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

// windowTitle names a window by its experiment (view.WindowTitle).
func windowTitle(doc *Document) string { return view.WindowTitle(doc.info()) }
