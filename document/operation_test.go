package document

import (
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/model"
	"cubeview/view"
)

func TestOperationNamesAndChecks(t *testing.T) {
	docs := []*Doc{
		{Path: "/r1/mm.cubex", Name: "mm.cubex"},
		{Path: "/r2/mm.cubex", Name: "mm.cubex"},
		{Name: "a − b", Expression: "a − b"},
		{Name: "scratch"},
	}
	if got, want := OperandNames(docs), []string{"r1/mm", "r2/mm", "a − b", "scratch"}; !slices.Equal(got, want) {
		t.Errorf("OperandNames = %q, want %q", got, want)
	}
	diff := Operation{Op: algebra.OpDiff, Operands: docs[:2]}
	if got := diff.Name(); got != "r1/mm − r2/mm" {
		t.Errorf("diff name %q", got)
	}
	if got := (Operation{Op: algebra.OpMean, Operands: docs[1:]}).Name(); got != "mean(mm, a − b, scratch)" { // one file: no folder needed
		t.Errorf("mean name %q", got)
	}
	cut := Operation{Op: algebra.OpCut, Operands: docs[:1], Cut: algebra.CutOptions{Prune: []string{"foo"}}}
	if got := cut.Name(); got != "cut(mm, prune foo)" {
		t.Errorf("cut name %q", got)
	}
	if cut.markerNames() != nil || !slices.Equal(diff.markerNames(), []string{"r1/mm", "r2/mm"}) {
		t.Error("marker names: a cut has none, a difference its operands'")
	}

	e := handMade()
	if err := (Operation{Op: algebra.OpDiff, Operands: []*Doc{{Exp: e}}}).Check(); err == nil {
		t.Error("a difference of one operand passed the check")
	}
	if err := (Operation{Op: algebra.OpDiff, Operands: []*Doc{{Exp: e}, nil}}).Check(); err == nil || !strings.Contains(err.Error(), "operand 2 is not an open experiment") {
		t.Errorf("closed operand: %v", err)
	}
	if err := (Operation{Op: algebra.OpCut, Operands: []*Doc{{Exp: e}}}).Check(); err == nil {
		t.Error("a cut without region passed the check")
	}
	res, err := (Operation{Op: algebra.OpDiff, Operands: []*Doc{{Exp: e}, {Exp: handMade()}}}).Evaluate()
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(res)
	mustUpdate(t, v)
	if got := v.Values().Value(view.CallPane, cMain); got != 0 {
		t.Errorf("a − a at main = %v, want 0", got)
	}
	if _, err := (Operation{Op: algebra.OpDiff, Operands: []*Doc{{Exp: e}}}).Evaluate(); err == nil {
		t.Error("Evaluate ran an operation that fails the check")
	}
}

func TestDocLabels(t *testing.T) {
	docs := []*Doc{
		{Path: "/x/tea_base/scout.cubex", Name: "scout.cubex"},
		{Path: "/x/tea_opt/scout.cubex", Name: "scout.cubex"},
		{Name: "before − after"},
		{Name: "before − after"},
	}
	want := []string{"…/tea_base/scout.cubex", "…/tea_opt/scout.cubex", "before − after (1)", "before − after (2)"}
	if got := Labels(docs); !slices.Equal(got, want) {
		t.Errorf("DocLabels = %q, want %q", got, want)
	}
}

func TestDerivedNames(t *testing.T) {
	name, ops, derived := derivedNames(withProvenance())
	if !derived || name != "before − after" || !slices.Equal(ops, []string{"before", "after"}) {
		t.Errorf("derivedNames = %q, %q, %v", name, ops, derived)
	}
	if !isDifference(withProvenance()) {
		t.Error("a difference is not one")
	}
	if _, _, derived := derivedNames(handMade()); derived || isDifference(handMade()) {
		t.Error("an original counts as derived")
	}
	// Written by another program: the expression as recorded, operands by file.
	e := handMade()
	e.Attrs = append(e.Attrs,
		model.Attr{Key: algebra.AttrExpression, Value: "subtract(before, after)"},
		model.Attr{Key: algebra.AttrOperand + "0", Value: "size=1;sha256=00;path=/r/before.cubex"},
		model.Attr{Key: algebra.AttrOperand + "1", Value: "expression=x"})
	if name, ops, derived := derivedNames(e); !derived || name != "subtract(before, after)" || !slices.Equal(ops, []string{"before", "x"}) {
		t.Errorf("derivedNames(foreign) = %q, %q, %v", name, ops, derived)
	}
}

func TestWindowTitle(t *testing.T) {
	for _, tt := range []struct {
		d    *Doc
		want string
	}{
		{&Doc{Name: "before.cubex"}, "cubeview — before.cubex"},
		{&Doc{Name: "a − b", Expression: "a − b"}, "cubeview — a − b"},
		{&Doc{Name: "saved.cubex", Expression: "a − b"}, "cubeview — saved.cubex (a − b)"},
	} {
		if got := WindowTitle(tt.d); got != tt.want {
			t.Errorf("WindowTitle(%+v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestCutRegion(t *testing.T) {
	v := view.NewView(handMade())
	mustUpdate(t, v)
	v.Select(view.CallPane, cBar3)
	if r, err := cutRegion(v); err != nil || r != "bar" {
		t.Errorf("CutRegion at bar = %q, %v", r, err)
	}
	v.SetFlat(true)
	mustUpdate(t, v)
	v.Select(view.CallPane, rFoo)
	if r, err := cutRegion(v); err != nil || r != "foo" {
		t.Errorf("CutRegion at flat foo = %q, %v", r, err)
	}
	v.Select(view.CallPane, uFoo)
	if _, err := cutRegion(v); err == nil {
		t.Error("a Subroutines row can be cut at")
	}
	v.Experiment().Regions[1].Name = " "
	v.Select(view.CallPane, rFoo)
	if _, err := cutRegion(v); err == nil || !strings.Contains(err.Error(), "no name") {
		t.Errorf("unnamed region: %v", err)
	}
}
