package view

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeview/colormap"
	"cubeview/model"
	"cubeview/numfmt"
)

// Metric columns: besides the value of the metric selected in the metric
// pane, the call pane (call tree and flat profile) and the bottom-up view
// may show the values of other metrics side by side, one column each, as
// hpcviewer does. A column shows its metric (with its child metrics, as a
// collapsed metric row does) for each row in the row's state (inclusive
// when collapsed, exclusive when expanded) and in the call pane's value
// mode. Clicking a column's title sorts the call pane by it; the colour
// squares follow the column sorted by (the selected column).

// Columns are the metric columns of a View's call pane.
type Columns struct {
	v       *View
	metrics []int // the columns' metrics, left to right
	// selected is the column whose colours the squares show: -1 for the
	// main column (the metric pane's selection).
	selected int
	// sorted: the call pane is sorted by the value of column sortBy (-1:
	// the main column), largest first unless ascending.
	sorted    bool
	sortBy    int
	ascending bool

	dataExp  *model.Experiment   // the experiment data were computed for
	data     map[int]*columnData // per metric
	scales   []column            // per column
	scaleKey columnScaleKey      // what scales were computed for
}

// columnScaleKey is what the columns' scales depend on: a selection
// elsewhere leaves them as they are.
type columnScaleKey struct {
	exp      *model.Experiment
	metrics  string
	mode     Mode
	flat     bool
	format   numfmt.Format
	external *model.Experiment
}

// columnData are one column metric's values over the call tree and the
// flat profile.
type columnData struct {
	excl, incl                   []float64
	regExcl, regIncl, regCallees []float64
	total                        float64 // the whole call forest
	err                          error
}

// ColumnCell is one metric column's value in a row.
type ColumnCell struct {
	Text  string
	Pad   int     // character widths from the text's end to the column's edge: decimal points align
	Value float64 // in the call pane's mode; NaN when undefined
}

// ColumnHead is the title of a value column of the call pane.
type ColumnHead struct {
	Title   string // the metric's name and unit: "Visits (occ)"
	Tooltip string
	// Selected: the colour squares show this column; Sorted: the call
	// pane is sorted by it (Ascending: smallest first).
	Selected, Sorted, Ascending bool
}

// Label returns the title with a mark of the sort direction.
func (h ColumnHead) Label() string {
	switch {
	case h.Sorted && h.Ascending:
		return h.Title + " ▲"
	case h.Sorted:
		return h.Title + " ▼"
	}
	return h.Title
}

// Columns returns the metric columns of the call pane.
func (v *View) Columns() *Columns { return &v.cols }

// Metrics returns the metrics shown as columns, left to right.
func (c *Columns) Metrics() []int { return slices.Clone(c.metrics) }

// Has reports whether metric m is shown as a column.
func (c *Columns) Has(m int) bool { return slices.Contains(c.metrics, m) }

// Set shows metric m as the last column (on) or removes its column. It
// reports whether the columns changed. Removing the column sorted by or
// selected falls back to the main column.
func (c *Columns) Set(m int, on bool) bool {
	if m < 0 || m >= len(c.v.exp.Metrics) || c.Has(m) == on {
		return false
	}
	if on {
		c.metrics = append(c.metrics, m)
		return true
	}
	k := slices.Index(c.metrics, m)
	c.metrics = slices.Delete(c.metrics, k, k+1)
	fix := func(x *int) {
		switch {
		case *x == k:
			*x = -1
		case *x > k:
			*x--
		}
	}
	fix(&c.selected)
	fix(&c.sortBy)
	return true
}

// SetAll shows exactly the metrics ms as columns, in that order (metrics
// out of range are skipped); the main column is selected again.
func (c *Columns) SetAll(ms []int) {
	c.metrics = nil
	for _, m := range ms {
		if m >= 0 && m < len(c.v.exp.Metrics) && !c.Has(m) {
			c.metrics = append(c.metrics, m)
		}
	}
	c.selected, c.sortBy, c.sorted = -1, -1, false
}

// Selected returns the column the colour squares follow: -1 for the main
// column.
func (c *Columns) Selected() int { return c.selected }

// Sorted returns the column the call pane is sorted by (-1: the main
// column) and whether it is sorted by a column at all, smallest first
// when ascending.
func (c *Columns) Sorted() (k int, sorted, ascending bool) {
	return c.sortBy, c.sorted, c.ascending
}

// SortBy sorts the call pane by column k (-1: the main column), largest
// value first, and colours its squares by it; sorting again by the same
// column reverses the order. Other panes keep their order.
func (c *Columns) SortBy(k int) {
	if k < -1 || k >= len(c.metrics) {
		return
	}
	if c.sorted && c.sortBy == k {
		c.ascending = !c.ascending
	} else {
		c.sorted, c.sortBy, c.ascending = true, k, false
	}
	c.selected = k
}

