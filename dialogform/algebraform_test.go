package dialogform

import (
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/document"
)

// operandSource is an OperandSource over docs whose opening adds the
// next of more and whose computation records the operation.
type operandSource struct {
	docs, more []*document.Doc
	computed   []document.Operation
}

func (s *operandSource) src() OperandSource {
	open := func(then func(*document.Doc)) {
		d := s.more[0]
		s.more = s.more[1:]
		s.docs = append(s.docs, d)
		then(d)
	}
	return OperandSource{
		Docs:       func() []*document.Doc { return slices.Clone(s.docs) },
		OpenFile:   open,
		OpenFolder: open,
		Compute:    func(o document.Operation) { s.computed = append(s.computed, o) },
	}
}

// namedDoc returns a document of the hand-made experiment read from path.
func namedDoc(path string) *document.Doc {
	return &document.Doc{Exp: handMade(), Name: path[strings.LastIndex(path, "/")+1:], Path: path}
}

func TestOperationFormDifference(t *testing.T) {
	before, after := namedDoc("/r/before.cubex"), namedDoc("/r/after.cubex")
	s := &operandSource{docs: []*document.Doc{before, after}, more: []*document.Doc{namedDoc("/s/after.cubex")}}
	f := NewOperationForm(algebra.OpDiff, before, s.src())
	if f.Title != "Difference" || f.Minuend.Text != "before.cubex" || f.Subtrahend.Text != "after.cubex" {
		t.Fatalf("%s: %q − %q, want before.cubex − after.cubex", f.Title, f.Minuend.Text, f.Subtrahend.Text)
	}
	if f.Preview.Text != "Result: before − after" {
		t.Errorf("preview %q", f.Preview.Text)
	}
	// Each window offers the other experiment of a pair.
	if g := NewOperationForm(algebra.OpDiff, after, s.src()); g.Minuend.Text != "after.cubex" || g.Subtrahend.Text != "before.cubex" {
		t.Errorf("from after: %q − %q", g.Minuend.Text, g.Subtrahend.Text)
	}
	if err := f.Set(f.Subtrahend, "before.cubex"); err != nil || f.Preview.Text != "Result: before − before" {
		t.Errorf("subtrahend before: %v, preview %q", err, f.Preview.Text)
	}
	// Opening a file from the subtrahend's button offers it everywhere,
	// relabelled where two names are equal, and chooses it there.
	_ = f.Set(f.Minuend, "after.cubex")
	f.Subtrahend.Action()
	wantLabels := []string{"before.cubex", "/r/after.cubex", "/s/after.cubex"}
	if !slices.Equal(f.Minuend.Options, wantLabels) || !slices.Equal(f.Subtrahend.Options, wantLabels) {
		t.Errorf("options %q and %q, want %q", f.Minuend.Options, f.Subtrahend.Options, wantLabels)
	}
	if f.Minuend.Text != "/r/after.cubex" || f.Subtrahend.Text != "/s/after.cubex" {
		t.Errorf("after opening: %q − %q", f.Minuend.Text, f.Subtrahend.Text)
	}
	if f.Preview.Text != "Result: r/after − s/after" {
		t.Errorf("preview %q", f.Preview.Text)
	}
	if f.Field("Subtrahend").More[0].Text != "Open folder…" {
		t.Errorf("buttons %q, %+v", f.Subtrahend.Button, f.Subtrahend.More)
	}
	f.Opened(nil, f.Minuend) // could not be read: nothing changes
	if f.Minuend.Text != "/r/after.cubex" {
		t.Errorf("a failed opening changed the minuend to %q", f.Minuend.Text)
	}

	// Options: renaming rules, strict matching, system tree.
	if err := f.Set(f.Renames, "main=main\nsolve(=x"); err != nil {
		t.Fatal(err)
	}
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(f.Preview.Text, "line 2") || len(s.computed) != 0 {
		t.Errorf("bad rule: %v, preview %q, computed %d", err, f.Preview.Text, len(s.computed))
	}
	_ = f.Set(f.Renames, "\nfoo_v2=foo\n")
	f.SetOn(f.Strict, true)
	f.SetOn(f.StrictRoots, true)
	if err := f.Set(f.System, "collapse"); err != nil {
		t.Fatal(err)
	}
	if err := f.Confirmed(); err != nil || len(s.computed) != 1 {
		t.Fatalf("compute: %v, %d computed", err, len(s.computed))
	}
	r := s.computed[0]
	if r.Op != algebra.OpDiff || !slices.Equal(r.Operands, []*document.Doc{after, s.docs[2]}) {
		t.Errorf("computed %v of %v", r.Op, r.Operands)
	}
	if o := r.Options; !o.StrictLines || !o.StrictRoots || o.System != algebra.SystemCollapse || len(o.Renames) != 1 || o.Renames[0].String() != "foo_v2=foo" {
		t.Errorf("options %+v", o)
	}
	_ = f.Set(f.Minuend, "")
	if _, err := f.Request(); err == nil || err.Error() != "choose a minuend and a subtrahend" {
		t.Errorf("no minuend: %v", err)
	}
}

