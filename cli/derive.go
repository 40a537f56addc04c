package cli

import (
	"fmt"
	"strings"

	"cubeview/format"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "derive",
		Summary: "add derived metrics (e.g. ipc = PAPI_TOT_INS / PAPI_TOT_CYC) and save",
		Usage: `usage: cubeview derive FILE 'NAME = EXPRESSION'… [--unit U] [--thresholds SPEC] -o OUT

Adds each derived metric to the experiment in FILE and writes the result to
OUT (.cubex, .cube or .cube.gz). An expression combines metric names
(uniq_name, double-quoted when it holds other characters), numbers, + − × ÷
(also written - * /) and parentheses, e.g.

  cubeview derive run.cubex 'l2_miss_ratio = PAPI_L2_DCM / PAPI_L1_DCM' -o out.cubex
  cubeview derive run.cubex 'mflops = PAPI_FP_OPS / time / 1e6' --unit MFLOP/s -o out.cubex

A derived metric is evaluated after aggregation at every node shown: at a
call path, a process or the whole program it is the expression of its
operands' values there (a ratio of sums, never a sum of ratios). Division
follows CubePL: 0 divided by anything is 0, any other value divided by 0 is
undefined, printed "—" (NaN in CSV). In a .cubex file it is stored as a CUBE 4 POSTDERIVED metric
with the CubePL expression, so the Cube tools compute it as well; cubeview
reads it back from there. A later expression may use an earlier one.

  --unit U            unit of the (last) new metric; default: derived from
                      the operands' units (sec/occ, or none for a ratio of
                      equal units)
  --thresholds SPEC   name ranges of the (last) new metric's values, e.g.
                      'poor < 0.5 < average < 1 < good' (values below 0.5
                      are poor, from 0.5 below 1 average, the rest good);
                      "cubeview tree" shows the name after each call path
  -o OUT              the file to write (required; not FILE itself)
  --force             replace OUT even when it is FILE`,
		Run: runDerive,
	})
}

func runDerive(env Env, args []string) error {
	fs := newFlagSet("derive")
	unit := fs.String("unit", "", "")
	thresholds := fs.String("thresholds", "", "")
	out := fs.String("o", "", "")
	force := fs.Bool("force", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("want FILE and at least one 'NAME = EXPRESSION', got %d arguments", len(pos))
	}
	if *out == "" {
		return usagef("-o OUT is required")
	}
	if !hasOutputExtension(*out) {
		return usagef("%s: unknown output format; the name must end in %s", *out, strings.Join(outputExtensions, ", "))
	}
	path := pos[0]
	if err := checkOutput(*out, []string{path}, *force); err != nil {
		return err
	}
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	for i, def := range pos[1:] {
		name, f, err := model.ParseDefinition(def)
		if err != nil {
			return usagef("%v", err)
		}
		// A formula names metrics exactly (CubePL); a name that is not
		// one gets the suggestions of every --metric.
		for _, ref := range f.Metrics() {
			if ref == name || e.MetricByName(ref) >= 0 {
				continue
			}
			m, err := metricIndex(e, path, ref)
			if err != nil {
				return fmt.Errorf("derived metric %q: %w", name, err)
			}
			return fmt.Errorf("derived metric %q: %s has no metric %q; did you mean %s? (a formula names metrics by their unique name, exactly)", name, path, ref, e.Metrics[m].UniqName)
		}
		d := model.DerivedMetric{UniqName: name, Formula: f}
		if i == len(pos)-2 {
			d.Unit, d.Thresholds = *unit, *thresholds
		}
		if e, err = e.WithDerived(d); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		m := e.MetricByName(name)
		total, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(env.Stdout, "%s = %s [%s]: whole program %s\n", name, f, orNone(e.Metrics[m].Unit), metricFormat(numfmt.Precise(), &e.Metrics[m]).Format(total, e.Metrics[m].IsInteger()))
	}
	return format.Write(*out, e) // a *format.Error naming the file
}
