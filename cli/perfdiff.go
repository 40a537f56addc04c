package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cubeview/analysis"
	"cubeview/analysis/significance"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "perfdiff",
		Summary: "find where two experiments differ (Karavanic & Miller's performance difference)",
		Usage: `usage: cubeview perfdiff A B --metric UNIQ --delta D [--relative] [--top N] [--csv]
       [--copy-system|--collapse-system] [--strict-lines] [--strict-roots] [--rename OLD=NEW]…
       [--map-metric FROM=TO]…
   or: cubeview perfdiff A1 A2 [A3…] -- B1 B2 [B3…] --metric UNIQ --delta D
       [--test welch|mann-whitney] [--alpha Q] [--significant] [--where FILTER] [options above]

Compares metric UNIQ of experiments A and B focus by focus, a focus being a
call path (call-tree inclusive) on a system node (aggregated over the
locations below it). The experiments are matched as "cubeview diff"
matches them.

What only one experiment has — a call path filtered out of one run, a
process only one run had, a metric only one run measured — is a structural
difference: it is printed first, apart, with its value in the experiment
that has it ("absent" in the other), and left out of the comparison, which
covers the part both have.

The search starts at the whole program. A focus differs when the change
below it reaches D: the sum of |A − B| over every call path's own value on
every location below it (for min, max and derived metrics the largest
|A − B| at or below it), so time that moved between call paths or ranks is
found even where the net A − B is about zero. A differing focus is
magnified into each focus one step below it: each callee, the call path's
own part "(self)" and each child system node.

Prints the differing foci with both values, A − B and the change below
it. A focus is most specific (marked *) when no focus one step below it
differs; those come first, then the rest, each by decreasing change: the
first N (--top, default 50), kept while searching without holding the
others. --top 0 prints every differing focus as the search finds it, in
call-tree order (a call path's own part, its callees, then the call path
itself, each on its system nodes), nothing held or sorted, the counts
after the table.
"Most specific" says where the search ends, not that a difference is
statistically significant. For a derived metric A and B are each
experiment's value of the formula and A − B their difference ("—" where a
value is undefined, e.g. a division by zero).

Groups of repeated runs: with "--" between them, the runs before it are
group A and those after it group B (each at least two runs; a run is a
file, repo:ID, or repo:key=value,… naming every trial that meets the
conditions, further restricted by --where FILTER). All runs are matched
together; the common part is what some run of A and some run of B have.
A group's value at a focus is the mean over its runs (a run lacking a call
path counts 0), shown with the standard deviation, and the search runs on
the means. At every differing focus the runs are tested — Welch's t-test,
or with --test mann-whitney the Mann–Whitney U test — and the p-values of
all differing foci are adjusted by Benjamini–Hochberg into q-values
(with --delta 0 every focus with any change is tested). "significant"
means q < α (--alpha, default 0.05), and only that. Extra columns: the
standard deviations, the 95 % confidence interval of the difference of
the means (ci_low, ci_high), p, q, the effect size (Hedges' g: A − B in
pooled standard deviations) and "sig" where significant.
  --significant        print only the significant foci

  --metric UNIQ        the metric (stored or derived)
  --delta D            the smallest change that counts
  --relative           D is a fraction of the whole-program value (the larger
                       of the two), e.g. 0.01 for 1 %
  --top N              print the N first foci (text default 50; CSV default 0:
                       every focus, in call-tree order)
  --csv                print CSV (every focus in call-tree order, or with
                       --top N the N first in the text's order):
                       kind,call_path,system,a,b,difference,change,most_specific
                       and for groups also
                       sd_a,sd_b,ci_low,ci_high,p,q,effect,significant
                       kind is only_in_a, only_in_b (structural: the other
                       side's value is empty), metric_only_in_a,
                       metric_only_in_b (whole-program value), or differs
  --copy-system, --collapse-system, --strict-lines, --strict-roots,
  --rename 'OLD=NEW', --map-metric 'FROM=TO'
                       match the experiments as "cubeview diff" does (see
                       "cubeview diff -h"); UNIQ may name the metric as
                       either experiment does, or by its canonical identity`,
		Run: runPerfDiff,
	})
}

