package document

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/model"
	"cubeview/view"
)

// syncRun is a Runner that runs work and done at once, in order.
func syncRun(work, done func()) {
	work()
	done()
}

// busyLog is a Busy that records what it was told and how often it was
// stopped.
type busyLog struct {
	shown   []string
	stopped int
}

func (b *busyLog) busy(what string) func() {
	b.shown = append(b.shown, what)
	return func() { b.stopped++ }
}

func TestOperationCompute(t *testing.T) {
	a, b := &Doc{Exp: handMade(), Name: "a"}, &Doc{Exp: handMade(), Name: "b"}
	var log busyLog
	var got *Doc
	var err error
	done := func(d *Doc, e error) { got, err = d, e }

	Operation{Op: algebra.OpDiff, Operands: []*Doc{a}}.Compute(syncRun, log.busy, done)
	if err == nil || got != nil || len(log.shown) != 0 {
		t.Errorf("a difference of one: %v, %v, busy %q; want an error and nothing run", got, err, log.shown)
	}

	Operation{Op: algebra.OpDiff, Operands: []*Doc{a, b}}.Compute(syncRun, log.busy, done)
	if err != nil || got == nil {
		t.Fatalf("a − b: %v", err)
	}
	if got.Name != "a − b" || got.Expression != "a − b" || !slices.Equal(got.Operands, []string{"a", "b"}) || !slices.Equal(got.Sources, []*Doc{a, b}) {
		t.Errorf("result %+v", got)
	}
	if !slices.Equal(log.shown, []string{"Computing a − b …"}) || log.stopped != 1 {
		t.Errorf("busy %q, stopped %d times", log.shown, log.stopped)
	}

	// A metric of the same name in another unit cannot be integrated:
	// the error names the operation.
	c := &Doc{Exp: handMade(), Name: "c"}
	c.Exp.Metrics[0].Unit = "occ"
	Operation{Op: algebra.OpDiff, Operands: []*Doc{a, c}}.Compute(syncRun, log.busy, done)
	if err == nil || !strings.HasPrefix(err.Error(), "a − c: ") || got != nil || log.stopped != 2 {
		t.Errorf("a − c: %v, %v, stopped %d times", got, err, log.stopped)
	}
}

func TestEvaluateExpression(t *testing.T) {
	open := func(path string) (*model.Experiment, error) {
		if !strings.HasPrefix(path, "/runs/") {
			return nil, errors.New(path + ": no such file")
		}
		e := handMade()
		e.Source = path
		return e, nil
	}
	var log busyLog
	var got *Doc
	var message string
	var err error
	done := func(d *Doc, m string, e error) { got, message, err = d, m, e }

	EvaluateExpression("diff(/runs/before.cubex, /runs/after.cubex)", algebra.Options{}, open, syncRun, log.busy, done)
	if err != nil || got == nil {
		t.Fatalf("diff: %q, %v", message, err)
	}
	if got.Name != "before − after" || got.Expression != got.Name || !slices.Equal(got.Operands, []string{"before", "after"}) {
		t.Errorf("result named %q (%q), operands %q", got.Name, got.Expression, got.Operands)
	}
	if len(log.shown) != 1 || log.shown[0] != "Computing diff(/runs/before.cubex, /runs/after.cubex) …" || log.stopped != 1 {
		t.Errorf("busy %q, stopped %d times", log.shown, log.stopped)
	}

	for _, tt := range []struct{ text, message, err string }{
		{"/runs/before.cubex", "Could not evaluate the expression.", "is a file, not an operation"},
		{"diff(/runs/a.cubex", "Could not evaluate the expression.", ""},
		{"diff(nosuch.cubex, /runs/a.cubex)", "Could not evaluate diff(nosuch.cubex, /runs/a.cubex).", "nosuch.cubex: no such file"},
	} {
		got = &Doc{}
		EvaluateExpression(tt.text, algebra.Options{}, open, syncRun, log.busy, done)
		if got != nil || message != tt.message || err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, %q, %v; want the message %q and an error with %q", tt.text, got, message, err, tt.message, tt.err)
		}
	}
	if log.stopped != 2 {
		t.Errorf("busy stopped %d times, want once per evaluation started", log.stopped)
	}
}

func TestCutOperation(t *testing.T) {
	doc := &Doc{Exp: handMade(), Name: "x"}
	v := view.NewView(doc.Exp)
	mustUpdate(t, v)
	v.Select(view.CallPane, cFoo)
	o, err := CutOperation(v, doc, true)
	if err != nil || o.Op != algebra.OpCut || !slices.Equal(o.Cut.Prune, []string{"foo"}) || o.Cut.Reroot != nil || o.Operands[0] != doc {
		t.Errorf("prune: %+v, %v", o, err)
	}
	if o, err := CutOperation(v, doc, false); err != nil || !slices.Equal(o.Cut.Reroot, []string{"foo"}) || o.Cut.Prune != nil {
		t.Errorf("reroot: %+v, %v", o, err)
	}
	if got := o.Name(); got != "cut(x, prune foo)" {
		t.Errorf("name %q", got)
	}
	var none *view.View
	if _, err := CutOperation(none, nil, true); err == nil || err.Error() != "no experiment in this window" {
		t.Errorf("no view: %v", err)
	}
	v.SetFlat(true)
	mustUpdate(t, v)
	v.Select(view.CallPane, uFoo)
	if _, err := CutOperation(v, doc, true); err == nil || !strings.Contains(err.Error(), "select a call path") {
		t.Errorf("a cut at a Subroutines row: %v", err)
	}
}

func TestShowDerived(t *testing.T) {
	doc := &Doc{Exp: withProvenance(), Name: "delta.cubex", Path: "/runs/delta.cubex"}
	v := view.NewView(doc.Exp)
	ShowDerived(v, doc)
	if doc.Expression != "before − after" || !slices.Equal(v.Markers().Names(), []string{"before", "after"}) || !v.Appearance().Scale().Diverging {
		t.Errorf("difference: expression %q, markers %q, diverging %v", doc.Expression, v.Markers().Names(), v.Appearance().Scale().Diverging)
	}
	orig := &Doc{Exp: handMade(), Name: "a.cubex", Path: "/runs/a.cubex"}
	v = view.NewView(orig.Exp)
	ShowDerived(v, orig)
	if note, _ := view.NoteLine(v); note != "" || orig.Expression != "" || v.Markers().Names() != nil || v.Appearance().Scale().Diverging {
		t.Errorf("original: note %q, expression %q, markers %q, diverging %v", note, orig.Expression, v.Markers().Names(), v.Appearance().Scale().Diverging)
	}
}
