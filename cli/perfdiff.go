package cli

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "perfdiff",
		Summary: "find where two experiments differ (Karavanic & Miller's performance difference)",
		Usage: `usage: cubeview perfdiff A B --metric UNIQ --delta D [--relative] [--csv]

Compares metric UNIQ of experiments A and B focus by focus, a focus being a
call path (call-tree inclusive) on a system node (aggregated over the
locations below it). The search starts at the whole program and magnifies
every focus whose values differ by at least D into each focus one step below
it in the call tree and in the system tree; each focus is examined once.
The two experiments are matched as "cubeview diff" matches them.

Prints every differing focus with both values and their difference A − B.
A focus is significant (marked *) when no focus one step below it differs;
significant foci come first, then the rest, each by decreasing |A − B|.

  --metric UNIQ  the metric (stored or derived)
  --delta D      the smallest difference that counts
  --relative     D is a fraction of the whole-program value (the larger of
                 the two), e.g. 0.01 for 1 %
  --csv          print CSV: call_path,system,a,b,difference,significant`,
		Run: runPerfDiff,
	})
}

func runPerfDiff(env Env, args []string) error {
	fs := newFlagSet("perfdiff")
	metric := fs.String("metric", "", "")
	delta := fs.String("delta", "", "")
	relative := fs.Bool("relative", false, "")
	asCSV := fs.Bool("csv", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
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
	a, err := openExperiment(pos[0])
	if err != nil {
		return err
	}
	b, err := openExperiment(pos[1])
	if err != nil {
		return err
	}
	if *metric, err = metricUniqName(*metric, pos, []*model.Experiment{a, b}); err != nil {
		return err
	}
	res, err := analysis.PerfDiff(a, b, analysis.PerfDiffOptions{Metric: *metric, Delta: d, Relative: *relative})
	if err != nil {
		return err
	}
	if *asCSV {
		return writePerfDiffCSV(env.Stdout, res)
	}
	return writePerfDiffText(env.Stdout, res, pos[0], pos[1])
}

func writePerfDiffCSV(w io.Writer, res *analysis.PerfDiffResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"call_path", "system", "a", "b", "difference", "significant"})
	for _, f := range res.Foci {
		cw.Write([]string{res.CallPath(f.Focus), res.SystemPath(f.Focus), numfmt.RoundTrip().Format(f.A, false), numfmt.RoundTrip().Format(f.B, false), numfmt.RoundTrip().Format(f.Diff, false), strconv.FormatBool(f.Significant)})
	}
	cw.Flush()
	return cw.Error()
}

func writePerfDiffText(w io.Writer, res *analysis.PerfDiffResult, pathA, pathB string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "metric %s, threshold %s: %d differing foci, %d significant, %d examined\n",
		res.Metric, strconv.FormatFloat(res.Threshold, 'g', 6, 64), len(res.Foci), res.Significant(), len(res.Examined))
	fmt.Fprintf(bw, "A = %s\nB = %s\n", pathA, pathB)
	if len(res.Foci) == 0 {
		fmt.Fprintln(bw, "no difference reaches the threshold")
		return bw.Flush()
	}
	rows := [][]string{{"", "A − B", "A", "B", "call path", "system"}}
	for _, f := range res.Foci {
		mark := ""
		if f.Significant {
			mark = "*"
		}
		rows = append(rows, []string{mark, fmtG(f.Diff), fmtG(f.A), fmtG(f.B), res.CallPath(f.Focus), res.SystemPath(f.Focus)})
	}
	writeTable(bw, rows, 4)
	return bw.Flush()
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
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var sb strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i > 0 {
				sb.WriteString("  ")
			}
			if i < textFrom {
				sb.WriteString(pad + c)
			} else if i < len(r)-1 {
				sb.WriteString(c + pad)
			} else {
				sb.WriteString(c)
			}
		}
		fmt.Fprintln(w, sb.String())
	}
}