func TestOperationFormList(t *testing.T) {
	a, b := namedDoc("/r/a.cubex"), namedDoc("/r/b.cubex")
	derived := &document.Doc{Exp: handDiff(), Name: "a − b", Expression: "a − b"}
	c := namedDoc("/r/c.cubex")
	s := &operandSource{docs: []*document.Doc{a, derived, b}, more: []*document.Doc{c}}
	f := NewOperationForm(algebra.OpMerge, b, s.src())
	// This window's experiment first; files checked, results not.
	if !slices.Equal(f.Operands.Options, []string{"b.cubex", "a.cubex", "a − b"}) || !slices.Equal(f.Operands.Checked, []bool{true, true, false}) {
		t.Fatalf("list %q %v", f.Operands.Options, f.Operands.Checked)
	}
	if f.Preview.Text != "Result: merge(b, a)" || !strings.Contains(f.Fields[2].Text, "Order matters") {
		t.Errorf("preview %q, note %q", f.Preview.Text, f.Fields[2].Text)
	}
	f.Move(f.Operands, 0, 1)
	if got := f.Selected(); !slices.Equal(got, []*document.Doc{a, b}) || f.Preview.Text != "Result: merge(a, b)" {
		t.Errorf("after moving b down: %v, preview %q", got, f.Preview.Text)
	}
	// The button below the list opens an experiment and checks it last.
	f.Fields[1].Action()
	if !slices.Equal(f.Operands.Options, []string{"a.cubex", "b.cubex", "a − b", "c.cubex"}) || !slices.Equal(f.Selected(), []*document.Doc{a, b, c}) {
		t.Errorf("after opening c: %q %v", f.Operands.Options, f.Operands.Checked)
	}
	f.CheckOnly(derived, c)
	if !slices.Equal(f.Operands.Options, []string{"a − b", "c.cubex", "a.cubex", "b.cubex"}) || !slices.Equal(f.Selected(), []*document.Doc{derived, c}) {
		t.Errorf("CheckOnly: %q %v", f.Operands.Options, f.Operands.Checked)
	}
	if err := f.Confirmed(); err != nil || len(s.computed) != 1 || s.computed[0].Name() != "merge(a − b, c)" {
		t.Errorf("compute: %v, %v", err, s.computed)
	}

	m := NewOperationForm(algebra.OpMean, a, s.src())
	m.CheckOnly(b)
	if err := m.Confirmed(); err == nil || !strings.Contains(err.Error(), "at least two") || !strings.Contains(m.Preview.Text, "at least two") {
		t.Errorf("mean of one: %v, preview %q", err, m.Preview.Text)
	}
	if !strings.Contains(m.Fields[2].Text, "divided by their number") {
		t.Errorf("mean note %q", m.Fields[2].Text)
	}
}

func TestPairChoice(t *testing.T) {
	a, b, c := namedDoc("/r/a.cubex"), namedDoc("/r/b.cubex"), namedDoc("/r/c.cubex")
	result := func(op algebra.Op, ds ...*document.Doc) *document.Doc {
		o := document.Operation{Op: op, Operands: ds}
		e, err := o.Evaluate()
		if err != nil {
			t.Fatal(err)
		}
		return o.Result(e)
	}
	cb, ab := result(algebra.OpDiff, c, b), result(algebra.OpDiff, a, b)
	mean := result(algebra.OpMean, a, b)
	for _, tt := range []struct {
		docs          []*document.Doc
		current       *document.Doc
		first, second int
	}{
		{[]*document.Doc{a, b, c}, a, 0, 1},
		{[]*document.Doc{a, b, c}, c, 2, 0}, // wraps around
		{[]*document.Doc{a}, a, 0, 0},
		{[]*document.Doc{a, b}, c, -1, 0}, // not open: none first, the first open second
		// A difference offers its operands, not itself.
		{[]*document.Doc{a, b, c, cb}, cb, 2, 1},
		{[]*document.Doc{ab, a, c}, ab, 1, 2},     // b is not open: a, then c
		{[]*document.Doc{cb, ab}, ab, 1, 1},       // nothing else open
		{[]*document.Doc{cb, ab, b}, ab, 2, 2},    // b only
		{[]*document.Doc{a, b, mean}, mean, 2, 0}, // a mean is an experiment as others
	} {
		if f, s := PairChoice(tt.docs, tt.current); f != tt.first || s != tt.second {
			t.Errorf("PairChoice(%d docs, %s) = %d, %d; want %d, %d", len(tt.docs), tt.current.Name, f, s, tt.first, tt.second)
		}
	}
}

func TestSystemModeNamed(t *testing.T) {
	for i, name := range algebraSystemModes {
		if got := algebraSystemMode(name); got != algebra.SystemMode(i) {
			t.Errorf("algebraSystemMode(%q) = %v", name, got)
		}
	}
	if algebraSystemMode("nonsense") != algebra.SystemAuto {
		t.Error("an unknown choice is not automatic")
	}
}

func TestParseRenames(t *testing.T) {
	renames, err := parseRenames("\n main_(.*)=main \n\n")
	if err != nil || len(renames) != 1 || renames[0].From != "main_(.*)" || renames[0].To != "main" {
		t.Fatalf("parseRenames = %v, %v", renames, err)
	}
	if rules, err := parseRenames("a=b\nno rule"); err == nil || rules != nil || !strings.Contains(err.Error(), "line 2 of the renaming rules") {
		t.Errorf("a line without '=': %v, %v; want an error naming line 2", rules, err)
	}
}