// SetSort restores a sort by a column (SortBy's result): sorted by
// column k, in the direction given.
func (c *Columns) SetSort(k int, ascending bool) {
	if k < -1 || k >= len(c.metrics) {
		return
	}
	c.sorted, c.sortBy, c.ascending, c.selected = true, k, ascending, k
}

// clearSort ends sorting by a column: the view's sort order applies to
// the call pane again and the squares show the main column.
func (c *Columns) clearSort() {
	c.sorted, c.sortBy, c.ascending, c.selected = false, -1, false, -1
}

// Heads returns the titles of the call pane's value columns: the main
// column first, then the metric columns; nil when there are no metric
// columns (the pane then shows its value beside each label).
func (c *Columns) Heads() []ColumnHead {
	v := c.v
	if len(c.metrics) == 0 {
		return nil
	}
	heads := make([]ColumnHead, 0, 1+len(c.metrics))
	main := ColumnHead{Title: "(no metric)"}
	if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
		main = c.head(s.Index)
		if v.expandedBranch(MetricPane, s) {
			main.Title += ", own"
			main.Tooltip += " (the metric's own value, without its child metrics: it is expanded in the metric pane)"
		}
	}
	heads = append(heads, main)
	for _, m := range c.metrics {
		heads = append(heads, c.head(m))
	}
	for k := range heads {
		col := k - 1
		heads[k].Selected = c.selected == col
		heads[k].Sorted = c.sorted && c.sortBy == col
		heads[k].Ascending = heads[k].Sorted && c.ascending
	}
	return heads
}

func (c *Columns) head(m int) ColumnHead {
	v := c.v
	unit := v.exp.Metrics[m].Unit
	if v.panes[CallPane].mode != Absolute {
		unit = "%"
	}
	title := metricRow{}.label(v, m)
	if unit != "" {
		title += " (" + unit + ")"
	}
	return ColumnHead{Title: title, Tooltip: metricRow{}.description(v, m) + " · click to sort by this column and colour by it"}
}

// compute returns the values of metric m's column, computing them the
// first time; nil while the metric's data are not read (Missing) or m
// has no values.
func (c *Columns) compute(m int) *columnData {
	v := c.v
	vs := &v.values
	if c.dataExp != v.exp {
		c.dataExp, c.data = v.exp, map[int]*columnData{}
	}
	if d, ok := c.data[m]; ok {
		return d
	}
	e := v.exp
	if e.Metrics[m].Unavailable != "" {
		c.data[m] = nil
		return nil
	}
	ms := model.MetricSel{Metric: m, Inclusive: true}
	d := &columnData{}
	var flat model.Flat
	d.excl, d.err = e.CallTreeValues(ms, false)
	if d.err == nil {
		d.incl, d.err = e.CallTreeValues(ms, true)
	}
	if d.err == nil {
		flat, d.err = model.RegionProfile(e, ms)
	}
	if d.err == nil {
		d.total, d.err = e.MetricTotal(ms)
	}
	if d.err != nil {
		vs.fail(fmt.Errorf("metric column %q: %w", e.Metrics[m].UniqName, d.err))
		return d // kept, so that the error is reported once
	}
	d.regExcl, d.regIncl, d.regCallees = flat.Own, flat.Whole, flat.Callees
	c.data[m] = d
	return d
}

// updateColumns computes what the metric columns show: the totals their
// percent modes refer to and, per column, the largest magnitude, whether
// negative values show and the width of the texts, over every row's
// inclusive and exclusive value, so that neither a selection nor
// expanding a row changes them (nor costs a pass over the rows).
func (c *Columns) update() {
	v := c.v
	vs := &v.values
	if len(c.metrics) == 0 {
		c.scales = c.scales[:0]
		return
	}
	format := v.look.format
	key := columnScaleKey{exp: v.exp, metrics: fmt.Sprint(c.metrics), mode: v.panes[CallPane].mode, flat: v.flat, format: format, external: vs.external}
	if key == c.scaleKey && len(c.scales) == len(c.metrics) {
		return
	}
	c.scales = c.scales[:0]
	rows := paneKind(v, CallPane).rows(v)
	for k, m := range c.metrics {
		vs.metricValues(m)
		vs.metricValues(v.metricRoot[m])
		if v.panes[CallPane].mode == ExternalPercent && vs.external != nil {
			vs.externalTotal(v.exp.Metrics[m].UniqName)
		}
		var col column
		var span valueSpan
		if c.compute(m) != nil {
			for _, n := range rows {
				for _, incl := range [2]bool{true, false} {
					x := c.value(k, n, incl)
					col.max = maxAbs(col.max, x)
					span.add(c.modeValue(k, n, x), format)
				}
			}
		}
		col.negative = span.negative
		col.width = span.width(format, c.integer(k))
		c.scales = append(c.scales, col)
	}
	if len(rows) > 0 {
		c.scaleKey = key
	}
}

