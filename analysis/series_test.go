package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// ranksRun builds a run of p single-threaded ranks with the call tree
// main > {serial, solve} and the metrics time (sec) and visits: serial
// runs on rank 0 only for serialSec seconds, solve takes work/p seconds
// on every rank in iters visits.
func ranksRun(p int, serialSec, work float64, iters int) *model.Experiment {
	e := &model.Experiment{Source: fmt.Sprintf("p%d", p)}
	e.Metrics = []model.Metric{
		{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1},
		{ID: 1, UniqName: "visits", DispName: "Visits", DataType: "UINT64", Unit: "occ", Parent: -1, Identity: model.IdentityVisits},
	}
	e.Regions = []model.Region{{ID: 0, Name: "main"}, {ID: 1, Name: "serial"}, {ID: 2, Name: "solve"}}
	e.Cnodes = []model.Cnode{
		{ID: 0, Region: 0, Parent: -1, CallLine: -1},
		{ID: 1, Region: 1, Parent: 0, CallLine: -1},
		{ID: 2, Region: 2, Parent: 0, CallLine: -1},
	}
	e.System = []model.SystemNode{{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "m", Parent: -1}}
	for r := range p {
		g := len(e.System)
		e.System = append(e.System,
			model.SystemNode{ID: r, Kind: model.Group, Class: "process", Name: fmt.Sprintf("rank %d", r), Rank: r, Parent: 0},
			model.SystemNode{ID: r, Kind: model.Leaf, Class: "thread", Name: "t0", Parent: g})
	}
	e.Link()
	e.NumberLocations()
	tb, vb := model.NewBlock(3, p), model.NewBlock(3, p)
	for c, f := range []func(r int) (float64, float64){
		func(int) (float64, float64) { return 0.5, 1 },
		func(r int) (float64, float64) {
			if r == 0 {
				return serialSec, 1
			}
			return 0, 0
		},
		func(int) (float64, float64) { return work / float64(p), float64(iters) },
	} {
		trow, vrow := make([]float64, p), make([]float64, p)
		for r := range p {
			trow[r], vrow[r] = f(r)
		}
		tb.SetRow(c, trow)
		vb.SetRow(c, vrow)
	}
	e.SetBlock(0, tb)
	e.SetBlock(1, vb)
	return e
}

func rowNamed(t *testing.T, res *SeriesResult, path string) *SeriesRow {
	t.Helper()
	for i := range res.Rows {
		if res.Rows[i].CallPath == path {
			return &res.Rows[i]
		}
	}
	t.Fatalf("no call path %s", path)
	return nil
}

