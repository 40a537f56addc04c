package algebra

import (
	"math"
	"slices"
	"strings"
	"testing"

	"cubeview/model"
)

// cpiRecordings are one program, MPI π on 4 ranks, recorded by five tools.
var cpiRecordings = []string{
	"cube4/cpi/profile.cubex",                    // Score-P: cpi/main/iteration/MPI_Bcast …
	"tau/cpi-mpi",                                // TAU, MPI only: .TAU application/MPI_Bcast() …
	"hpctoolkit/cpi-database-v2",                 // HPCToolkit 2017: <program root>/main/MPI_Init/PMPI_Init …
	"hpctoolkit/cpi-database-v4",                 // HPCToolkit sparse: <main thread>/main/cpi.c:40/PMPI_Bcast [libmpi…] …
	"caliper/cpi-json/cpi-callpath-profile.json", // Caliper sampling: _start/__libc_start_main/main/PMPI_Reduce …
}

// recordingNames name the recordings in subtests.
var recordingNames = []string{"scorep", "tau", "hpctoolkit-v2", "hpctoolkit-v4", "caliper"}

// mpiFunctions returns the canonical names of the MPI functions e has
// call paths of, and whether it has main.
func mpiFunctions(e *model.Experiment) (fns []string, hasMain bool) {
	for c := range e.Cnodes {
		n := CanonicalRegionName(e.CnodeRegion(c).Name)
		if n == "main" {
			hasMain = true
		}
		if strings.HasPrefix(n, "MPI_") && !slices.Contains(fns, n) {
			fns = append(fns, n)
		}
	}
	slices.Sort(fns)
	return fns, hasMain
}

// sharedRegions returns the canonical names of the regions of result
// call paths present in both operands.
func sharedRegions(ig *Integration) map[string]bool {
	out := map[string]bool{}
	for c, rc := range ig.Result.Cnodes {
		if rc.Present.Has(0) && rc.Present.Has(1) {
			out[CanonicalRegionName(ig.Result.CnodeRegion(c).Name)] = true
		}
	}
	return out
}

// TestCrossToolPairs compares every two of the five recordings of cpi, in
// both orders, with --map-metric CPUTIME=time: a time metric is shared
// (and visits where both count calls), the summary says how; main and
// every MPI function both recorded are on a call path matched in both;
// each matched call path's inclusive value in the result is each
// operand's own; and the difference's total is A's minus B's.
func TestCrossToolPairs(t *testing.T) {
	exps := make([]*model.Experiment, len(cpiRecordings))
	for i, f := range cpiRecordings {
		exps[i] = openReal(t, f)
	}
	opt := Options{MetricMaps: []MetricMap{{From: "CPUTIME", To: "time"}}}
	for i := range exps {
		for j := range exps {
			if i == j {
				continue
			}
			a, b := exps[i], exps[j]
			name := recordingNames[i] + "-" + recordingNames[j]
			t.Run(name, func(t *testing.T) {
				ig, err := Integrate([]*model.Experiment{a, b}, opt)
				if err != nil {
					t.Fatal(err)
				}
				report := strings.Join(ig.Report.Sentences(), "\n")
				// metrics
				rt, err := ig.MetricIndex(model.IdentityTime)
				if err != nil {
					t.Fatal(err)
				}
				if p := ig.Result.Metrics[rt].Present; !p.Has(0) || !p.Has(1) {
					t.Fatalf("no time metric in both: %s present in %b\n%s", ig.Result.Metrics[rt].UniqName, p, report)
				}
				ta, tb := a.Metrics[slices.Index(ig.Metrics[0], rt)], b.Metrics[slices.Index(ig.Metrics[1], rt)]
				switch {
				case ta.UniqName == tb.UniqName:
				case ta.Identity == tb.Identity:
					if !strings.Contains(report, "by canonical identity time (wall clock)") {
						t.Errorf("summary does not say %s = %s by identity:\n%s", ta.UniqName, tb.UniqName, report)
					}
				default:
					if !strings.Contains(report, "by --map-metric CPUTIME=time") {
						t.Errorf("summary does not name the mapping of %s and %s:\n%s", ta.UniqName, tb.UniqName, report)
					}
				}
				if countsVisits(a) && countsVisits(b) {
					rv, err := ig.MetricIndex(model.IdentityVisits)
					if err != nil || !ig.Result.Metrics[rv].Present.Has(0) || !ig.Result.Metrics[rv].Present.Has(1) {
						t.Errorf("both count visits, the result shares none (%v)", err)
					}
				}
				// call paths
				fa, mainA := mpiFunctions(a)
				fb, mainB := mpiFunctions(b)
				shared := sharedRegions(ig)
				if mainA && mainB && !shared["main"] {
					t.Errorf("main is in both but not matched\n%s", report)
				}
				for _, f := range fa {
					if slices.Contains(fb, f) && !shared[f] {
						t.Errorf("%s is in both but on no call path matched in both\n%s", f, report)
					}
				}
				// values: inclusive at every matched call path is each
				// operand's own
				d, err := Arithmetic(ig, OpDiff)
				if err != nil {
					t.Fatal(err)
				}
				checkMatchedInclusive(t, ig, rt)
				total, err := d.MetricTotal(model.MetricSel{Metric: rt, Inclusive: true})
				if err != nil {
					t.Fatal(err)
				}
				wa, _ := a.MetricTotal(model.MetricSel{Metric: slices.Index(ig.Metrics[0], rt), Inclusive: true})
				wb, _ := b.MetricTotal(model.MetricSel{Metric: slices.Index(ig.Metrics[1], rt), Inclusive: true})
				if math.Abs(total-(wa-wb)) > 1e-9*math.Max(1, math.Abs(wa)) {
					t.Errorf("difference of time: total %g, want %g − %g", total, wa, wb)
				}
			})
		}
	}
}

