package dialogform

import (
	"errors"
	"strings"
	"testing"

	"cubeview/model"
	"cubeview/view"
)

func TestDerivedForm(t *testing.T) {
	e := handMade()
	var added []*model.Experiment
	f := NewDerivedForm(e, func(x *model.Experiment) error {
		added = append(added, x)
		return nil
	})
	if f.Focus != f.Name || !f.Expression.Monospace {
		t.Errorf("focus %v, expression monospace %v", f.Focus, f.Expression.Monospace)
	}
	_ = f.Set(f.Name, "time")
	if f.Name.Problem != "a metric of that name exists" {
		t.Errorf("existing name: problem %q", f.Name.Problem)
	}
	_ = f.Set(f.Name, "tpv")
	_ = f.Set(f.Expression, "time / (visits")
	if !strings.Contains(f.Expression.Problem, "column") {
		t.Errorf("bad expression: problem %q, want the column", f.Expression.Problem)
	}
	_ = f.Set(f.Thresholds, "low <")
	if err := f.Confirmed(); err == nil || len(added) != 0 {
		t.Fatalf("bad form confirmed: %v, added %d", err, len(added))
	}
	_ = f.Set(f.Expression, "time / visits")
	_ = f.Set(f.Thresholds, "low < 1 < high")
	if f.Expression.Problem != "" || f.Thresholds.Problem != "" {
		t.Errorf("problems %q, %q", f.Expression.Problem, f.Thresholds.Problem)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(added) != 1 || added[0].MetricByName("tpv") < 0 || e.MetricByName("tpv") >= 0 {
		t.Fatalf("added %d experiments; the new one must have tpv, the old one not", len(added))
	}
	// A problem WithDerived finds beyond the fields' checks goes under the
	// expression.
	f.Name.Text = " "
	if err := f.Submit(); err == nil || f.Expression.Problem != err.Error() {
		t.Errorf("empty name: %v, problem %q", err, f.Expression.Problem)
	}
}

func TestThresholdsForm(t *testing.T) {
	e, err := model.WithThresholds(handMade(), "time", "small < 10 < large")
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	mustUpdate(t, v)
	var set []string
	setter := func(uniq, s string) error {
		set = append(set, uniq+": "+s)
		if s == "fail" {
			return errors.New("no")
		}
		return nil
	}
	v.Select(view.MetricPane, mTime)
	f := ThresholdsForm(v, setter)
	x := f.Fields[0]
	if f.Title != "Thresholds of Time" || x.Text != "small < 10 < large" {
		t.Fatalf("title %q, text %q", f.Title, x.Text)
	}
	_ = f.Set(x, "small < x")
	if x.Problem == "" || f.Confirmed() == nil || len(set) != 0 {
		t.Errorf("bad thresholds: problem %q, set %q", x.Problem, set)
	}
	_ = f.Set(x, "")
	if err := f.Confirmed(); err != nil || len(set) != 1 || set[0] != "time: " {
		t.Errorf("empty thresholds: %v, set %q", err, set)
	}
	_ = f.Set(x, "fail")
	if err := f.Confirmed(); err == nil {
		t.Error("set's error is lost")
	}
}