// values returns column k's data, or nil.
func (c *Columns) values(k int) *columnData {
	if k < 0 || k >= len(c.metrics) {
		return nil
	}
	d := c.data[c.metrics[k]]
	if d == nil || d.err != nil {
		return nil
	}
	return d
}

// columnAbsolute returns column k's absolute value of call-pane row n in
// its state: inclusive when collapsed, exclusive when expanded.
func (c *Columns) absolute(k int, n Node) float64 {
	return c.value(k, n, !c.v.expandedBranch(CallPane, n))
}

// value returns column k's inclusive (or exclusive) absolute value of
// call-pane row n.
func (c *Columns) value(k int, n Node, inclusive bool) float64 {
	d := c.values(k)
	if d == nil {
		return math.NaN()
	}
	switch n.Kind {
	case CnodeNode:
		if inclusive {
			return at(d.incl, n.Index)
		}
		return at(d.excl, n.Index)
	case RegionNode:
		if inclusive {
			return at(d.regIncl, n.Index)
		}
		return at(d.regExcl, n.Index)
	case SubroutinesNode:
		return at(d.regCallees, n.Index)
	case HiddenNode:
		return c.hiddenSum(k, n)
	}
	return math.NaN()
}

// hiddenSum is column k's value of a "(n hidden)" row: the sum of the
// collapsed values of the rows it hides when the column's metric adds up,
// undefined otherwise (a sum of minima or ratios means nothing).
func (c *Columns) hiddenSum(k int, n Node) float64 {
	if _, ok := c.v.small.live(n.Index); !ok || !AddsUp(&c.v.exp.Metrics[c.metrics[k]]) {
		return math.NaN()
	}
	sum := 0.0
	for _, h := range c.v.small.hidden(n.Index) {
		sum += c.value(k, h, true)
	}
	return sum
}

// columnModeValue returns x, an absolute value of column k in row n, in
// the call pane's value mode; the reference of a percent mode is the
// column metric's counterpart of the main column's: its own root's value,
// its root metric's total, its own total, its total in the external
// reference.
func (c *Columns) modeValue(k int, n Node, x float64) float64 {
	v := c.v
	vs := &v.values
	m := c.metrics[k]
	ref := math.NaN()
	switch v.panes[CallPane].mode {
	case Absolute:
		return x
	case OwnRootPercent:
		if d := c.values(k); d != nil {
			ref = d.total
			if n.Kind == CnodeNode {
				ref = at(d.incl, v.cnodeRoot[n.Index])
			}
		}
	case MetricRootPercent:
		ref = vs.metricIncl[v.metricRoot[m]]
	case MetricSelectionPercent:
		ref = vs.metricIncl[m]
	case ExternalPercent:
		if vs.external != nil {
			ref = vs.externalTotal(v.exp.Metrics[m].UniqName)
		}
	}
	return vs.percent(x, ref)
}

// columnInteger reports whether column k prints without decimals: an
// integer metric in absolute mode.
func (c *Columns) integer(k int) bool {
	v := c.v
	return v.panes[CallPane].mode == Absolute && v.exp.Metrics[c.metrics[k]].IsInteger()
}

// cell returns how column k's value of row n looks.
func (c *Columns) cell(k int, n Node) (Cell, float64) {
	v := c.v
	val := c.modeValue(k, n, c.absolute(k, n))
	rng := colormap.Range{Max: 100}
	if v.panes[CallPane].mode == Absolute && k < len(c.scales) {
		rng.Max = c.scales[k].max
	}
	v.values.formatted++
	return v.look.Cell(v.look.format, val, c.integer(k), rng, false), val
}

// Chars returns the width of metric column k in characters, as
// Values.ValueChars does for the main column.
func (c *Columns) Chars(k int) int {
	if k < 0 || k >= len(c.scales) {
		return 1
	}
	return max(c.scales[k].width.whole+c.scales[k].width.frac, 1)
}

