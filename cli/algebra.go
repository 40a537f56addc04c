package cli

import (
	"flag"
	"fmt"
	"strings"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/model"
)

const systemFlagsUsage = `

Call paths, metrics and locations present in only some operands are kept;
a missing value counts as 0. Processes match by rank and threads by rank
within their process, whatever the node names. The machine/node hierarchy
is copied from an operand that holds every process when every operand's
processes that share a node also share one there; otherwise it is
collapsed to one machine and one node.

Options:
  -o OUT              output file; the format follows the extension
                      (.cubex, .cube, .cube.gz); never one of the inputs
  --force             replace OUT even when it is one of the inputs
  --copy-system       always copy an operand's machine/node hierarchy
  --collapse-system   always collapse it to one machine and one node
  --strict-lines      also match region lines and call-site lines
  --strict-roots      keep call-tree roots of different regions apart; by
                      default, when every operand has a single root, the
                      roots match whatever their names (Score-P names the
                      root after the executable)
  --rename 'OLD=NEW'  rename regions before matching, for functions renamed
                      between versions: OLD is a regular expression that
                      must match the whole name, NEW may use $1…; repeat
                      for several rules, applied in order (\= for a '='
                      in OLD); recorded in the result` + matchingUsage

// matchingUsage describes how operands recorded by different tools are
// matched, and --map-metric; every command that combines experiments
// shows it.
const matchingUsage = `
  --map-metric 'FROM=TO'
                      compare metric FROM as metric TO, e.g. sampled CPU
                      time as wall-clock time: --map-metric 'CPUTIME=time';
                      FROM and TO are unique names or canonical identities
                      (time, cputime, visits, bytes_sent, bytes_received,
                      PAPI_…); repeatable; recorded in the result

Operands recorded by different tools match although the tools name things
differently. Metrics match by unique name, then by canonical identity when
unit and meaning agree: Score-P's time, TAU's TIME, Caliper's
sum#time.duration and HPCToolkit's REALTIME are wall-clock time, and the
visit counts are visits. Sampled CPU time (HPCToolkit's CPUTIME, gprof)
is another quantity than wall-clock time and matches it only through
--map-metric. Regions match by name, then by canonical name: without a
parameter list, return type, trailing [file/line or library] or PMPI_
prefix ("MPI_Bcast()" and "PMPI_Bcast" are MPI_Bcast). Each tool's root
above main (Score-P's program region, HPCToolkit's <main thread>, TAU's
.TAU application, Caliper's _start) is one root, and a frame only one tool
recorded (TAU's MPI-only profile has no main) is skipped when matching
the other's call paths below it. A flat profile compares with a call tree
per region. The summary says what was matched this way.`

func init() {
	register(&Command{
		Name:    "diff",
		Summary: "difference A − B of two experiments: to a file (-o) or the top changes printed",
		Usage: `usage: cubeview diff A B [-o OUT [--force]] [--copy-system|--collapse-system] [--strict-lines]
       [--strict-roots] [--rename OLD=NEW]… [--map-metric FROM=TO]…
       cubeview diff A B [-o -] [--top N] [--metric NAME] [--incl] [--exact] [matching options]
       cubeview diff --groups A1 A2 [A3…] -- B1 B2 [B3…] [options below]

Writes the difference A − B of two experiments: positive where A spent
more. Unsigned integer metrics become signed; min/max metrics are
subtracted element by element and marked approximate.

Without -o (or with -o -) it prints instead the call paths whose value
changed most, largest |A − B| first: the value in A, in B, A − B and A − B
as a percentage of A's total, call paths matched as in the written
difference.
  --top N         print the N call paths that changed most (default 20;
                  0: every changed one)
  --metric NAME   the metric: unique or display name, any case (default:
                  time, or else the first metric that has values)
  --incl          inclusive values (with everything called below) instead
                  of each call path's own
  --exact         values in full precision instead of 4 significant digits` + groupsUsage + systemFlagsUsage,
		Run: func(env Env, args []string) error {
			if hasFlag(args, "groups") {
				return runGroupDiff(env, args)
			}
			return runOperator(env, algebra.OpDiff, args)
		},
	})
	register(&Command{
		Name:    "merge",
		Summary: "merge experiments (each metric from the first operand that has it)",
		Usage: `usage: cubeview merge A B [C…] -o OUT [--prefer first|last] [--force] [--copy-system|--collapse-system]
       [--strict-lines] [--strict-roots] [--rename OLD=NEW]… [--map-metric FROM=TO]…

Writes the union of the experiments, so runs that measured different
metrics (hardware counters, say) combine into one experiment. A metric that
several operands have takes its values from the FIRST operand that has it
(the rule of the algebra's paper). CubeLib's cube_merge keeps the LAST:
there a later operand's values replace an earlier one's wherever it stores
a value. Derived metrics are computed from the merged values.

  --prefer first|last  which operand's values a shared metric keeps:
                       first (default) or last, as cube_merge does` + systemFlagsUsage,
		Run: func(env Env, args []string) error { return runOperator(env, algebra.OpMerge, args) },
	})
	register(&Command{
		Name:    "mean",
		Summary: "mean of experiments ((A + B + …) / n)",
		Usage: `usage: cubeview mean A B [C…] -o OUT [--force] [--copy-system|--collapse-system] [--strict-lines]
       [--strict-roots] [--rename OLD=NEW]… [--map-metric FROM=TO]…

Writes the mean (A + B + …) / n of the experiments; a value present in only
some of them is still divided by n. Integer metrics become DOUBLE.` + systemFlagsUsage,
		Run: func(env Env, args []string) error { return runOperator(env, algebra.OpMean, args) },
	})
	register(&Command{
		Name:    "cut",
		Summary: "reroot and prune the call tree of an experiment",
		Usage: `usage: cubeview cut [--reroot NAME]… [--prune NAME]… IN -o OUT [--force]

Writes IN with its call tree cut. Repeat a flag for several regions; at
least one is needed.
  --reroot NAME   keep only the subtrees of call paths ending in region
                  NAME; they become the roots
  --prune NAME    remove the subtrees of call paths ending in region NAME,
                  adding their inclusive values to the parent's own values
  -o OUT          output file; the format follows the extension; never IN
  --force         replace OUT even when it is IN`,
		Run: runCut,
	})
	register(&Command{
		Name:    "calc",
		Summary: "evaluate an algebra expression over files",
		Usage: `usage: cubeview calc EXPR -o OUT [--force] [--copy-system|--collapse-system] [--strict-lines]
       [--strict-roots] [--rename OLD=NEW]… [--map-metric FROM=TO]…

Evaluates EXPR and writes the result, e.g.
  cubeview calc 'diff(mean(a.cubex, b.cubex, c.cubex), mean(d.cubex, e.cubex))' -o delta.cubex
Operators: diff(A, B), merge(A, …), mean(A, …),
cut(A, reroot=NAME, prune=NAME, …). Operands are file names (quote names
containing spaces, commas, parentheses or "=" with double quotes) or nested
expressions. Each file is read once.` + systemFlagsUsage,
		Run: runCalc,
	})
}

