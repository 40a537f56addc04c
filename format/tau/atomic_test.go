package tau

import (
	"math"
	"strings"
	"testing"

	"cubeview/model"
)

// TestAtomicEventIsOneMetric: an atomic event becomes one metric, its
// mean, with its statistics below it; two threads' events at one call
// path pool into one mean and deviation (of all four values 16, 64, 1
// and 3, not the mean of the threads' means); names that differ only in
// punctuation stay apart and every formula can be written in CubePL.
func TestAtomicEventIsOneMetric(t *testing.T) {
	user0 := []string{`"Message size : .TAU application => MPI_Send()" 2 64 16 40 4352`, `"a-b" 1 1 1 1 1`, `"a b" 1 2 2 2 4`}
	user1 := []string{`"Message size : .TAU application => MPI_Send()" 2 3 1 2 10`}
	e := mustRead(t, map[string]string{
		"profile.0.0.0": prof("templated_functions_MULTI_TIME", nil, treeEvents, user0),
		"profile.1.0.0": prof("templated_functions_MULTI_TIME", nil, treeEvents, user1),
	})
	p := e.MetricByName("Message size")
	if p < 0 {
		t.Fatal("no metric of the event")
	}
	mean := &e.Metrics[p]
	if !mean.IsDerived() || mean.DispName != "Message size (mean)" || mean.Parent != -1 {
		t.Fatalf("event metric %+v", *mean)
	}
	var names []string
	for _, c := range mean.Children {
		m := &e.Metrics[c]
		names = append(names, m.DispName+"="+m.UniqName)
		if m.IsDerived() && !m.Formula.CubePLNames() || !mean.Formula.CubePLNames() {
			t.Errorf("%s: formula %s cannot be written in CubePL", m.UniqName, m.Formula)
		}
	}
	want := "Count=Message_size.count Min=Message_size.min Max=Message_size.max Std. dev.=Message_size.std Total=Message_size.sum Sum of squares=Message_size.sumsqr"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("children %s\nwant     %s", got, want)
	}
	send := e.CnodeByPath(".TAU application/MPI_Send()")
	values := map[string]float64{}
	for _, c := range append([]int{p}, mean.Children...) {
		v, err := e.CallTreeValues(model.MetricSel{Metric: c, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		values[e.Metrics[c].DispName] = v[send]
	}
	// Values 16, 64 (thread 0: mean 40, sumsqr 4352) and 1, 3 (thread 1).
	wantMean := (80.0 + 4) / 4
	wantStd := math.Sqrt((4352.0+10)/4 - wantMean*wantMean)
	for name, w := range map[string]float64{"Message size (mean)": wantMean, "Count": 4, "Min": 1, "Max": 64, "Std. dev.": wantStd, "Total": 84, "Sum of squares": 4362} {
		if got := values[name]; math.Abs(got-w) > 1e-9*w {
			t.Errorf("%s at MPI_Send: %v, want %v", name, got, w)
		}
	}
	if a, b := e.MetricByName("a-b"), e.MetricByName("a b"); a < 0 || b < 0 ||
		e.Metrics[e.Metrics[a].Children[0]].UniqName == e.Metrics[e.Metrics[b].Children[0]].UniqName {
		t.Errorf(`events "a-b" and "a b" share statistics`)
	}
	if err := e.Validate(); err != nil {
		t.Error(err)
	}
}

func TestPlainName(t *testing.T) {
	for in, want := range map[string]string{
		"Message size for reduce":          "Message_size_for_reduce",
		"Heap Memory Used (KB) at Exit":    "Heap_Memory_Used_KB_at_Exit",
		"  ":                               "event_",
		"4 KB pages":                       "event_4_KB_pages",
		"Größe":                            "Größe",
		"MPI-IO Bytes Written : main => f": "MPI_IO_Bytes_Written_main_f",
	} {
		if got := plainName(in); got != want {
			t.Errorf("plainName(%q) = %q, want %q", in, got, want)
		}
	}
}
