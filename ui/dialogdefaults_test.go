package ui

import (
	"slices"
	"testing"

	"cubeview/algebra"
)

// TestDialogsFromDifferenceWindow checks that the analysis dialogs
// opened in the window of before − after start with its operands, before
// and after, and not with the difference itself (they offered it as A
// and checked it among the scaling study's runs).
func TestDialogsFromDifferenceWindow(t *testing.T) {
	a := newTestApp(t)
	bw, _ := openPair(t, a)
	dw := submit(t, a, bw.dialogs.newOperationForm(algebra.OpDiff))
	if dw.doc.Expression == "" {
		t.Fatalf("window %q holds no result", dw.win.Title())
	}
	pf := dw.dialogs.newPerfDiffForm()
	if a, b := pf.A.CheckedOptions(), pf.B.CheckedOptions(); !slices.Equal(a, []string{"before.cubex"}) || !slices.Equal(b, []string{"after.cubex"}) {
		t.Errorf("Where did it change… from the difference window: A %q, B %q; want before.cubex and after.cubex", a, b)
	}
	of := dw.dialogs.newOperationForm(algebra.OpDiff)
	if of.Minuend.Text != "before.cubex" || of.Subtrahend.Text != "after.cubex" {
		t.Errorf("Difference… from the difference window: %q − %q; want before.cubex − after.cubex", of.Minuend.Text, of.Subtrahend.Text)
	}
	for _, f := range []struct {
		name    string
		options []string
		checked []bool
	}{
		{"Scaling…", dw.dialogs.newScalingForm().Experiments.Options, dw.dialogs.newScalingForm().Experiments.Checked},
		{"Mean…", dw.dialogs.newOperationForm(algebra.OpMean).Operands.Options, dw.dialogs.newOperationForm(algebra.OpMean).Operands.Checked},
	} {
		for i, o := range f.options {
			want := o == "before.cubex" || o == "after.cubex"
			if f.checked[i] != want {
				t.Errorf("%s from the difference window: %q checked %v, want %v", f.name, o, f.checked[i], want)
			}
		}
	}
}
