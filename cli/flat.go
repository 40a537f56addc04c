package cli

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "flat",
		Summary: "print the flat profile: one row per region, sorted by exclusive value",
		Usage: `usage: cubeview flat FILE-OR-DIR [--metric UNIQ] [--csv] [-o top.png|top.svg [--top N]]

Prints the flat profile of one metric: one row per region (its name as the
tool wrote it) with its exclusive value (its call paths' own values), its
inclusive value (the union of their subtrees, each call path counted once;
the tool's own inclusive value where the profile records one, as gprof and
flat TAU profiles do) and its visits (calls) where the experiment has a
"visits" metric, all aggregated over every location, sorted by exclusive
value, largest first. Works for every format cubeview reads.

  --metric UNIQ   the metric (default: the first time metric, unit sec,
                  else the first metric that has values)
  --csv           comma-separated values with the header
                  region,exclusive,inclusive,visits and exact numbers
  -o FILE         also draw a bar chart of the top regions by exclusive
                  value (.png or .svg, 1200 × 800 pixels)
  --top N         the number of bars (default 15)`,
		Run: runFlat,
	})
}

func runFlat(env Env, args []string) error {
	fs := newFlagSet("flat")
	metric := fs.String("metric", "", "")
	asCSV := fs.Bool("csv", false, "")
	out := fs.String("o", "", "")
	top := fs.Int("top", 15, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE-OR-DIR, got %d arguments", len(pos))
	}
	if *out != "" {
		if _, err := chart.FormatOf(*out); err != nil {
			return usagef("-o %v", err)
		}
	}
	if *top < 1 {
		return usagef("--top %d: want N ≥ 1", *top)
	}
	path := pos[0]
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	m := -1
	if *metric != "" {
		if m, err = metricIndex(e, path, *metric); err != nil {
			return err
		}
		if r := e.Metrics[m].Unavailable; r != "" {
			return fmt.Errorf("%s: metric %q is not available: %s", path, *metric, r)
		}
	} else if m = defaultFlatMetric(e); m < 0 {
		return fmt.Errorf("%s: no metric has values", path)
	}
	rows, err := flatRows(e, m)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if *out != "" {
		if err := saveFlatBars(*out, e, m, rows, *top); err != nil {
			return err
		}
	}
	if *asCSV {
		err = writeFlatCSV(env.Stdout, e, rows)
	} else {
		err = writeFlatText(env.Stdout, e, m, rows)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// defaultFlatMetric returns the first available metric with unit sec in
// depth-first order, else the first available metric, else -1.
func defaultFlatMetric(e *model.Experiment) int {
	first := -1
	for _, i := range e.MetricOrder() {
		if e.Metrics[i].Unavailable != "" {
			continue
		}
		if e.Metrics[i].Unit == "sec" {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// flatRow is one region of a flat profile.
type flatRow struct {
	Region               int // index in Experiment.Regions
	Exclusive, Inclusive float64
	// Visits is the region's exclusive value of the "visits" metric;
	// HasVisits is false when the experiment has no such metric.
	Visits    float64
	HasVisits bool
}

// flatRows returns the flat profile of metric m (collapsed, i.e. with its
// child metrics): a row per region that has a call path or a tool-computed
// inclusive value, sorted by exclusive value (largest first), then by
// inclusive value, name and region order.
func flatRows(e *model.Experiment, m int) ([]flatRow, error) {
	excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		return nil, fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err)
	}
	var visits []float64
	if v := e.MetricByName("visits"); v >= 0 && e.Metrics[v].Unavailable == "" {
		if visits, _, err = e.FlatProfileOf(model.MetricSel{Metric: v, Inclusive: true}); err != nil {
			return nil, fmt.Errorf("metric \"visits\": %w", err)
		}
	}
	listed := make([]bool, len(e.Regions))
	for c := range e.Cnodes {
		listed[e.Cnodes[c].Region] = true
	}
	if g := e.CallGraph; g != nil {
		if _, ok := g.Inclusive[m]; ok {
			for r := range listed {
				listed[r] = true
			}
		}
	}
	var rows []flatRow
	for r, ok := range listed {
		if !ok {
			continue
		}
		row := flatRow{Region: r, Exclusive: excl[r], Inclusive: incl[r]}
		if visits != nil {
			row.Visits, row.HasVisits = visits[r], true
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b flatRow) int {
		if c := cmp.Compare(b.Exclusive, a.Exclusive); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Inclusive, a.Inclusive); c != 0 {
			return c
		}
		return cmp.Compare(e.Regions[a.Region].Name, e.Regions[b.Region].Name)
	})
	return rows, nil
}

func writeFlatCSV(w io.Writer, e *model.Experiment, rows []flatRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"region", "exclusive", "inclusive", "visits"})
	for _, r := range rows {
		visits := ""
		if r.HasVisits {
			visits = numfmt.RoundTrip().Format(r.Visits, false)
		}
		cw.Write([]string{e.Regions[r.Region].Name, numfmt.RoundTrip().Format(r.Exclusive, false), numfmt.RoundTrip().Format(r.Inclusive, false), visits})
	}
	cw.Flush()
	return cw.Error()
}

func writeFlatText(w io.Writer, e *model.Experiment, m int, rows []flatRow) error {
	met := &e.Metrics[m]
	var visitsMetric *model.Metric
	if v := e.MetricByName("visits"); v >= 0 {
		visitsMetric = &e.Metrics[v]
	}
	cells := make([][3]string, len(rows))
	width := [3]int{len("exclusive"), len("inclusive"), len("visits")}
	for i, r := range rows {
		cells[i][0] = metricFormat(numfmt.Precise(), met).Format(r.Exclusive, met.IsInteger())
		cells[i][1] = metricFormat(numfmt.Precise(), met).Format(r.Inclusive, met.IsInteger())
		cells[i][2] = "-"
		if r.HasVisits {
			cells[i][2] = numfmt.Precise().Format(r.Visits, visitsMetric.IsInteger())
		}
		for k := range width {
			width[k] = max(width[k], len(cells[i][k]))
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s [%s] %s, flat profile, %s over %d location%s\n",
		orNone(met.DispName), met.UniqName, orNone(met.Unit), met.Aggregation, e.NumLocations(), plural(e.NumLocations()))
	line := func(c [3]string, name string) {
		for k, s := range c {
			bw.WriteString(strings.Repeat(" ", width[k]-len(s)))
			bw.WriteString(s)
			bw.WriteString("  ")
		}
		bw.WriteString(name)
		bw.WriteByte('\n')
	}
	line([3]string{"exclusive", "inclusive", "visits"}, "region")
	for i, r := range rows {
		line(cells[i], e.Regions[r.Region].Name)
	}
	return bw.Flush()
}

// saveFlatBars draws the top regions of the flat profile by exclusive value.
func saveFlatBars(path string, e *model.Experiment, m int, rows []flatRow, top int) error {
	rows = rows[:min(top, len(rows))]
	bars := make([]chart.Bar, len(rows))
	for i, r := range rows {
		bars[i] = chart.Bar{Label: e.Regions[r.Region].Name, Value: r.Exclusive}
	}
	met := &e.Metrics[m]
	title := fmt.Sprintf("%s: top %d regions by exclusive value, over %d location%s", metricTitle(met), len(bars), e.NumLocations(), plural(e.NumLocations()))
	c, err := chart.BarChart(title, valueAxisLabel(met)+", exclusive", bars)
	if err != nil {
		return err
	}
	return c.Save(path, chart.DefaultWidth, chart.DefaultHeight)
}