// A section that only rank 0 runs takes as long on 32 ranks as on 4: it
// does not scale, and its efficiency at 32 ranks is 4/32. The mean across
// ranks (10/4 → 10/32) made it look perfectly scaling.
func TestSeriesSerialSectionDoesNotScale(t *testing.T) {
	trials := []Trial{{Name: "p4", Exp: ranksRun(4, 10, 64, 100), X: 4}, {Name: "p32", Exp: ranksRun(32, 10, 64, 100), X: 32}}
	res, err := Series(trials, SeriesOptions{Metric: "time", Exclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Basis != BasisMax {
		t.Errorf("default basis for time: %v, want max", res.Basis)
	}
	serial := rowNamed(t, res, "main/serial")
	if got := serial.Efficiency[1]; math.Abs(got-0.125) > 1e-12 {
		t.Errorf("serial section: efficiency %v at 32 ranks, want 0.125", got)
	}
	solve := rowNamed(t, res, "main/solve")
	if got := solve.Efficiency[1]; math.Abs(got-1) > 1e-12 {
		t.Errorf("perfectly parallel solve: efficiency %v, want 1", got)
	}
	// the mean stays an option, and says what it said before
	res, err = Series(trials, SeriesOptions{Metric: "time", Exclusive: true, Basis: BasisMean})
	if err != nil {
		t.Fatal(err)
	}
	if got := rowNamed(t, res, "main/serial").Efficiency[1]; math.Abs(got-1) > 1e-12 {
		t.Errorf("--basis mean: efficiency %v, want 1", got)
	}
	// a count is not time: its default basis is the mean
	res, err = Series(trials, SeriesOptions{Metric: "visits", Exclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Basis != BasisMean {
		t.Errorf("default basis for visits: %v, want mean", res.Basis)
	}
}

// Per visit, a solver whose iteration count grows while each iteration
// gets cheaper is told apart from one whose cost per iteration grows.
func TestSeriesPerVisit(t *testing.T) {
	trials := []Trial{{Name: "p4", Exp: ranksRun(4, 10, 64, 100), X: 4}, {Name: "p16", Exp: ranksRun(16, 10, 64, 400), X: 16}}
	res, err := Series(trials, SeriesOptions{Metric: "time", Exclusive: true, PerVisit: true})
	if err != nil {
		t.Fatal(err)
	}
	solve := rowNamed(t, res, "main/solve")
	// 16 s / 100 visits per rank at 4 ranks; 4 s / 400 visits at 16
	if want := []float64{0.16, 0.01}; math.Abs(solve.Max[0]-want[0]) > 1e-12 || math.Abs(solve.Max[1]-want[1]) > 1e-12 {
		t.Errorf("per visit: max %v, want %v", solve.Max, want)
	}
	if want := 64.0 / 400; math.Abs(solve.Value[0]-want) > 1e-12 {
		t.Errorf("per visit over all ranks: %v, want %v (a ratio of sums)", solve.Value[0], want)
	}
	// ranks that never entered serial have no cost per visit: min is rank 0's
	if serial := rowNamed(t, res, "main/serial"); serial.Min[1] != 10 || serial.Mean[1] != 10 {
		t.Errorf("serial per visit: min %v mean %v, want 10 (rank 0 only)", serial.Min[1], serial.Mean[1])
	}
}

func TestSeriesRankGrowth(t *testing.T) {
	var trials []Trial
	for _, p := range []int{4, 8, 16, 32} {
		trials = append(trials, Trial{Name: fmt.Sprint(p), Exp: ranksRun(p, 10, 640, 100), X: float64(p)})
	}
	res, err := Series(trials, SeriesOptions{Metric: "time", Exclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	byValue, _ := res.Rank(RankValue, 1, 0)
	if byValue[0].CallPath != "main/solve" {
		t.Errorf("largest at the first run: %s, want main/solve", byValue[0].CallPath)
	}
	// main's own time and serial stay, solve shrinks
	byGrowth, keys := res.Rank(RankGrowth, 0, 0)
	if byGrowth[2].CallPath != "main/solve" || keys[0] != 1 || keys[1] != 1 {
		t.Errorf("by growth: %s %s %s (%v), want main/solve last, the others at 1", byGrowth[0].CallPath, byGrowth[1].CallPath, byGrowth[2].CallPath, keys)
	}
	// solve scales perfectly: 160 s → 20 s
	if r := rowNamed(t, res, "main/solve"); math.Abs(r.Growth(res.Basis)-0.125) > 1e-12 {
		t.Errorf("solve growth %v, want 0.125", r.Growth(res.Basis))
	}
	// with 4 runs each call path has a model: solve = 640/p, serial = 10
	solve := rowNamed(t, res, "main/solve")
	if solve.Model == nil || math.Abs(solve.Predict(64)-10) > 0.5 {
		t.Errorf("solve at 64 ranks: %v (model %+v), want about 10", solve.Predict(64), solve.Model)
	}
	if serial := rowNamed(t, res, "main/serial"); serial.Model == nil || !serial.Model.Constant || serial.Predict(1000) != 10 {
		t.Errorf("serial model %+v, want the constant 10", serial.Model)
	}
	byPredicted, _ := res.Rank(RankPredicted, 0, 1024)
	// serial 10 s, solve 640/1024 s, main's own 0.5 s
	if byPredicted[0].CallPath != "main/serial" || byPredicted[1].CallPath != "main/solve" {
		t.Errorf("at 1024 ranks: %s, %s first; want main/serial, main/solve", byPredicted[0].CallPath, byPredicted[1].CallPath)
	}
}

// A planted law y = 3 + 2·p^(1/3) with 1 % noise is found, as are laws
// with a logarithm and a quadratic one; a constant with noise stays
// constant.
func TestFitModelPlantedLaws(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{8, 27, 64, 125, 216, 343, 512}
	tests := []struct {
		term   Term
		c0, c1 float64
		noise  float64
	}{
		{Term{1, 3, 0}, 3, 2, 0.01},
		{Term{1, 1, 1}, 10, 0.5, 0.01},
		{Term{2, 1, 0}, 100, 0.01, 0.005},
		{Term{1, 2, 0}, 0, 4, 0.01},
		{Term{0, 1, 1}, 1, 1, 0.005},
	}
	for _, tt := range tests {
		ys := make([]float64, len(xs))
		for i, x := range xs {
			ys[i] = (tt.c0 + tt.c1*tt.term.Eval(x)) * (1 + tt.noise*(2*rng.Float64()-1))
		}
		m, err := FitModel(xs, ys, false)
		if err != nil {
			t.Fatal(err)
		}
		if m.Constant || m.Term != tt.term {
			t.Errorf("planted %s: fitted %s", tt.term.Format("p"), m.Format("p"))
			continue
		}
		if math.Abs(m.C1-tt.c1) > 0.05*tt.c1 || m.AdjR2 < 0.99 || m.SMAPE > 2*tt.noise*100 {
			t.Errorf("planted %g + %g·%s: fitted %s, adj. R² %v, SMAPE %v", tt.c0, tt.c1, tt.term.Format("p"), m.Format("p"), m.AdjR2, m.SMAPE)
		}
	}
	ys := []float64{5.01, 4.99, 5.02, 4.98, 5.0, 5.01, 4.99}
	if m, err := FitModel(xs, ys, false); err != nil || !m.Constant {
		t.Errorf("constant with noise: %+v %v", m, err)
	}
	if _, err := FitModel(xs[:3], ys[:3], false); err == nil {
		t.Error("3 points: no error")
	}
	if _, err := FitModel([]float64{1, 2, 0, 4}, ys[:4], false); err == nil {
		t.Error("x = 0: no error")
	}
}

// On the matrix-multiply sweep (x = 1 … 2000, one location) the
// multiplication grows as x³ in an O(x²)-element loop nest … the fits
// must describe the runs closely, and the model chosen must predict each
// left-out point better than the constant.
func TestSeriesModelsMatrixSweep(t *testing.T) {
	var trials []Trial
	re := regexp.MustCompile(`x(\d+)`)
	for _, x := range []int{1, 10, 25, 50, 100, 250, 500, 1000, 2000} {
		path := testkit.Data(t, "cube4", "mm_sweep", fmt.Sprintf("mm.x%dy1z1.r1.cubex", x))
		v, err := XFromName(re, path)
		if err != nil || v != float64(x) {
			t.Fatalf("x from %s: %v %v", path, v, err)
		}
		trials = append(trials, Trial{Name: path, Exp: open(t, path), X: v})
	}
	res, err := Series(trials, SeriesOptions{Metric: "time", Exclusive: true, Weak: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		b := r.Basis(res.Basis)
		if r.Model == nil {
			t.Errorf("%s: no model", r.CallPath)
			continue
		}
		t.Logf("%-16s %-40s adj. R² %.5f SMAPE %.2f%% (cross-validated %.2f%%)", r.CallPath, r.Model.Format("x"), r.Model.AdjR2, r.Model.SMAPE, r.Model.CVSMAPE)
		if b[len(b)-1] > 1 && r.Model.AdjR2 < 0.99 {
			t.Errorf("%s: %s, adj. R² %v", r.CallPath, r.Model.Format("x"), r.Model.AdjR2)
		}
	}
}

func TestXFromName(t *testing.T) {
	re := regexp.MustCompile(`x(\d+)`)
	for _, tt := range []struct {
		path string
		x    float64
		ok   bool
	}{
		{"/d/mm.x25y1z1.r1.cubex", 25, true},
		{"/d/x86_64/mm.x25y1z1.r1/profile.cubex", 25, true},
		{"/d/profile.cubex", 0, false},
		{"/d/mm.x0y1.cubex", 0, false},
	} {
		x, err := XFromName(re, tt.path)
		if (err == nil) != tt.ok || x != tt.x {
			t.Errorf("%s: %v %v", tt.path, x, err)
		}
	}
}

func TestWeakFromAttrs(t *testing.T) {
	names := []string{"a", "b", "c"}
	if w, known, err := WeakFromAttrs(names, []string{"", "weak", "Weak scaling"}); !w || !known || err != nil {
		t.Errorf("weak: %v %v %v", w, known, err)
	}
	if _, known, err := WeakFromAttrs(names, []string{"", "", ""}); known || err != nil {
		t.Errorf("none: %v %v", known, err)
	}
	if _, _, err := WeakFromAttrs(names, []string{"weak", "", "strong"}); err == nil {
		t.Error("disagreeing: no error")
	}
	if _, _, err := WeakFromAttrs(names, []string{"fast", "", ""}); err == nil {
		t.Error("neither: no error")
	}
}

func BenchmarkFitModel(b *testing.B) {
	xs := []float64{27, 64, 125, 216, 343}
	ys := []float64{71.8, 97.3, 122.8, 154.7, 180.2}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FitModel(xs, ys, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelerFit is the cost of one more call path of a series.
func BenchmarkModelerFit(b *testing.B) {
	m, err := NewModeler([]float64{27, 64, 125, 216, 343}, true)
	if err != nil {
		b.Fatal(err)
	}
	ys := []float64{71.8, 97.3, 122.8, 154.7, 180.2}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Fit(ys); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeriesLULESH: the five LULESH runs (27 to 343 processes),
// with a model per call path.
func BenchmarkSeriesLULESH(b *testing.B) {
	var trials []Trial
	for _, p := range []int{27, 64, 125, 216, 343} {
		path := testkit.Data(b, "cube4", "lulesh", fmt.Sprintf("lulesh.p%d.size25.r1.cubex", p))
		trials = append(trials, Trial{Name: path, Exp: open(b, path), X: float64(p)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Series(trials, SeriesOptions{Metric: "time", Weak: true}); err != nil {
			b.Fatal(err)
		}
	}
}