// addTo adds the metric columns to row r of pane d and, when a metric
// column is selected, takes the row's colour from it.
func (c *Columns) addTo(r *Row, d Dim, n Node) {
	if d != CallPane || len(c.metrics) == 0 {
		return
	}
	r.Columns = make([]ColumnCell, len(c.metrics))
	for k := range c.metrics {
		cell, val := c.cell(k, n)
		pad := 0
		if k < len(c.scales) {
			_, frac := splitNumber(cell.Text)
			pad = max(c.scales[k].width.frac-frac, 0)
		}
		r.Columns[k] = ColumnCell{Text: cell.Text, Pad: pad, Value: val}
		if k == c.selected {
			r.Color, r.Relief = cell.Color, cell.Relief
		}
	}
}

// sort sorts call-pane rows ns by the collapsed value of the column
// sorted by, in its direction; undefined values last.
func (c *Columns) sort(ns []Node) {
	v := c.v
	k := c.sortBy
	key := func(n Node) float64 {
		if k < 0 {
			return v.values.Inclusive(CallPane, n)
		}
		return c.value(k, n, true)
	}
	asc := c.ascending
	slices.SortStableFunc(ns, func(a, b Node) int {
		x, y := key(a), key(b)
		switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
		case xn && yn:
			return 0
		case xn:
			return 1
		case yn:
			return -1
		}
		if asc {
			x, y = y, x
		}
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
}

// info is the line below the call pane while a metric column is
// selected: its colour scale and the selected row's value in it.
func (c *Columns) info() string {
	v := c.v
	k := c.selected
	n := v.panes[CallPane].selected
	if k < 0 || k >= len(c.metrics) || !n.Valid() {
		return ""
	}
	m := c.metrics[k]
	unit := v.exp.Metrics[m].Unit
	f := v.look.format
	hi := 100.0
	if v.panes[CallPane].mode == Absolute && k < len(c.scales) {
		hi = c.scales[k].max
	} else {
		unit = "%"
	}
	lo := f.Format(0, false)
	if k < len(c.scales) && (c.scales[k].negative || v.look.scale.Diverging) {
		lo = f.Format(-hi, false)
	}
	cell, _ := c.cell(k, n)
	return fmt.Sprintf("colours: column %s · scale %s – %s %s · selected %s",
		metricRow{}.label(v, m), lo, f.Format(hi, false), unit, cell.Text)
}

// explain names call-pane row n's values in the metric columns, for the
// status line.
func (c *Columns) explain(n Node) string {
	v := c.v
	if len(c.metrics) == 0 || !n.Valid() {
		return ""
	}
	var parts []string
	for k, m := range c.metrics {
		cell, _ := c.cell(k, n)
		unit := v.exp.Metrics[m].Unit
		if v.panes[CallPane].mode != Absolute {
			unit = "%"
		}
		parts = append(parts, strings.TrimSpace(metricRow{}.label(v, m)+" "+cell.Text+" "+unit))
	}
	return "columns: " + strings.Join(parts, ", ")
}

// FitSplitWithCall is FitSplit when the call pane needs call wide (its
// metric columns and a label): the system pane gives up width first, then
// the metric pane, each down to 15 % of the total, for the call pane.
func FitSplitWithCall(total, metric, system, call float64) Split {
	s := FitSplit(total, metric, system)
	if total < 400 {
		total = 1280
	}
	m := s.Outer * total
	sys := (total - m) * (1 - s.Inner)
	short := call - (total - m - sys)
	for _, w := range []*float64{&sys, &m} {
		give := min(max(*w-0.15*total, 0), max(short, 0))
		*w -= give
		short -= give
	}
	return Split{m / total, (total - m - sys) / (total - m)}
}

// columnCSVHeads are the CSV titles of pane d's metric columns: each
// metric's value with every digit and as shown.
func columnCSVHeads(v *View, d Dim) []string {
	if d != CallPane {
		return nil
	}
	var out []string
	for _, m := range v.cols.metrics {
		name := v.exp.Metrics[m].UniqName
		out = append(out, name, name+" shown")
	}
	return out
}

// columnCSVCells are row n's metric-column values for PaneCSV.
func columnCSVCells(v *View, d Dim, n Node) []string {
	if d != CallPane {
		return nil
	}
	exact := numfmt.Precise()
	var out []string
	for k := range v.cols.metrics {
		c, val := v.cols.cell(k, n)
		num := ""
		if !math.IsNaN(val) {
			num = exact.Format(val, false)
		}
		out = append(out, num, c.Text)
	}
	return out
}

// CallTree returns column k's values per call path, exclusive and
// inclusive (model.Experiment.CallTreeValues), for views built on them
// (the bottom-up view); ok false while they are not computed.
func (c *Columns) CallTree(k int) (excl, incl []float64, ok bool) {
	d := c.values(k)
	if d == nil {
		return nil, nil, false
	}
	return d.excl, d.incl, true
}