func runPerfDiff(env Env, args []string) error {
	fs := newFlagSet("perfdiff")
	metric := fs.String("metric", "", "")
	delta := fs.String("delta", "", "")
	relative := fs.Bool("relative", false, "")
	asCSV := fs.Bool("csv", false, "")
	top := fs.Int("top", -1, "")
	test := fs.String("test", "welch", "")
	alpha := fs.Float64("alpha", significance.DefaultAlpha, "")
	onlySignificant := fs.Bool("significant", false, "")
	where := fs.String("where", "", "")
	options := matchingFlags(fs)
	var pos, opsA, opsB []string
	var err error
	grouped := slices.Contains(args, "--")
	if grouped {
		opsA, opsB, err = splitGroups(fs, args)
	} else {
		pos, err = parseArgs(fs, args)
	}
	if err != nil {
		return err
	}
	opt, err := options()
	if err != nil {
		return err
	}
	var sigTest significance.Test
	switch strings.ToLower(*test) {
	case "welch", "t", "welch-t":
		sigTest = significance.Welch
	case "mann-whitney", "mannwhitney", "u", "wilcoxon":
		sigTest = significance.MannWhitney
	default:
		return usagef("--test %q: want welch or mann-whitney", *test)
	}
	if *alpha <= 0 || *alpha >= 1 {
		return usagef("--alpha %g: want a false-discovery rate between 0 and 1", *alpha)
	}
	if *top < -1 {
		return usagef("--top %d: want N ≥ 0 (0: every focus)", *top)
	}
	if *top < 0 {
		*top = defaultPerfDiffTop
		if *asCSV {
			*top = 0
		}
	}
	na := 1
	if grouped {
		if pos, na, err = groupRuns(opsA, opsB, *where); err != nil {
			return err
		}
		grouped = len(pos) > 2
	} else if *where != "" {
		return usagef("--where filters the repository trials of groups of runs (A1 A2 -- B1 B2)")
	}
	if !grouped {
		var groupOnly string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "test", "alpha", "significant":
				groupOnly = f.Name
			}
		})
		if groupOnly != "" {
			return usagef("--%s tests groups of repeated runs: A1 A2 … -- B1 B2 …", groupOnly)
		}
	}
	if !grouped && len(pos) != 2 {
		return usagef("want two experiments A and B, got %d arguments", len(pos))
	}
	if *metric == "" {
		return usagef("--metric is required")
	}
	if *delta == "" {
		return usagef("--delta is required")
	}
	d, err := strconv.ParseFloat(*delta, 64)
	if err != nil || d < 0 || math.IsInf(d, 0) || math.IsNaN(d) {
		return usagef("--delta %q: want a number ≥ 0", *delta)
	}
	exps, err := openRuns(pos)
	if err != nil {
		return err
	}
	if *metric, err = metricUniqName(*metric, pos, exps); err != nil {
		return err
	}
	popt := analysis.PerfDiffOptions{Metric: *metric, Delta: d, Relative: *relative, Self: true, Algebra: opt,
		Test: sigTest, Alpha: *alpha}
	m := perfDiffMetric(exps, *metric)
	var res *analysis.PerfDiffResult
	nameA, nameB := pos[0], pos[1]
	if !grouped {
		if *top == 0 {
			// Every focus, written as the search finds it.
			return streamPerfDiff(env.Stdout, exps[0], exps[1], popt, m, nameA, nameB, *relative, d, *asCSV)
		}
		popt.Top = *top
	}
	if grouped {
		res, err = analysis.PerfDiffGroups(exps[:na], exps[na:], popt)
		nameA = fmt.Sprintf("%d runs %s", na, runList(pos[:na]))
		nameB = fmt.Sprintf("%d runs %s", len(pos)-na, runList(pos[na:]))
	} else {
		res, err = analysis.PerfDiff(exps[0], exps[1], popt)
	}
	if err != nil {
		return err
	}
	if *asCSV {
		return writePerfDiffCSV(env.Stdout, res, m, *onlySignificant, *top)
	}
	return writePerfDiffText(env.Stdout, res, m, nameA, nameB, *relative, d, *onlySignificant, *top)
}

