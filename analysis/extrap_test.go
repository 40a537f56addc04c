package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// extrapModel is what testdata/extrap_fit.py prints for one job.
type extrapModel struct {
	Name  string       `json:"name"`
	C0    float64      `json:"c0"`
	Terms [][3]float64 `json:"terms"` // polynomial exponent, log exponent, coefficient
	Text  string       `json:"text"`
	AR2   float64      `json:"ar2"`
}

type extrapJob struct {
	Name     string    `json:"name"`
	Xs       []float64 `json:"xs"`
	Ys       []float64 `json:"ys"`
	Negative bool      `json:"negative"`
}

// extrapFit runs Extra-P's own modeler (from the snapshot of
// extra-p/extrap, with a Python that has NumPy and SciPy) on jobs; the
// test is skipped with a message when either is absent.
func extrapFit(t *testing.T, jobs []extrapJob) []extrapModel {
	t.Helper()
	python := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import numpy, scipy").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("no Python 3 with NumPy and SciPy (Debian: python3-numpy python3-scipy) to run Extra-P's modeler")
	}
	paths, local := testkit.MirrorFiles(t, "extra-p/extrap", func(p string) bool {
		return strings.HasPrefix(p, "extrap/") && strings.HasSuffix(p, ".py")
	})
	root := ""
	for _, p := range paths {
		if p == "extrap/__init__.py" {
			root = strings.TrimSuffix(local[p], filepath.FromSlash("extrap/__init__.py"))
		}
	}
	if root == "" {
		t.Skip("the snapshot of extra-p/extrap has no extrap package")
	}
	in, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, filepath.Join("testdata", "extrap_fit.py"))
	cmd.Env = append(os.Environ(), "PYTHONPATH="+root)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("Extra-P's modeler did not run (%v): %s", err, stderr.String())
	}
	var models []extrapModel
	if err := json.Unmarshal(out, &models); err != nil || len(models) != len(jobs) {
		t.Fatalf("Extra-P's output: %v, %d models for %d jobs", err, len(models), len(jobs))
	}
	return models
}

// The model chosen for each call path of the matrix-multiply sweep and
// the LULESH weak-scaling series (inclusive and exclusive time, mean and
// slowest rank; with and without strong scaling's negative exponents)
// is the one Extra-P's basic modeler chooses, with its coefficients.
func TestModelsAgreeWithExtraP(t *testing.T) {
	var jobs []extrapJob
	type variant struct {
		excl bool
		b    Basis
		neg  bool
	}
	add := func(series string, trials []Trial, vs []variant) {
		for _, v := range vs {
			res, err := Series(trials, SeriesOptions{Metric: "time", Exclusive: v.excl, Weak: true, Basis: v.b})
			if err != nil {
				t.Fatal(err)
			}
			var xs []float64
			for _, tr := range res.Trials {
				xs = append(xs, tr.X)
			}
			for _, r := range res.Rows {
				jobs = append(jobs, extrapJob{Name: fmt.Sprintf("%s excl=%v %s neg=%v %s", series, v.excl, v.b, v.neg, r.CallPath), Xs: xs, Ys: r.Basis(v.b), Negative: v.neg})
			}
		}
	}
	var mm, lulesh []Trial
	for _, x := range []int{1, 10, 25, 50, 100, 250, 500, 1000, 2000} {
		path := testkit.Data(t, "cube4", "mm_sweep", fmt.Sprintf("mm.x%dy1z1.r1.cubex", x))
		mm = append(mm, Trial{Name: path, Exp: open(t, path), X: float64(x)})
	}
	for _, p := range []int{27, 64, 125, 216, 343} {
		path := testkit.Data(t, "cube4", "lulesh", fmt.Sprintf("lulesh.p%d.size25.r1.cubex", p))
		lulesh = append(lulesh, Trial{Name: path, Exp: open(t, path), X: float64(p)})
	}
	// Extra-P's modeler takes about 0.2 s a job here: a few variants only
	add("mm", mm, []variant{{true, BasisMean, false}, {true, BasisMean, true}})
	add("lulesh", lulesh, []variant{{true, BasisMean, false}, {false, BasisMean, false}, {false, BasisMax, true}})
	want := extrapFit(t, jobs)
	agree := 0
	for i, j := range jobs {
		got, err := FitModel(j.Xs, j.Ys, j.Negative)
		if err != nil {
			t.Errorf("%s: %v", j.Name, err)
			continue
		}
		w := want[i]
		same := len(w.Terms) == 0 && got.Constant ||
			len(w.Terms) == 1 && !got.Constant && w.Terms[0][0] == got.Term.Exponent() && w.Terms[0][1] == float64(got.Term.Log) &&
				withinRel(w.Terms[0][2], got.C1, 1e-6) && withinRel(w.C0, got.C0, 1e-6)
		if len(w.Terms) == 0 {
			same = same && withinRel(w.C0, got.C0, 1e-9)
		}
		if !same {
			t.Errorf("%s: %s; Extra-P: %s", j.Name, got.Format("x"), w.Text)
			continue
		}
		agree++
		if strings.HasSuffix(j.Name, "/int main(int, char**)") || strings.HasSuffix(j.Name, "mat_mul") {
			t.Logf("%s: %s, adj. R² %.4f (Extra-P: %s, its cross-validated adj. R² %.4f)", j.Name, got.Format("x"), got.AdjR2, w.Text, w.AR2)
		}
	}
	t.Logf("%d of %d models equal Extra-P's", agree, len(jobs))
}

func withinRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) < 1e-300
}