// algebraFlags registers the options shared by the operators: the output
// and the matching options (matchingFlags).
func algebraFlags(fs *flag.FlagSet) (out *string, force *bool, opts func() (algebra.Options, error)) {
	out = fs.String("o", "", "output file")
	force = fs.Bool("force", false, "replace the output even when it is an input")
	return out, force, matchingFlags(fs)
}

// matchingFlags registers the options that say how the operands of a
// command that combines experiments are matched — every such command
// (diff, merge, mean, calc, perfdiff, series) has them — and returns
// the function that reads them after parsing.
func matchingFlags(fs *flag.FlagSet) func() (algebra.Options, error) {
	cp := fs.Bool("copy-system", false, "always copy an operand's machine/node hierarchy")
	col := fs.Bool("collapse-system", false, "always collapse the machine/node hierarchy")
	strict := fs.Bool("strict-lines", false, "also match region and call-site lines")
	strictRoots := fs.Bool("strict-roots", false, "keep roots of different regions apart")
	var renames, maps stringList
	fs.Var(&renames, "rename", "region renaming rule OLD=NEW")
	fs.Var(&maps, "map-metric", "metric mapping FROM=TO")
	return func() (algebra.Options, error) {
		opt := algebra.Options{StrictLines: *strict, StrictRoots: *strictRoots}
		for _, r := range renames {
			rule, err := algebra.ParseRename(r)
			if err != nil {
				return opt, usagef("--rename: %v", err)
			}
			opt.Renames = append(opt.Renames, rule)
		}
		for _, m := range maps {
			rule, err := algebra.ParseMetricMap(m)
			if err != nil {
				return opt, usagef("--map-metric: %v", err)
			}
			opt.MetricMaps = append(opt.MetricMaps, rule)
		}
		switch {
		case *cp && *col:
			return opt, usagef("--copy-system and --collapse-system exclude each other")
		case *cp:
			opt.System = algebra.SystemCopy
		case *col:
			opt.System = algebra.SystemCollapse
		}
		return opt, nil
	}
}

func needOutput(out string) error {
	if out == "" {
		return usagef("no output file: give -o OUT")
	}
	if !hasOutputExtension(out) {
		return usagef("%s: unknown output format; the name must end in %s", out, strings.Join(outputExtensions, ", "))
	}
	return nil
}