// defaultPerfDiffTop is the number of foci perfdiff's text prints unless
// --top says otherwise.
const defaultPerfDiffTop = 50

// groupRuns expands the operands of groups A and B (files, repository
// references) into the runs to open, A's na runs first. Each group needs
// at least two runs, unless both have one (a plain pair).
func groupRuns(opsA, opsB []string, where string) (runs []string, na int, err error) {
	a, err := expandRuns(opsA, where)
	if err != nil {
		return nil, 0, err
	}
	b, err := expandRuns(opsB, where)
	if err != nil {
		return nil, 0, err
	}
	if (len(a) < 2 || len(b) < 2) && (len(a) != 1 || len(b) != 1) {
		return nil, 0, usagef("groups: group A has %d run%s and group B %d; each needs at least two to estimate its noise", len(a), plural(len(a)), len(b))
	}
	return append(a, b...), len(a), nil
}

// perfDiffMetric returns the compared metric's definition from the first
// experiment that has it.
func perfDiffMetric(exps []*model.Experiment, uniq string) *model.Metric {
	for _, e := range exps {
		if m := e.MetricByName(uniq); m >= 0 {
			return &e.Metrics[m]
		}
	}
	return &model.Metric{UniqName: uniq}
}

// structuralKind is the CSV kind of a structural difference.
func structuralKind(s analysis.StructuralDiff) string {
	if s.Only == analysis.SideA {
		return "only_in_a"
	}
	return "only_in_b"
}

// structuralWhat names a structural difference's call path or system node.
func structuralWhat(res *analysis.PerfDiffResult, s analysis.StructuralDiff) (callPath, system string) {
	if s.Cnode >= 0 {
		return res.CallPath(analysis.Focus{Cnode: s.Cnode}), ""
	}
	return "", res.SystemPath(analysis.Focus{System: s.System})
}

// groupCSVColumns are the columns perfdiff's CSV adds for groups of runs.
var groupCSVColumns = []string{"sd_a", "sd_b", "ci_low", "ci_high", "p", "q", "effect", "significant"}

