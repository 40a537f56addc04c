package algebra

import (
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// nested returns mean(mean(…mean(a, a)…, a), a) with depth operators.
func nested(depth int) string {
	return strings.Repeat("mean(", depth) + "a" + strings.Repeat(", a)", depth)
}

// TestDeepExpression: an expression nested beyond the limit is refused
// at once with a clear error; one at the limit evaluates.
func TestDeepExpression(t *testing.T) {
	a := handA(t)
	open := func(string) (*model.Experiment, error) { return a, nil }
	var err error
	peak, d := testkit.Peak(func() {
		var x *Expr
		if x, err = Parse(nested(5000)); err == nil {
			_, err = Eval(x, open, Options{})
		}
	})
	t.Logf("calc nested 5,000 deep: peak heap %.1f MB, %v, error: %v", float64(peak)/(1<<20), d.Round(1e6), err)
	var se *SyntaxError
	if err == nil || !strings.Contains(err.Error(), "nested deeper than") {
		t.Errorf("error %v, want one about the nesting", err)
	} else if !errorsAs(err, &se) {
		t.Errorf("error %T, want a *SyntaxError", err)
	}
	x, err := Parse(nested(MaxDepth))
	if err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
	peak, d = testkit.Peak(func() {
		var r *model.Experiment
		if r, err = Eval(x, open, Options{}); err == nil {
			compareValues(t, "nested means", flatten(t, r), flatten(t, a), 1e-12)
		}
	})
	t.Logf("calc nested %d deep: peak heap %.1f MB, %v, error %v", MaxDepth, float64(peak)/(1<<20), d.Round(1e6), err)
	if err != nil {
		t.Fatal(err)
	}
}

// TestLongSyntaxErrorShowsContext: a long expression is shown around the
// problem, the caret under it.
func TestLongSyntaxErrorShowsContext(t *testing.T) {
	text := nested(MaxDepth + 1)
	_, err := Parse(text)
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || len([]rune(lines[1])) > 130 {
		t.Fatalf("error %q", err)
	}
	caret := strings.Index(lines[2], "^")
	if got := string([]rune(lines[1])[caret:]); !strings.HasPrefix(got, "mean(a, a)") {
		t.Errorf("caret under %q, want the innermost operator", got)
	}
}

// TestSharedOperandsRecordedOnce: a subexpression used twice is computed
// once and its operands are recorded once.
func TestSharedOperandsRecordedOnce(t *testing.T) {
	a, b := handA(t), handB(t)
	opened := 0
	open := func(name string) (*model.Experiment, error) {
		opened++
		if name == "a" {
			return a, nil
		}
		return b, nil
	}
	x, err := Parse("diff(mean(a, b), mean(a, b))")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Eval(x, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if opened != 2 {
		t.Errorf("%d files opened, want 2", opened)
	}
	var keys []string
	for _, at := range r.Attrs {
		if strings.HasPrefix(at.Key, AttrOperand) {
			keys = append(keys, strings.TrimPrefix(at.Key, AttrOperand)+"="+at.Value)
		}
	}
	want := []string{"0=expression=mean(a, b)", "1=expression=mean(a, b)", "0::0=expression=a", "0::1=expression=b"}
	if strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("operand records %q, want %q", keys, want)
	}
	if f := flatten(t, r); len(f) != 0 {
		t.Errorf("diff of equal means has %d non-zero values", len(f))
	}
}