// checkMatchedInclusive checks that, for result metric rm, every result
// call path present in both operands holds in its subtree exactly each
// operand's inclusive value of its counterpart: frames skipped in matching
// never move an operand's values out of a matched subtree.
func checkMatchedInclusive(t *testing.T, ig *Integration, rm int) {
	t.Helper()
	res := ig.Result
	for i, e := range ig.Operands {
		m := slices.Index(ig.Metrics[i], rm)
		own, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, true)
		if err != nil {
			t.Fatal(err)
		}
		excl, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		// the operand's exclusive values placed on the result tree
		onResult := make([]float64, len(res.Cnodes))
		for c, v := range excl {
			onResult[ig.Cnodes[i][c]] += v
		}
		for _, c := range slices.Backward(res.CnodeOrder()) {
			if p := res.Cnodes[c].Parent; p >= 0 {
				onResult[p] += onResult[c]
			}
		}
		for c := range e.Cnodes {
			rc := ig.Cnodes[i][c]
			if pr := res.Cnodes[rc].Present; !pr.Has(0) || !pr.Has(1) {
				continue
			}
			if math.Abs(onResult[rc]-own[c]) > 1e-9*math.Max(1, math.Abs(own[c])) {
				t.Errorf("operand %d: %s holds %g below it in the result, %g in the operand", i, res.CallPath(rc), onResult[rc], own[c])
			}
		}
	}
}

// TestCrossToolSymmetric integrates every two recordings in both orders:
// the same call paths of the two operands are matched with each other.
func TestCrossToolSymmetric(t *testing.T) {
	exps := make([]*model.Experiment, len(cpiRecordings))
	for i, f := range cpiRecordings {
		exps[i] = openReal(t, f)
	}
	pairs := func(ig *Integration, swap bool) map[[2]int]bool {
		out := map[[2]int]bool{}
		inv := map[int]int{}
		for c, rc := range ig.Cnodes[1] {
			inv[rc] = c
		}
		for c, rc := range ig.Cnodes[0] {
			if o, ok := inv[rc]; ok {
				k := [2]int{c, o}
				if swap {
					k = [2]int{o, c}
				}
				out[k] = true
			}
		}
		return out
	}
	for i := range exps {
		for j := i + 1; j < len(exps); j++ {
			ab, err := Integrate([]*model.Experiment{exps[i], exps[j]}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ba, err := Integrate([]*model.Experiment{exps[j], exps[i]}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			pab, pba := pairs(ab, false), pairs(ba, true)
			for k := range pab {
				if !pba[k] {
					t.Errorf("%s with %s: %s matched %s one way only", cpiRecordings[i], cpiRecordings[j],
						exps[i].CallPath(k[0]), exps[j].CallPath(k[1]))
				}
			}
			for k := range pba {
				if !pab[k] {
					t.Errorf("%s with %s: %s matched %s the other way only", cpiRecordings[i], cpiRecordings[j],
						exps[i].CallPath(k[0]), exps[j].CallPath(k[1]))
				}
			}
		}
	}
}

// TestCPUTimeNeedsMapping: sampled CPU time and wall-clock time are not
// compared unless asked, and the summary names the option that does.
func TestCPUTimeNeedsMapping(t *testing.T) {
	a, b := openReal(t, "cube4/cpi/profile.cubex"), openReal(t, "hpctoolkit/cpi-database-v2")
	ig, err := Integrate([]*model.Experiment{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rt := ig.Result.MetricByName("time")
	if ig.Result.Metrics[rt].Present.Has(1) {
		t.Fatal("CPUTIME matched time without a mapping")
	}
	report := strings.Join(ig.Report.Sentences(), "\n")
	if !strings.Contains(report, "--map-metric 'CPUTIME=time'") {
		t.Errorf("the summary does not name --map-metric 'CPUTIME=time':\n%s", report)
	}
	// an unused rule is reported
	ig, err = Integrate([]*model.Experiment{a, b}, Options{MetricMaps: []MetricMap{{From: "PAPI_TOT_CYC", To: "time"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ig.Report.Unused, func(s string) bool { return strings.Contains(s, "PAPI_TOT_CYC=time") }) {
		t.Errorf("unused rule not reported: %q", ig.Report.Unused)
	}
}

// TestCrossToolFigures logs, per pair of recordings, the metrics and call
// paths matched in both operands (the figures of the comparison).
func TestCrossToolFigures(t *testing.T) {
	exps := make([]*model.Experiment, len(cpiRecordings))
	for i, f := range cpiRecordings {
		exps[i] = openReal(t, f)
	}
	for i := range exps {
		for j := i + 1; j < len(exps); j++ {
			ig, err := Integrate([]*model.Experiment{exps[i], exps[j]}, Options{MetricMaps: []MetricMap{{From: "CPUTIME", To: "time"}}})
			if err != nil {
				t.Fatal(err)
			}
			var metrics []string
			for _, m := range ig.Result.MetricOrder() {
				if p := ig.Result.Metrics[m].Present; p.Has(0) && p.Has(1) {
					metrics = append(metrics, ig.Result.Metrics[m].UniqName)
				}
			}
			paths := 0
			for _, c := range ig.Result.Cnodes {
				if c.Present.Has(0) && c.Present.Has(1) {
					paths++
				}
			}
			t.Logf("%-44s %-44s metrics %-14s call paths %d", cpiRecordings[i], cpiRecordings[j], strings.Join(metrics, ","), paths)
		}
	}
}

// countsVisits reports whether e has a metric with the visits identity.
func countsVisits(e *model.Experiment) bool {
	for _, m := range e.Metrics {
		if m.Identity == model.IdentityVisits {
			return true
		}
	}
	return false
}
