package algebra

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cubeview/model"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"a.cubex", "a.cubex"},
		{"diff(a.cubex,b.cubex)", "diff(a.cubex, b.cubex)"},
		{" diff ( mean(a.cubex,b.cubex,c.cubex) , mean(d.cubex,e.cubex) ) ", "diff(mean(a.cubex, b.cubex, c.cubex), mean(d.cubex, e.cubex))"},
		{"merge(../runs/x-1/profile.cubex, /tmp/y.cube.gz)", "merge(../runs/x-1/profile.cubex, /tmp/y.cube.gz)"},
		{`mean("my run.cubex", "odd,name(1).cubex")`, `mean("my run.cubex", "odd,name(1).cubex")`},
		{"diff", "diff"}, // a file named diff
		{`cut(a.cubex, reroot=main, prune="MPI_Send", prune=x)`, `cut(a.cubex, reroot="main", prune="MPI_Send", prune="x")`},
		{"mean(a, b)", "mean(a, b)"},
		{"diff(a,b)\n", "diff(a, b)"},
	}
	for _, tc := range tests {
		x, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := x.String(); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
		// The rendering parses back to itself.
		if y, err := Parse(x.String()); err != nil || y.String() != x.String() {
			t.Errorf("re-parse of %s: %v, %v", x, y, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		column int
		msg    string
	}{
		{"", 1, "want a file or an operator, found the end"},
		{"diff(a.cubex b.cubex)", 14, `want "," or ")" in the arguments of diff, found "b.cubex"`},
		{"diff(a.cubex, b.cubex", 22, "found the end of the expression"},
		{"diff(a.cubex)", 1, "diff takes two operands, got 1"},
		{"mean(a)", 1, "mean takes at least two operands, got 1"},
		{"merge(a)", 1, "merge takes at least two operands, got 1"},
		{"mean(a, diff(b, c, d))", 9, "diff takes two operands, got 3"},
		{"sum(a, b)", 1, `unknown operator "sum"`},
		{"mean(a, b))", 11, `unexpected ")" after the expression`},
		{"mean(, a)", 6, `want a file or an operator, found ","`},
		{`mean("a.cubex, b)`, 6, "string is not closed"},
		{"diff(a, reroot=x)", 9, `unknown argument "reroot" of diff`},
		{"cut(a)", 1, "cut needs at least one reroot=NAME or prune=NAME"},
		{"cut(a, b, prune=x)", 1, "cut takes one operand, got 2"},
		{"cut(a, prune=)", 14, "want a region name after prune="},
		{"mean()", 6, "want a file or an operator"},
		{"mean(ä, b c)", 11, `found "c"`}, // columns count characters
	}
	for _, tc := range tests {
		_, err := Parse(tc.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): error %v, want a SyntaxError", tc.in, err)
			continue
		}
		if se.Column() != tc.column || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q): column %d %q, want column %d %q", tc.in, se.Column(), se.Msg, tc.column, tc.msg)
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != 3 || strings.Index(lines[2], "^") != tc.column+1 {
			t.Errorf("Parse(%q): error display\n%s", tc.in, err)
		}
	}
}

// memOpener serves hand-made experiments by name and counts reads.
type memOpener struct {
	files map[string]*model.Experiment
	reads map[string]int
}

func (m *memOpener) open(path string) (*model.Experiment, error) {
	e, ok := m.files[path]
	if !ok {
		return nil, fmt.Errorf("%s: no such file", path)
	}
	m.reads[path]++
	return e, nil
}

