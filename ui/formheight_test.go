package ui

import (
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"cubeview/form"
)

// TestFormFitsWindow: a form taller than its window scrolls inside the
// dialog, so its buttons stay on the window; a small form does not.
func TestFormFitsWindow(t *testing.T) {
	test.NewTempApp(t)
	many := &form.Form{Title: "Scaling", Confirm: "Show"}
	for range 40 {
		many.Fields = append(many.Fields, &form.Field{Kind: form.CheckField, Label: "experiment"})
	}
	tall, _ := formContent(many, func() {})
	if tall.MinSize().Height <= 600 {
		t.Fatalf("40 check boxes are only %g high; the test needs a form taller than the window", tall.MinSize().Height)
	}
	got := fitHeight(tall, 600)
	if _, ok := got.(*container.Scroll); !ok || got.MinSize().Height > 0.75*600 {
		t.Errorf("a form %g high in a window 600 high: %T, %g high", tall.MinSize().Height, got, got.MinSize().Height)
	}
	few := &form.Form{Title: "Scaling", Confirm: "Show", Fields: []*form.Field{{Kind: form.CheckField, Label: "per visit"}}}
	small, _ := formContent(few, func() {})
	if got := fitHeight(small, 600); got != small {
		t.Errorf("a form %g high was wrapped in %T", small.MinSize().Height, got)
	}
}
