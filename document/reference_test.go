package document

import "testing"

func TestDefaultReferenceAndName(t *testing.T) {
	before := &Doc{Exp: handMade(), Name: "before.cubex"}
	after := &Doc{Exp: handMade(), Name: "after.cubex"}
	diff := &Doc{Exp: handDiff(), Name: "before − after", Sources: []*Doc{before, after}}
	other := &Doc{Exp: handMade(), Name: "other.cubex"}
	for _, tt := range []struct {
		name string
		doc  *Doc
		open []*Doc
		want *Doc
	}{
		{"the minuend of a difference", diff, []*Doc{other, after, before, diff}, before},
		{"the subtrahend when the minuend was closed", diff, []*Doc{other, after, diff}, after},
		{"the first other experiment without open operands", diff, []*Doc{diff, other}, other},
		{"the first other experiment of an original", after, []*Doc{after, other, before}, other},
		{"none when alone", after, []*Doc{after}, nil},
		{"none without a document", nil, []*Doc{after}, nil},
	} {
		if got := DefaultReference(tt.doc, tt.open); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}

	open := []*Doc{before, diff}
	if got := ReferenceName(before.Exp, open); got != "before.cubex" {
		t.Errorf("open reference named %q", got)
	}
	after.Exp.Source = "/runs/after.cubex"
	if got := ReferenceName(after.Exp, open); got != "after (window closed)" {
		t.Errorf("closed reference named %q", got)
	}
	if got := ReferenceName(nil, open); got != "none" {
		t.Errorf("no reference named %q", got)
	}
}