func TestEval(t *testing.T) {
	a, b := handA(t), handB(t)
	mo := &memOpener{files: map[string]*model.Experiment{"a": a, "b": b}, reads: map[string]int{}}
	x, err := Parse("diff(mean(a, b, b), merge(a, b))")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Eval(x, mo.open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if mo.reads["a"] != 1 || mo.reads["b"] != 1 {
		t.Errorf("reads %v, want each file once", mo.reads)
	}
	if got, _ := r.Attr(AttrExpression); got != "diff(mean(a, b, b), merge(a, b))" {
		t.Errorf("expression %q", got)
	}
	// time at main/qux, location 0.0: mean = (0+3+3)/3 = 2, merge = 0 (a's time).
	if v := flatten(t, r)[vkey("time", "main@m.c/qux@m.c", "0.0")]; v != 2 {
		t.Errorf("time main/qux = %v, want 2", v)
	}
	// bytes at main/qux, 0.0: mean = 200/3, merge = 100.
	two := 200.0 // a variable, so the arithmetic is float64 and not exact constant arithmetic
	if v, w := flatten(t, r)[vkey("bytes", "main@m.c/qux@m.c", "0.0")], two/3-100; v != w {
		t.Errorf("bytes main/qux = %v, want %v", v, w)
	}
	// Nested provenance: operand 0 is the mean, whose operands are kept
	// below it; an operand recorded already is not recorded again (b as
	// the mean's third operand, a and b of the merge).
	for k, want := range map[string]string{
		AttrOperand + "0":    "expression=mean(a, b, b)",
		AttrOperand + "1":    "expression=merge(a, b)",
		AttrOperand + "0::0": "expression=a",
		AttrOperand + "0::1": "expression=b",
		AttrOperand + "0::2": "",
		AttrOperand + "1::0": "",
		AttrOperand + "1::1": "",
	} {
		if got, _ := r.Attr(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}

	x, _ = Parse("cut(mean(a, a), prune=foo)")
	r, err = Eval(x, mo.open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Attr(AttrExpression); got != `cut(mean(a, a), prune="foo")` {
		t.Errorf("expression %q", got)
	}

	x, _ = Parse("diff(a, missing)")
	if _, err := Eval(x, mo.open, Options{}); err == nil || !strings.Contains(err.Error(), "missing: no such file") {
		t.Errorf("missing operand: %v", err)
	}
}

// FuzzParse checks that any text parses or gives a SyntaxError with a
// position inside the text, and that a parsed expression renders to text
// that parses back to the same expression.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"diff(a.cubex, b.cubex)",
		`mean("x y.cubex", merge(a, b, c))`,
		`cut(a, reroot="main", prune=MPI_Send)`,
		"diff(mean(a,b,c), mean(d,e))",
		`"\u00e4\t"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(s) {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			_ = se.Error()
			return
		}
		y, err := Parse(x.String())
		if err != nil || y.String() != x.String() {
			t.Fatalf("Parse(%q) = %s, which re-parses to %v, %v", s, x, y, err)
		}
	})
}

func TestParseOptionsRoundTrip(t *testing.T) {
	rename := func(s string) Rename {
		r, err := ParseRename(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, o := range []Options{
		{}, {System: SystemCopy}, {System: SystemCollapse, StrictLines: true}, {StrictRoots: true},
		{Renames: []Rename{rename("tea_leaf_.*=tea_leaf"), rename(`(.*)_v2=${1}`), rename(`operator\=;"x"=op;"y"`)}},
	} {
		got, err := ParseOptions(o.String())
		if err != nil || got.String() != o.String() || len(got.Renames) != len(o.Renames) {
			t.Errorf("ParseOptions(%q) = %+v, %v; want %+v", o.String(), got, err, o)
		}
		for i, r := range o.Renames {
			if got.Renames[i].From != r.From || got.Renames[i].To != r.To {
				t.Errorf("rename %d: %+v, want %+v", i, got.Renames[i], r)
			}
		}
	}
	// Written before rename rules existed.
	if o, err := ParseOptions("system=auto;strict-lines=false"); err != nil || o.String() != (Options{}).String() {
		t.Errorf("old options: %+v, %v", o, err)
	}
	for _, bad := range []string{"system=sideways", "strict-lines=maybe", "colour=red", "strict-roots=x",
		`rename="a(=b"`, `rename="nothing"`, `rename="a=b`, `rename="a=b"x`, "system"} {
		if _, err := ParseOptions(bad); err == nil {
			t.Errorf("ParseOptions(%q) accepted", bad)
		}
	}
}

func TestRename(t *testing.T) {
	tests := []struct {
		rule, name, want string
		ok               bool
	}{
		{"tea_leaf_baseline=tea_leaf_optimized", "tea_leaf_baseline", "tea_leaf_optimized", true},
		{"foo=bar", "foobar", "foobar", false}, // whole names only
		{"solve_v[0-9]+=solve", "solve_v12", "solve", true},
		{`(\w+)_old=${1}`, "compute_old", "compute", true},
		{`operator\==assign`, "operator=", "assign", true},
		{"a|b=c", "b", "c", true},
	}
	for _, tt := range tests {
		r, err := ParseRename(tt.rule)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		got, ok := r.Apply(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s on %q = %q, %v; want %q, %v", tt.rule, tt.name, got, ok, tt.want, tt.ok)
		}
		back, err := ParseRename(r.String())
		if err != nil || back.From != r.From || back.To != r.To {
			t.Errorf("%s: String %q reads back as %+v, %v", tt.rule, r.String(), back, err)
		}
	}
	for _, bad := range []string{"", "=x", "noequals", "a(=b"} {
		if _, err := ParseRename(bad); err == nil {
			t.Errorf("ParseRename(%q) accepted", bad)
		}
	}
}

func TestOperatorTable(t *testing.T) {
	for _, o := range Operators {
		back, ok := OperatorByName(o.Name)
		if !ok || back.Op != o.Op || o.Op.String() != o.Name || o.Op.Title() != o.Title {
			t.Errorf("operator %+v does not round-trip (%+v, %v)", o, back, ok)
		}
		if o.CheckOperands(o.MinOperands) != nil || o.CheckOperands(o.MaxOperands) != nil ||
			o.CheckOperands(o.MinOperands-1) == nil || o.CheckOperands(o.MaxOperands+1) == nil {
			t.Errorf("%s: arity %d..%d not enforced", o.Name, o.MinOperands, o.MaxOperands)
		}
	}
	if _, ok := NoOp.Info(); ok || NoOp.String() != "" {
		t.Error("NoOp is in the table")
	}
}