func writePerfDiffCSV(w io.Writer, res *analysis.PerfDiffResult, m *model.Metric, onlySignificant bool, top int) error {
	cw := csv.NewWriter(w)
	writePerfDiffCSVHead(cw, res)
	num := func(v float64) string { return numfmt.RoundTrip().Format(v, false) }
	shown := 0
	for _, f := range res.Foci {
		st := f.Stats
		if onlySignificant && (st == nil || !st.Significant) {
			continue
		}
		if top > 0 && shown >= top {
			break
		}
		shown++
		row := []string{"differs", res.CallPath(f.Focus), res.SystemPath(f.Focus), num(f.A), num(f.B), num(f.Diff), num(f.Change), strconv.FormatBool(f.MostSpecific)}
		if st != nil {
			row = append(row, num(st.A.SD()), num(st.B.SD()), num(st.CILow), num(st.CIHigh), num(st.P), num(st.Q), num(st.Effect), strconv.FormatBool(st.Significant))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// writePerfDiffCSVHead writes the CSV header and the rows that are no
// differing focus: a metric one side lacks, the structural differences.
func writePerfDiffCSVHead(cw *csv.Writer, res *analysis.PerfDiffResult) {
	num := func(v float64) string { return numfmt.RoundTrip().Format(v, false) }
	header := []string{"kind", "call_path", "system", "a", "b", "difference", "change", "most_specific"}
	extra := 0
	if res.Grouped() {
		header = append(header, groupCSVColumns...)
		extra = len(groupCSVColumns)
	}
	cw.Write(header)
	empty := func(n int) []string { return make([]string, n+extra) }
	for i, why := range res.Missing {
		if why != "" {
			continue
		}
		other := 1 - i
		if res.Missing[other] == "" {
			break
		}
		row := empty(8)
		row[0] = "metric_only_in_" + strings.ToLower(analysis.Side(i).String())
		row[3+i] = num([]float64{res.RootA, res.RootB}[i])
		cw.Write(row)
	}
	for _, s := range res.Structure {
		cp, sys := structuralWhat(res, s)
		row := empty(8)
		row[0], row[1], row[2] = structuralKind(s), cp, sys
		if !math.IsNaN(s.Value) {
			row[3+int(s.Only)] = num(s.Value)
		}
		cw.Write(row)
	}
}

// perfDiffText writes perfdiff's text report in parts: the preamble
// (what was compared, structural differences), the summary (whole
// program, counts) and the table of foci.
type perfDiffText struct {
	bw               *bufio.Writer
	res              *analysis.PerfDiffResult
	m                *model.Metric
	pathA, pathB     string
	relative         bool
	delta            float64
	onlySignificant  bool
	top              int
	cellBuf, nameBuf []byte
}

func (t *perfDiffText) value(v float64) string {
	if math.IsNaN(v) && t.res.Derived {
		return "—" // undefined, as CubePL's NaN
	}
	return fmtG(v)
}

func (t *perfDiffText) appendValue(buf []byte, v float64) []byte {
	switch {
	case math.IsNaN(v) && t.res.Derived:
		return append(buf, "—"...)
	case math.IsNaN(v):
		return append(buf, '-')
	case v == 0:
		return append(buf, '0')
	}
	return strconv.AppendFloat(buf, v, 'g', 6, 64)
}

// preamble writes what was compared and the structural differences.
func (t *perfDiffText) preamble() {
	bw, res, m := t.bw, t.res, t.m
	fmt.Fprintf(bw, "perfdiff of %s [%s]: A − B, positive where A has more\n", metricTitle(m), orNone(m.Unit))
	if res.Grouped() {
		fmt.Fprintf(bw, "groups of runs: a group's value is the mean over its runs (± standard deviation)\n")
	}
	fmt.Fprintf(bw, "A = %s\nB = %s\n", t.pathA, t.pathB)
	if res.RootsMatched != "" {
		fmt.Fprintf(bw, "matched: %s (--strict-roots keeps them apart)\n", res.RootsMatched)
	}
	for _, m := range res.Matching {
		fmt.Fprintf(bw, "matched: %s\n", m)
	}
	for _, n := range res.Notes {
		fmt.Fprintln(bw, n)
	}
	if !res.Compared() {
		for i, why := range res.Missing {
			if why != "" {
				fmt.Fprintf(bw, "not compared: %s is missing in %s: %s\n", res.Metric, analysis.Side(i), why)
			}
		}
	}
	if len(res.Structure) > 0 {
		fmt.Fprintf(bw, "\nstructural differences (left out of the comparison, not ranked):\n")
		rows := [][]string{{"A", "B", "only in", "what"}}
		for _, s := range res.Structure {
			cp, sys := structuralWhat(res, s)
			what := "call path " + cp
			if s.Cnode < 0 {
				what = "system node " + sys
			}
			vals := [2]string{"absent", "absent"}
			vals[s.Only] = t.value(s.Value)
			if math.IsNaN(s.Value) && !res.Derived {
				vals[s.Only] = "(no metric)"
			}
			rows = append(rows, []string{vals[0], vals[1], s.Only.String(), what})
		}
		writeTable(bw, rows, 2)
	}
}

// summary writes the whole program's values, the threshold and the
// counts of foci.
func (t *perfDiffText) summary() {
	bw, res := t.bw, t.res
	rule := "Σ|A − B| of the points below a focus"
	if res.ChangeRule == "max" {
		rule = "largest |A − B| at or below a focus"
	}
	threshold := fmtG(res.Threshold)
	if t.relative {
		threshold = fmt.Sprintf("%s (%s of the whole program)", threshold, strconv.FormatFloat(t.delta*100, 'g', 6, 64)+" %")
	}
	common := ""
	if len(res.Structure) > 0 {
		common = " over the common part"
	}
	fmt.Fprintf(bw, "whole program%s: A = %s, B = %s; change = %s; threshold %s\n", common, t.value(res.RootA), t.value(res.RootB), rule, threshold)
	fmt.Fprintf(bw, "%d differing foci, %d most specific (marked *: no focus one step below differs), %d examined\n",
		res.Differing, res.MostSpecific(), res.NumExamined)
	if res.Differing == 0 {
		fmt.Fprintln(bw, "no difference reaches the threshold")
	}
}

var perfDiffHeader = []string{"", "A − B", "", "A", "B", "system", "call path"}

func (t *perfDiffText) header() []string {
	h := slices.Clone(perfDiffHeader)
	h[2] = "Σ|A − B|"
	if t.res.ChangeRule == "max" {
		h[2] = "max|A − B|"
	}
	return h
}

// cell appends column c of focus f's row to buf.
func (t *perfDiffText) cell(f *analysis.FocusDiff, c int, buf []byte) []byte {
	switch c {
	case 0:
		if f.MostSpecific {
			return append(buf, '*')
		}
		return buf
	case 1:
		return t.appendValue(buf, f.Diff)
	case 2:
		return t.appendValue(buf, f.Change)
	case 3:
		return t.appendValue(buf, f.A)
	case 4:
		return t.appendValue(buf, f.B)
	case 5:
		return append(buf, t.res.SystemPath(f.Focus)...)
	}
	return t.res.AppendCallPath(buf, f.Focus)
}

func writePerfDiffText(w io.Writer, res *analysis.PerfDiffResult, m *model.Metric, pathA, pathB string, relative bool, delta float64, onlySignificant bool, top int) error {
	t := &perfDiffText{bw: bufio.NewWriter(w), res: res, m: m, pathA: pathA, pathB: pathB, relative: relative, delta: delta,
		onlySignificant: onlySignificant, top: top}
	bw := t.bw
	t.preamble()
	if !res.Compared() {
		return bw.Flush()
	}
	fmt.Fprintln(bw)
	t.summary()
	if res.Differing == 0 {
		return bw.Flush()
	}
	if res.Grouped() {
		fmt.Fprintf(bw, "%d of %d differing foci differ significantly (sig: Benjamini–Hochberg q < %g over all %d; %s test, 95 %% intervals)\n",
			res.Significant(), len(res.Foci), res.Alpha, len(res.Foci), res.Test)
		return writePerfDiffGroupTable(bw, res, onlySignificant, top)
	}
	// The call path comes last, unpadded: a deep one (200 characters and
	// more) would otherwise widen every line of the table.
	streamTable(bw, t.header(), len(res.Foci), 5, func(i, c int, buf []byte) []byte { return t.cell(&res.Foci[i], c, buf) })
	if len(res.Foci) < res.Differing {
		fmt.Fprintf(bw, "(the first %d of %d differing foci; --top N for more, --top 0 for all in call-tree order)\n", len(res.Foci), res.Differing)
	}
	return bw.Flush()
}

// perfDiffValueWidth is the width of a value column of the streamed
// table: the widest value strconv's 'g' with 6 digits prints
// ("-1.23457e+06", "-0.000123457").
const perfDiffValueWidth = 12

// streamPerfDiff runs perfdiff of a and b and writes every differing focus
// as the search finds it (text or CSV), holding none: the value columns
// have a fixed width, the system column that of the longest system path,
// and the summary follows the table.
func streamPerfDiff(w io.Writer, a, b *model.Experiment, opt analysis.PerfDiffOptions, m *model.Metric, pathA, pathB string, relative bool, delta float64, asCSV bool) error {
	t := &perfDiffText{bw: bufio.NewWriterSize(w, 64<<10), m: m, pathA: pathA, pathB: pathB, relative: relative, delta: delta}
	bw := t.bw
	var cw *csv.Writer
	var widths []int
	started := false
	start := func(res *analysis.PerfDiffResult) {
		started = true
		t.res = res
		if asCSV {
			cw = csv.NewWriter(bw)
			writePerfDiffCSVHead(cw, res)
			cw.Flush() // into bw; the foci follow
			return
		}
		t.preamble()
		if !res.Compared() {
			return
		}
		fmt.Fprintln(bw)
		h := t.header()
		widths = make([]int, len(h))
		for c, x := range h {
			widths[c] = utf8.RuneCountInString(x)
		}
		widths[0] = 1 // the mark
		for c := 1; c < 5; c++ {
			widths[c] = max(widths[c], perfDiffValueWidth)
		}
		for s := range res.Domain.System {
			widths[5] = max(widths[5], utf8.RuneCountInString(res.SystemPath(analysis.Focus{System: s})))
		}
		t.row(widths, func(c int, buf []byte) []byte { return append(buf, h[c]...) })
	}
	num := numfmt.RoundTrip()
	opt.Emit = func(res *analysis.PerfDiffResult, f *analysis.FocusDiff) error {
		if !started {
			start(res)
		}
		if cw != nil {
			// As csv.Writer writes it, without a string per field.
			line := append(t.cellBuf[:0], "differs,"...)
			t.nameBuf = res.AppendCallPath(t.nameBuf[:0], f.Focus)
			line = appendCSVField(line, t.nameBuf)
			line = append(line, ',')
			t.nameBuf = append(t.nameBuf[:0], res.SystemPath(f.Focus)...)
			line = appendCSVField(line, t.nameBuf)
			for _, v := range []float64{f.A, f.B, f.Diff, f.Change} {
				line = append(line, ',')
				line = num.AppendFormat(line, v, false)
			}
			line = append(line, ',')
			line = strconv.AppendBool(line, f.MostSpecific)
			line = append(line, '\n')
			t.cellBuf = line
			_, err := bw.Write(line)
			return err
		}
		t.row(widths, func(c int, buf []byte) []byte { return t.cell(f, c, buf) })
		return nil
	}
	res, err := analysis.PerfDiff(a, b, opt)
	if err != nil {
		return err
	}
	if !started {
		start(res)
	}
	if asCSV {
		return bw.Flush()
	}
	if res.Compared() {
		if res.Differing > 0 {
			fmt.Fprintln(bw)
		}
		t.summary()
	}
	return bw.Flush()
}

// row writes one line of the streamed table: the first five columns
// right-aligned in widths, the system column left-aligned, the call path
// unpadded.
func (t *perfDiffText) row(widths []int, cell func(c int, buf []byte) []byte) {
	bw := t.bw
	for c := range widths {
		t.cellBuf = cell(c, t.cellBuf[:0])
		pad := 0
		if c <= 5 { // the call path, last, is not padded
			pad = widths[c] - runeCount(t.cellBuf)
		}
		if c > 0 {
			bw.WriteString("  ")
		}
		if c < 5 {
			writeSpaces(bw, pad)
		}
		bw.Write(t.cellBuf)
		if c == 5 {
			writeSpaces(bw, pad)
		}
	}
	bw.WriteByte('\n')
}

// streamTable prints a header and n rows as aligned columns separated by
// two spaces, the first textFrom columns right-aligned, the rest left,
// without holding the rows: cell appends row i's column c to buf and is
// called twice per cell, to measure and to print.
func streamTable(w *bufio.Writer, header []string, n, textFrom int, cell func(i, c int, buf []byte) []byte) {
	widths := make([]int, len(header))
	for c, h := range header {
		widths[c] = utf8.RuneCountInString(h)
	}
	var buf []byte
	for i := 0; i < n; i++ {
		for c := range header[:len(header)-1] { // the last column is not padded
			buf = cell(i, c, buf[:0])
			widths[c] = max(widths[c], runeCount(buf))
		}
	}
	printCell := func(c int, text []byte, last bool) {
		pad := widths[c] - runeCount(text)
		if c > 0 {
			w.WriteString("  ")
		}
		if c < textFrom {
			writeSpaces(w, pad)
		}
		w.Write(text)
		if c >= textFrom && !last {
			writeSpaces(w, pad)
		}
	}
	for c, h := range header {
		printCell(c, []byte(h), c == len(header)-1)
	}
	w.WriteByte('\n')
	for i := 0; i < n; i++ {
		for c := range header {
			buf = cell(i, c, buf[:0])
			printCell(c, buf, c == len(header)-1)
		}
		w.WriteByte('\n')
	}
}

// runeCount counts the characters of text, quickly for ASCII.
func runeCount(text []byte) int {
	for _, b := range text {
		if b >= utf8.RuneSelf {
			return utf8.RuneCount(text)
		}
	}
	return len(text)
}

const spaces = "                                                                "

func writeSpaces(w *bufio.Writer, n int) {
	for n > len(spaces) {
		w.WriteString(spaces)
		n -= len(spaces)
	}
	if n > 0 {
		w.WriteString(spaces[:n])
	}
}

// fmtG renders a value with 6 significant digits for tables.
func fmtG(v float64) string {
	if v == 0 {
		return "0"
	}
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// writeTable prints rows as aligned columns separated by two spaces: the
// first numeric columns (up to textFrom) right-aligned, the rest left.
func writeTable(w io.Writer, rows [][]string, textFrom int) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriter(w)
		defer bw.Flush()
	}
	pad := func(n int) { writeSpaces(bw, n) }
	for _, r := range rows {
		for i, c := range r {
			n := widths[i] - utf8.RuneCountInString(c)
			if i > 0 {
				bw.WriteString("  ")
			}
			switch {
			case i < textFrom:
				pad(n)
				bw.WriteString(c)
			case i < len(r)-1:
				bw.WriteString(c)
				pad(n)
			default:
				bw.WriteString(c)
			}
		}
		bw.WriteByte('\n')
	}
}

// writePerfDiffGroupTable prints the differing foci of groups of runs
// with their test.
func writePerfDiffGroupTable(bw *bufio.Writer, res *analysis.PerfDiffResult, onlySignificant bool, top int) error {
	change := "Σ|A − B|"
	if res.ChangeRule == "max" {
		change = "max|A − B|"
	}
	rows := make([]int, 0, len(res.Foci))
	eligible := 0
	for i := range res.Foci {
		if !onlySignificant || res.Foci[i].Stats.Significant {
			eligible++
			if top <= 0 || len(rows) < top {
				rows = append(rows, i)
			}
		}
	}
	if len(rows) == 0 {
		fmt.Fprintln(bw, "no focus differs significantly")
		return bw.Flush()
	}
	header := []string{"", "A − B", change, "A", "± sd", "B", "± sd", "ci_low", "ci_high", "p", "q", "effect", "sig", "system", "call path"}
	appendValue := func(buf []byte, v float64) []byte {
		switch {
		case math.IsNaN(v) && res.Derived:
			return append(buf, "—"...)
		case math.IsNaN(v):
			return append(buf, '-')
		case v == 0:
			return append(buf, '0')
		}
		return strconv.AppendFloat(buf, v, 'g', 6, 64)
	}
	streamTable(bw, header, len(rows), 13, func(i, c int, buf []byte) []byte {
		f := &res.Foci[rows[i]]
		st := f.Stats
		switch c {
		case 0:
			if f.MostSpecific {
				return append(buf, '*')
			}
			return buf
		case 1:
			return appendValue(buf, f.Diff)
		case 2:
			return appendValue(buf, f.Change)
		case 3:
			return appendValue(buf, f.A)
		case 4:
			return appendValue(buf, st.A.SD())
		case 5:
			return appendValue(buf, f.B)
		case 6:
			return appendValue(buf, st.B.SD())
		case 7:
			return appendValue(buf, st.CILow)
		case 8:
			return appendValue(buf, st.CIHigh)
		case 9:
			return append(buf, pValue(st.P)...)
		case 10:
			return append(buf, pValue(st.Q)...)
		case 11:
			return append(buf, effectCell(st.Effect)...)
		case 12:
			if st.Significant {
				return append(buf, "sig"...)
			}
			return buf
		case 13:
			return append(buf, res.SystemPath(f.Focus)...)
		}
		return append(buf, res.CallPath(f.Focus)...)
	})
	what := "differing foci"
	if onlySignificant {
		what = "significant foci"
	}
	if len(rows) < eligible {
		fmt.Fprintf(bw, "(the first %d of %d %s; --top N for more, --top 0 for all)\n", len(rows), eligible, what)
	}
	return bw.Flush()
}

// appendCSVField appends field to line as encoding/csv writes it: quoted
// (quotes doubled) when it holds a comma, quote, carriage return or line
// feed, begins with a space or is `\.`.
func appendCSVField(line, field []byte) []byte {
	r, _ := utf8.DecodeRune(field)
	quote := len(field) > 0 && (unicode.IsSpace(r) || string(field) == `\.`)
	if !quote && !bytes.ContainsAny(field, ",\"\r\n") {
		return append(line, field...)
	}
	line = append(line, '"')
	for _, b := range field {
		if b == '"' {
			line = append(line, '"')
		}
		line = append(line, b)
	}
	return append(line, '"')
}