func runOperator(env Env, op algebra.Op, args []string) error {
	o, _ := op.Info()
	minOps, maxOps := o.MinOperands, o.MaxOperands
	fs := newFlagSet(o.Name)
	out, force, options := algebraFlags(fs)
	var table diffTableOptions
	if op == algebra.OpDiff {
		table = diffTableFlags(fs)
	}
	prefer := "first"
	if op == algebra.OpMerge {
		fs.StringVar(&prefer, "prefer", "first", "which operand's values a shared metric keeps")
	}
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	opt, err := options()
	if err != nil {
		return err
	}
	switch prefer {
	case "first":
	case "last":
		opt.PreferLast = true
	default:
		return usagef("--prefer %q: want first or last", prefer)
	}
	switch {
	case len(files) == 0:
		return usagef("no operands")
	case len(files) < minOps || len(files) > maxOps:
		if minOps == maxOps {
			return usagef("want %d operands, got %d", minOps, len(files))
		}
		return usagef("want %d to %d operands, got %d", minOps, maxOps, len(files))
	}
	if op == algebra.OpDiff {
		if *out == "" || *out == "-" {
			return printDiff(env, files[0], files[1], opt, table)
		}
		if table.given(fs) {
			return usagef("--top, --metric, --incl and --exact print a table: leave out -o")
		}
	}
	if err := needOutput(*out); err != nil {
		return err
	}
	x := &algebra.Expr{Op: op}
	for _, f := range files {
		x.Args = append(x.Args, &algebra.Expr{File: f})
	}
	return evalAndWrite(env, x, opt, *out, *force)
}

func runCut(env Env, args []string) error {
	fs := newFlagSet("cut")
	out := fs.String("o", "", "output file")
	force := fs.Bool("force", false, "replace the output even when it is the input")
	var reroot, prune stringList
	fs.Var(&reroot, "reroot", "region whose call paths become the roots")
	fs.Var(&prune, "prune", "region whose call paths are pruned into their parents")
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("want one input file, got %d", len(files))
	}
	if len(reroot)+len(prune) == 0 {
		return usagef("give at least one --reroot NAME or --prune NAME")
	}
	if err := needOutput(*out); err != nil {
		return err
	}
	x := &algebra.Expr{Op: algebra.OpCut, Args: []*algebra.Expr{{File: files[0]}}, Reroot: reroot, Prune: prune}
	return evalAndWrite(env, x, algebra.Options{}, *out, *force)
}

func runCalc(env Env, args []string) error {
	fs := newFlagSet("calc")
	out, force, options := algebraFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	opt, err := options()
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one EXPR argument (quote it for the shell), got %d", len(pos))
	}
	if err := needOutput(*out); err != nil {
		return err
	}
	x, err := algebra.Parse(pos[0])
	if err != nil {
		return err
	}
	if x.Op == algebra.NoOp {
		return fmt.Errorf("expression %q is a file, not an operation", pos[0])
	}
	return evalAndWrite(env, x, opt, *out, *force)
}

// evalAndWrite evaluates x, writes the result to out and reports it. Out
// must not be one of x's files unless force is set.
func evalAndWrite(env Env, x *algebra.Expr, opt algebra.Options, out string, force bool) error {
	if err := checkOutput(out, x.Files(), force); err != nil {
		return err
	}
	res, err := algebra.Eval(x, openOperand, opt)
	if err != nil {
		return err
	}
	if err := format.Write(out, res); err != nil {
		return err // a *format.Error naming the file
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %s\n", out, res.Source)
	if sys, ok := res.Attr(algebra.AttrSystem); ok {
		fmt.Fprintf(env.Stdout, "system tree %s\n", sys)
	}
	if roots, ok := res.Attr(algebra.AttrRoots); ok {
		fmt.Fprintf(env.Stdout, "%s (--strict-roots keeps them apart)\n", roots)
	}
	printMatching(env, res)
	printOnlyIn(env, res)
	return nil
}

// printMatching prints what the result's integration matched other than
// by equal names, and what it did not compare and why, a line each.
func printMatching(env Env, e *model.Experiment) {
	p, ok, err := algebra.ReadProvenance(e)
	if !ok || err != nil {
		return
	}
	for _, s := range p.Matching {
		fmt.Fprintln(env.Stdout, s)
	}
}

// printOnlyIn summarises how much of the result comes from only some
// operands, so a user notices mismatched inputs.
func printOnlyIn(env Env, e *model.Experiment) {
	p, ok, err := algebra.ReadProvenance(e)
	if !ok || err != nil || len(p.Operands) < 2 {
		return
	}
	all := model.Mask(1)<<uint(len(p.Operands)) - 1
	count := func(n int, present func(int) model.Mask) int {
		k := 0
		for i := 0; i < n; i++ {
			if present(i)&all != all {
				k++
			}
		}
		return k
	}
	metrics := count(len(e.Metrics), func(i int) model.Mask { return e.Metrics[i].Present })
	cnodes := count(len(e.Cnodes), func(i int) model.Mask { return e.Cnodes[i].Present })
	locs := count(len(e.Locations), func(i int) model.Mask { return e.Location(i).Present })
	if metrics+cnodes+locs > 0 {
		fmt.Fprintf(env.Stdout, "not in every operand: %d of %d metrics, %d of %d call paths, %d of %d locations\n",
			metrics, len(e.Metrics), cnodes, len(e.Cnodes), locs, len(e.Locations))
	}
}
