package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "info",
		Summary: "describe an experiment: format, sizes, metric tree with totals",
		Usage: `usage: cubeview info FILE

Prints the file format and version, the creator, the number of metrics,
regions, call-tree nodes, processes and locations (and, for profiles of
tools that record a call graph, its arcs), then the metric tree:
each metric with display name, [unique name], unit, data type, aggregation
and its total over the whole call tree and all locations (the metric with
its child metrics). Metrics without values say why ("not available: …");
hidden metrics are marked. All experiment attributes follow at the end,
including the expression and operands of a derived experiment.`,
		Run: runInfo,
	})
}

func runInfo(env Env, args []string) error {
	pos, err := parseArgs(newFlagSet("info"), args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE, got %d arguments", len(pos))
	}
	e, err := openExperiment(pos[0])
	if err != nil {
		return err
	}
	if err := writeInfo(env.Stdout, e); err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	return nil
}

// writeInfo writes the description of e. A metric whose data cannot be
// read is reported in its line; the first such error is returned after
// everything else has been written.
func writeInfo(w io.Writer, e *model.Experiment) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	creator, _ := e.Attr("Creator")
	p("Format:     %s\n", orNone(e.Format))
	p("Creator:    %s\n", orNone(creator))

	hidden, unavailable := 0, 0
	for i := range e.Metrics {
		if isHidden(&e.Metrics[i]) {
			hidden++
		}
		if e.Metrics[i].Unavailable != "" {
			unavailable++
		}
	}
	p("Metrics:    %d (%d hidden, %d not available)\n", len(e.Metrics), hidden, unavailable)
	p("Regions:    %d\n", len(e.Regions))
	p("Cnodes:     %d (call-tree roots: %d)\n", len(e.Cnodes), len(e.CnodeRoots))
	groups := 0
	for i := range e.System {
		if e.System[i].Kind == model.Group {
			groups++
		}
	}
	threads := "thread level shown"
	if e.ThreadLevelHidden() {
		threads = "thread level hidden"
	}
	p("Processes:  %d\n", groups)
	p("Locations:  %d (%s)\n", e.NumLocations(), threads)
	if len(e.Topologies) > 0 {
		names := make([]string, len(e.Topologies))
		for i, t := range e.Topologies {
			names[i] = strconv.Quote(t.Name)
		}
		p("Topologies: %d (%s)\n", len(e.Topologies), strings.Join(names, ", "))
	}
	if g := e.CallGraph; g != nil {
		var incl []string
		for _, m := range e.MetricOrder() {
			if _, ok := g.Inclusive[m]; ok {
				incl = append(incl, e.Metrics[m].UniqName)
			}
		}
		p("Call graph: %d caller → callee arcs; the tool's inclusive values of %s\n", len(g.Arcs), orNone(strings.Join(incl, ", ")))
	}

	for _, w := range e.Warnings {
		p("Warning:    %s\n", oneLine(w))
	}

	p("\nMetric tree (display name [unique name] unit, data type, aggregation: total):\n")
	var firstErr error
	depth := make([]int, len(e.Metrics))
	for _, mi := range e.MetricOrder() {
		m := &e.Metrics[mi]
		if m.Parent >= 0 {
			depth[mi] = depth[m.Parent] + 1
		}
		p("%s%s [%s] %s, %s, %s", strings.Repeat("  ", depth[mi]+1),
			orNone(m.DispName), m.UniqName, orNone(m.Unit), orNone(string(m.DataType)), m.Aggregation)
		for _, mark := range metricMarks(m) {
			p(", %s", mark)
		}
		if m.Unavailable != "" {
			p(": not available: %s\n", m.Unavailable)
		} else if v, err := e.MetricTotal(model.MetricSel{Metric: mi, Inclusive: true}); err != nil {
			p(": error: %v\n", err)
			if firstErr == nil {
				firstErr = fmt.Errorf("metric %q: %w", m.UniqName, err)
			}
		} else {
			p(": %s\n", metricFormat(numfmt.Precise(), m).Format(v, m.IsInteger()))
		}
		if m.Expression != "" {
			p("%s  expression: %s\n", strings.Repeat("  ", depth[mi]+1), oneLine(m.Expression))
		}
	}

	if len(e.Attrs) > 0 {
		p("\nAttributes:\n")
		for _, a := range e.Attrs {
			p("  %s = %s\n", a.Key, oneLine(a.Value))
		}
	}
	if err := bw.Flush(); err != nil {
		return errors.Join(err, firstErr)
	}
	return firstErr
}

// isHidden reports whether displays hide m: val VOID or viztype GHOST.
func isHidden(m *model.Metric) bool {
	return m.Hidden() || strings.EqualFold(m.VizType, "GHOST")
}

// metricMarks lists what sets m apart from a plain stored metric.
func metricMarks(m *model.Metric) []string {
	var marks []string
	if m.Hidden() {
		marks = append(marks, "hidden (VOID)")
	}
	if strings.EqualFold(m.VizType, "GHOST") {
		marks = append(marks, "hidden (GHOST)")
	}
	if m.Type.IsDerived() {
		marks = append(marks, "derived ("+string(m.Type)+")")
	}
	if m.Approximate {
		marks = append(marks, "approximate")
	}
	return marks
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine keeps a value on one output line: text with line breaks or
// other control characters is quoted.
func oneLine(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
