package view

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"cubeview/internal/atomicfile"
	"cubeview/numfmt"
)

// Export from a window: the rows of a pane as CSV, a pane or a chart as
// an image (the ui package draws those); the bottom-up view's rows:
// analysisview.BottomUpCSV.

// PaneCSV writes rows of pane d (the rows shown, in order) as CSV: each
// row's path of labels from its pane's root, its depth, the value in the
// pane's mode with every digit (the text shown beside it), the unit and
// which value the row shows (inclusive, exclusive, leaf).
func PaneCSV(v *View, d Dim, rows []Node, w io.Writer) error {
	cw := csv.NewWriter(w)
	mode := v.panes[d].mode.String()
	if err := cw.Write(append([]string{"pane", "path", "depth", "name", "value", "shown", "unit", "mode", "state"}, columnCSVHeads(v, d)...)); err != nil {
		return err
	}
	exact := numfmt.Precise()
	for _, n := range rows {
		anc := v.Ancestors(d, n)
		labels := make([]string, 0, len(anc)+1)
		for _, a := range anc {
			labels = append(labels, v.Label(a))
		}
		labels = append(labels, v.Label(n))
		val := v.values.Value(d, n)
		num := ""
		if !math.IsNaN(val) {
			num = exact.Format(val, false)
		}
		rec := []string{d.String(), strings.Join(labels, " / "), strconv.Itoa(len(anc)), v.Label(n),
			num, v.values.Text(d, n), v.values.Unit(d, n), mode, rowState(v, d, n)}
		rec = append(rec, columnCSVCells(v, d, n)...)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteExport writes a file through a temporary file renamed when
// complete.
func WriteExport(path string, write func(w io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("exporting %s: %w", path, err)
	}
	return nil
}

// MetricURL returns the documentation address of metric row n, with the
// experiment's first web mirror (else its first mirror) in place of
// "@mirror@" as CUBE files write it; "" when the metric has none.
func MetricURL(v *View, n Node) string {
	if n.Kind != MetricNode || n.Index < 0 || n.Index >= len(v.exp.Metrics) {
		return ""
	}
	u := strings.TrimSpace(v.exp.Metrics[n.Index].URL)
	if u == "" {
		return ""
	}
	if strings.Contains(u, "@mirror@") {
		if len(v.exp.Mirrors) == 0 {
			return ""
		}
		m := v.exp.Mirrors[0]
		for _, x := range v.exp.Mirrors {
			if strings.HasPrefix(x, "http://") || strings.HasPrefix(x, "https://") {
				m = x
				break
			}
		}
		if !strings.HasSuffix(m, "/") {
			m += "/"
		}
		u = strings.ReplaceAll(u, "@mirror@", m)
	}
	for _, scheme := range []string{"http://", "https://", "file://"} {
		if strings.HasPrefix(u, scheme) {
			return u
		}
	}
	return ""
}
