package cli

import (
	"encoding/csv"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// cpiOperands returns the cpi program as recorded by several tools. TAU's
// profile takes part once the TAU importer reads it.
func cpiOperands(t *testing.T) []string {
	t.Helper()
	ops := []string{
		testkit.Data(t, "cube4", "cpi", "profile.cubex"),
		testkit.Data(t, "hpctoolkit", "cpi-database-v2"),
		testkit.Data(t, "caliper", "cpi-json", "cpi-callpath-profile.json"),
	}
	tau := testkit.Data(t, "tau", "cpi-mpi")
	if _, err := format.Open(tau); err == nil {
		ops = append(ops, tau)
	} else {
		t.Logf("TAU profile not part of the comparison yet: %v", err)
	}
	return ops
}

// regionNames counts, per name, the regions that cnodes refer to.
func regionNames(e *model.Experiment) map[string]int {
	used := map[int]bool{}
	for _, c := range e.Cnodes {
		used[c.Region] = true
	}
	out := map[string]int{}
	for r := range used {
		out[e.Regions[r].Name]++
	}
	return out
}

// TestCrossToolDiff computes the difference of every two recordings of
// cpi by different tools: "cubeview calc" writes it, regions of the same
// name are one region, every call path carries the marker of the operand
// that has it, and each metric's total is A's total minus B's of the
// metrics matched onto it.
func TestCrossToolDiff(t *testing.T) {
	ops := cpiOperands(t)
	exps := make([]*model.Experiment, len(ops))
	for i, p := range ops {
		e, err := format.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		exps[i] = e
	}
	common := 0
	for i := range ops {
		for j := range ops {
			if i == j {
				continue
			}
			a, b := exps[i], exps[j]
			name := filepath.Base(ops[i]) + "-" + filepath.Base(ops[j])
			t.Run(name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "diff.cubex")
				if status, _, errOut := run("calc", "diff("+ops[i]+", "+ops[j]+")", "-o", out); status != 0 {
					t.Fatalf("calc: status %d: %s", status, errOut)
				}
				if _, err := format.Open(out); err != nil {
					t.Fatalf("the written difference does not open: %v", err)
				}
				d, err := algebra.Diff(a, b, algebra.Options{})
				if err != nil {
					t.Fatal(err)
				}
				// regions matched by name: a name both tools saw is as many
				// regions as the operand with more of them has
				na, nb, nd := regionNames(a), regionNames(b), regionNames(d)
				for n, ca := range na {
					if cb, ok := nb[n]; ok {
						common++
						if nd[n] != max(ca, cb) {
							t.Errorf("region %q: %d in the difference, %d and %d in the operands", n, nd[n], ca, cb)
						}
					}
				}
				// only-in markers: each operand's call paths are marked
				var inA, inB, onlyA, onlyB int
				for _, c := range d.Cnodes {
					inA += btoi(c.Present.Has(0))
					inB += btoi(c.Present.Has(1))
					onlyA += btoi(c.Present.Has(0) && !c.Present.Has(1))
					onlyB += btoi(c.Present.Has(1) && !c.Present.Has(0))
				}
				if inA != len(a.Cnodes) || inB != len(b.Cnodes) || onlyA == 0 || onlyB == 0 {
					t.Errorf("markers: %d call paths of A (has %d), %d of B (has %d); only in A %d, only in B %d",
						inA, len(a.Cnodes), inB, len(b.Cnodes), onlyA, onlyB)
				}
				// values: each result metric's total is A's total of the
				// metric matched onto it minus B's (canonical identities
				// match time and TIME, visits and Calls)
				ig, err := algebra.Integrate([]*model.Experiment{a, b}, algebra.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for m := range d.Metrics {
					met := &d.Metrics[m]
					if met.Aggregation != model.Sum || met.Formula != nil {
						continue // a derived metric is a ratio, not a difference
					}
					total, err := d.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
					if err != nil {
						t.Fatal(err)
					}
					want := 0.0
					for k, op := range []*model.Experiment{a, b} {
						if om := slices.Index(ig.Metrics[k], ig.Result.MetricByName(met.UniqName)); om >= 0 {
							v, err := op.MetricTotal(model.MetricSel{Metric: om, Inclusive: true})
							if err != nil {
								t.Fatal(err)
							}
							want += v * float64(1-2*k)
						}
					}
					if math.Abs(total-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Errorf("%s: total %g, want %g", met.UniqName, total, want)
					}
				}
			})
		}
	}
	if common == 0 {
		t.Error("no region name is common to two tools' recordings of cpi")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFlatOnImportedFormats runs "cubeview flat --csv" on a sample of
// each imported format and compares its top row with the model's flat
// profile of the same metric.
func TestFlatOnImportedFormats(t *testing.T) {
	files := []struct {
		path   []string
		metric string
	}{
		{[]string{"pprof", "java.cpu"}, "cpu"},
		{[]string{"pprof", "cppbench.heap"}, "space"},
		{[]string{"callgrind", "selinux.callgrind"}, "Ir"},
		{[]string{"hpctoolkit", "cpi-database-v2"}, "CPUTIME"},
		{[]string{"hpctoolkit", "vectorAdd-metadb"}, "cycles"},
		{[]string{"caliper", "cpi-json", "cpi-callpath-profile.json"}, "sum#time.duration"},
	}
	for _, f := range files {
		path := testkit.Data(t, f.path...)
		t.Run(filepath.Base(path), func(t *testing.T) {
			status, out, errOut := run("flat", path, "--metric", f.metric, "--csv")
			if status != 0 {
				t.Fatalf("flat: status %d: %s", status, errOut)
			}
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(rows) < 2 || strings.Join(rows[0], ",") != "region,exclusive,inclusive,visits" {
				t.Fatalf("flat --csv output %q (%v)", out, err)
			}
			e, err := format.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			m := e.MetricByName(f.metric)
			excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			top := 0
			for r := range excl {
				if excl[r] > excl[top] {
					top = r
				}
			}
			gotExcl, err1 := strconv.ParseFloat(rows[1][1], 64)
			gotIncl, err2 := strconv.ParseFloat(rows[1][2], 64)
			if err1 != nil || err2 != nil || gotExcl != excl[top] || gotIncl != incl[top] || gotExcl <= 0 {
				t.Errorf("top row %v, the model's top region %q has %g, %g", rows[1], e.Regions[top].Name, excl[top], incl[top])
			}
		})
	}
}

// TestDiffAcrossTools prints the difference of the cpi run measured by
// Score-P and by TAU: time and TAU's TIME are one metric, so both columns
// hold values and the summary says how they were matched.
func TestDiffAcrossTools(t *testing.T) {
	scorep := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	tau := testkit.Data(t, "tau", "cpi-mpi")
	status, out, errOut := run("diff", scorep, tau, "--top", "0")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{
		"B: " + tau + " (total 0.2140, its metric TIME)",
		"matched: metric time: time (operand 0) = TIME (operand 1), by canonical identity time (wall clock)",
		"regions matched by canonical name: MPI_Init() (operand 1) = MPI_Init",
		"call paths of operand 1 matched through frames it did not record (main, iteration)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	rows, _ := parseDiffTable(t, out)
	both := 0
	for _, r := range rows {
		if r.a != 0 && r.b != 0 {
			both++
		}
	}
	if both < 6 { // the root, MPI_Init, _Comm_size, _Comm_rank, _Bcast, _Reduce, _Finalize
		t.Errorf("%d call paths with values in both A and B, want at least 6:\n%s", both, out)
	}
}

// TestDiffNeverSilent: a difference one operand contributes nothing to is
// refused with the option that helps, not printed as A alone.
func TestDiffNeverSilent(t *testing.T) {
	scorep := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	hpc := testkit.Data(t, "hpctoolkit", "cpi-database-v2")
	status, out, errOut := run("diff", scorep, hpc)
	if status == 0 || !strings.Contains(errOut, "has no metric matching") || !strings.Contains(errOut, "--map-metric 'CPUTIME=time'") {
		t.Errorf("CPU time against wall-clock time: status %d, stderr %q, stdout %q", status, errOut, out)
	}
	status, out, errOut = run("diff", scorep, hpc, "--map-metric", "CPUTIME=time")
	if status != 0 || !strings.Contains(out, "its metric CPUTIME") || !strings.Contains(out, "by --map-metric CPUTIME=time") {
		t.Errorf("with --map-metric: status %d, stderr %q, stdout\n%s", status, errOut, out)
	}
	// --strict-roots keeps the roots apart: then nothing is shared
	status, _, errOut = run("diff", scorep, testkit.Data(t, "tau", "cpi-mpi"), "--strict-roots")
	if status == 0 || !strings.Contains(errOut, "share no call path") || !strings.Contains(errOut, "--rename") {
		t.Errorf("no shared call path: status %d, stderr %q", status, errOut)
	}
	if status, _, errOut := run("diff", scorep, hpc, "--map-metric", "CPUTIME"); status != 2 || !strings.Contains(errOut, "FROM=TO") {
		t.Errorf("bad --map-metric: status %d, stderr %q", status, errOut)
	}
}

// TestCalcSaysWhatMatched: calc writes the difference across tools and
// prints what was matched and what was not compared.
func TestCalcSaysWhatMatched(t *testing.T) {
	scorep := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	hpc := testkit.Data(t, "hpctoolkit", "cpi-database-v4")
	out := filepath.Join(t.TempDir(), "d.cubex")
	status, stdout, errOut := run("calc", "diff("+scorep+", "+hpc+")", "-o", out)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{
		"the program's call-tree roots",
		"--map-metric 'CPUTIME=time' compares them",
		"metrics only in operand 0, so not compared: visits, time",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	status, stdout, errOut = run("calc", "diff("+scorep+", "+hpc+")", "-o", out, "--force", "--map-metric", "CPUTIME=time")
	if status != 0 || !strings.Contains(stdout, "metric time: time (operand 0) = CPUTIME (operand 1), by --map-metric CPUTIME=time") {
		t.Errorf("status %d, stderr %q, stdout\n%s", status, errOut, stdout)
	}
	e, err := format.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := algebra.ReadProvenance(e)
	if err != nil || !slices.ContainsFunc(p.Matching, func(s string) bool { return strings.Contains(s, "--map-metric CPUTIME=time") }) ||
		len(p.Opts.MetricMaps) != 1 || p.Opts.MetricMaps[0].String() != "CPUTIME=time" {
		t.Errorf("provenance %+v (%v)", p, err)
	}
}

// TestSeriesAcrossTools: a series over trials of different tools takes
// each trial's own metric matched to the one named.
func TestSeriesAcrossTools(t *testing.T) {
	scorep := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	tau := testkit.Data(t, "tau", "cpi-mpi")
	status, out, errOut := run("series", scorep, tau, "--metric", "TIME", "--x", "1,2", "--csv")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "MPI_Bcast") {
		t.Errorf("no MPI_Bcast row in\n%s", out)
	}
	status, _, errOut = run("series", scorep, testkit.Data(t, "hpctoolkit", "cpi-database-v2"), "--metric", "time", "--x", "1,2")
	if status == 0 || !strings.Contains(errOut, "--map-metric") {
		t.Errorf("a trial without wall-clock time: status %d, stderr %q", status, errOut)
	}
}
