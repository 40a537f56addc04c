package form

import (
	"slices"
	"strings"
	"testing"
)

// TestFormUpdate: a change from outside the fields is shown by the
// dialog's Redraw; a combo field takes any text, offered or not.
func TestFormUpdate(t *testing.T) {
	combo := &Field{Kind: ComboField, Label: "Application", Options: []string{"lulesh"}}
	f := &Form{Fields: []*Field{combo}}
	f.Update(func() { combo.Text = "before Redraw is set" }) // no dialog yet: nothing to redraw
	redrawn := 0
	f.Redraw = func() {
		redrawn++
		if combo.Text != "cpi" {
			t.Errorf("redrawn before the change: %q", combo.Text)
		}
	}
	f.Update(func() { combo.Text = "cpi" })
	if redrawn != 1 {
		t.Errorf("redrawn %d times, want once", redrawn)
	}
	if err := f.Set(combo, "a new application"); err != nil || combo.Text != "a new application" {
		t.Errorf("combo field refused a new text: %v", err)
	}
}

func TestFormFields(t *testing.T) {
	list := &Field{Kind: ListField, Options: []string{"a", "b", "c"}, Checked: []bool{true, false, true}}
	choice := &Field{Kind: ChoiceField, Label: "Pick", Options: []string{"x", "y"}}
	var changes []string
	f := &Form{Title: "T", Fields: []*Field{choice, list}, Changed: func(x *Field) { changes = append(changes, x.Label+"|"+x.Text) }}
	if err := f.Set(choice, "z"); err == nil {
		t.Error("an option not offered was chosen")
	}
	if err := f.Set(choice, "y"); err != nil || choice.Index() != 1 {
		t.Errorf("Set(y): %v, index %d", err, choice.Index())
	}
	f.Move(list, 2, -1)
	f.Move(list, 0, -1) // out of range: nothing
	if got := strings.Join(list.CheckedOptions(), ","); got != "a,c" || strings.Join(list.Options, ",") != "a,c,b" {
		t.Errorf("after moving c up: options %q checked %q", list.Options, got)
	}
	f.SetChecked(list, 2, true)
	if got := strings.Join(list.CheckedOptions(), ","); got != "a,c,b" {
		t.Errorf("checked %q", got)
	}
	if len(changes) != 3 || changes[0] != "Pick|y" {
		t.Errorf("Changed ran for %q, want Pick|y and two list changes", changes)
	}
	if err := f.Confirmed(); err == nil {
		t.Error("a form without Submit was confirmed")
	}
	f.CheckOnly(list, []string{"b", "x", "a", "b"})
	if got := strings.Join(list.Options, ","); got != "b,a,c" || !slices.Equal(list.Checked, []bool{true, true, false}) {
		t.Errorf("CheckOnly(b, x, a, b): options %q checked %v, want b,a,c with b and a checked", got, list.Checked)
	}
}
