package view

import "testing"

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
