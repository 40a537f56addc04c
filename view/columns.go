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

// columnState is the metric columns of a View.
type columnState struct {
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

// Columns returns the metrics shown as columns, left to right.
func (v *View) Columns() []int { return slices.Clone(v.cols.metrics) }

// HasColumn reports whether metric m is shown as a column.
func (v *View) HasColumn(m int) bool { return slices.Contains(v.cols.metrics, m) }

// SetColumn shows metric m as the last column (on) or removes its column.
// It reports whether the columns changed. Removing the column sorted by
// or selected falls back to the main column.
func (v *View) SetColumn(m int, on bool) bool {
	if m < 0 || m >= len(v.exp.Metrics) || v.HasColumn(m) == on {
		return false
	}
	if on {
		v.cols.metrics = append(v.cols.metrics, m)
		return true
	}
	k := slices.Index(v.cols.metrics, m)
	v.cols.metrics = slices.Delete(v.cols.metrics, k, k+1)
	fix := func(c *int) {
		switch {
		case *c == k:
			*c = -1
		case *c > k:
			*c--
		}
	}
	fix(&v.cols.selected)
	fix(&v.cols.sortBy)
	return true
}

// SetColumns shows exactly the metrics ms as columns, in that order
// (metrics out of range are skipped); the main column is selected again.
func (v *View) SetColumns(ms []int) {
	v.cols.metrics = nil
	for _, m := range ms {
		if m >= 0 && m < len(v.exp.Metrics) && !v.HasColumn(m) {
			v.cols.metrics = append(v.cols.metrics, m)
		}
	}
	v.cols.selected, v.cols.sortBy, v.cols.sorted = -1, -1, false
}

// SelectedColumn returns the column the colour squares follow: -1 for the
// main column.
func (v *View) SelectedColumn() int { return v.cols.selected }

// SortColumn returns the column the call pane is sorted by (-1: the main
// column) and whether it is sorted by a column at all, smallest first
// when ascending.
func (v *View) SortColumn() (k int, sorted, ascending bool) {
	return v.cols.sortBy, v.cols.sorted, v.cols.ascending
}

// SortByColumn sorts the call pane by column k (-1: the main column),
// largest value first, and colours its squares by it; sorting again by
// the same column reverses the order. Other panes keep their order.
func (v *View) SortByColumn(k int) {
	if k < -1 || k >= len(v.cols.metrics) {
		return
	}
	if v.cols.sorted && v.cols.sortBy == k {
		v.cols.ascending = !v.cols.ascending
	} else {
		v.cols.sorted, v.cols.sortBy, v.cols.ascending = true, k, false
	}
	v.cols.selected = k
}

// SetColumnSort restores a column sort (SortByColumn's result): sorted
// by column k, in the direction given.
func (v *View) SetColumnSort(k int, ascending bool) {
	if k < -1 || k >= len(v.cols.metrics) {
		return
	}
	v.cols.sorted, v.cols.sortBy, v.cols.ascending, v.cols.selected = true, k, ascending, k
}

// clearColumnSort ends sorting by a column: the view's sort order applies
// to the call pane again and the squares show the main column.
func (v *View) clearColumnSort() {
	v.cols.sorted, v.cols.sortBy, v.cols.ascending, v.cols.selected = false, -1, false, -1
}

// ColumnHeads returns the titles of the call pane's value columns: the
// main column first, then the metric columns; nil when there are no
// metric columns (the pane then shows its value beside each label).
func (v *View) ColumnHeads() []ColumnHead {
	if len(v.cols.metrics) == 0 {
		return nil
	}
	heads := make([]ColumnHead, 0, 1+len(v.cols.metrics))
	main := ColumnHead{Title: "(no metric)"}
	if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
		main = v.columnHead(s.Index)
		if v.expandedBranch(MetricPane, s) {
			main.Title += ", own"
			main.Tooltip += " (the metric's own value, without its child metrics: it is expanded in the metric pane)"
		}
	}
	heads = append(heads, main)
	for _, m := range v.cols.metrics {
		heads = append(heads, v.columnHead(m))
	}
	for k := range heads {
		c := k - 1
		heads[k].Selected = v.cols.selected == c
		heads[k].Sorted = v.cols.sorted && v.cols.sortBy == c
		heads[k].Ascending = heads[k].Sorted && v.cols.ascending
	}
	return heads
}

func (v *View) columnHead(m int) ColumnHead {
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

// columnData returns the values of metric m's column, computing them the
// first time; nil while the metric's data are not read (Missing) or m
// has no values.
func (vs *Values) columnData(m int) *columnData {
	v := vs.v
	c := &v.cols
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
		flat, d.err = e.RegionProfile(ms)
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
func (vs *Values) updateColumns() {
	v := vs.v
	c := &v.cols
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
		if vs.columnData(m) != nil {
			for _, n := range rows {
				for _, incl := range [2]bool{true, false} {
					x := vs.columnValue(k, n, incl)
					col.max = maxAbs(col.max, x)
					span.add(vs.columnModeValue(k, n, x), format)
				}
			}
		}
		col.negative = span.negative
		col.width = span.width(format, vs.columnInteger(k))
		c.scales = append(c.scales, col)
	}
	if len(rows) > 0 {
		c.scaleKey = key
	}
}

// columnValues returns column k's data, or nil.
func (vs *Values) columnValues(k int) *columnData {
	c := &vs.v.cols
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
func (vs *Values) columnAbsolute(k int, n Node) float64 {
	return vs.columnValue(k, n, !vs.v.expandedBranch(CallPane, n))
}

// columnValue returns column k's inclusive (or exclusive) absolute value
// of call-pane row n.
func (vs *Values) columnValue(k int, n Node, inclusive bool) float64 {
	d := vs.columnValues(k)
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
	}
	return math.NaN()
}

// columnModeValue returns x, an absolute value of column k in row n, in
// the call pane's value mode; the reference of a percent mode is the
// column metric's counterpart of the main column's: its own root's value,
// its root metric's total, its own total, its total in the external
// reference.
func (vs *Values) columnModeValue(k int, n Node, x float64) float64 {
	v := vs.v
	m := v.cols.metrics[k]
	ref := math.NaN()
	switch v.panes[CallPane].mode {
	case Absolute:
		return x
	case OwnRootPercent:
		if d := vs.columnValues(k); d != nil {
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
func (vs *Values) columnInteger(k int) bool {
	v := vs.v
	return v.panes[CallPane].mode == Absolute && v.exp.Metrics[v.cols.metrics[k]].IsInteger()
}

// columnCell returns how column k's value of row n looks.
func (vs *Values) columnCell(k int, n Node) (Cell, float64) {
	v := vs.v
	val := vs.columnModeValue(k, n, vs.columnAbsolute(k, n))
	rng := colormap.Range{Max: 100}
	if v.panes[CallPane].mode == Absolute && k < len(v.cols.scales) {
		rng.Max = v.cols.scales[k].max
	}
	vs.formatted++
	return v.look.cell(v.look.format, val, vs.columnInteger(k), rng, false), val
}

// ColumnChars returns the width of metric column k in characters, as
// ValueChars does for the main column.
func (vs *Values) ColumnChars(k int) int {
	c := &vs.v.cols
	if k < 0 || k >= len(c.scales) {
		return 1
	}
	return max(c.scales[k].width.whole+c.scales[k].width.frac, 1)
}

// addColumns adds the metric columns to row r of pane d and, when a
// metric column is selected, takes the row's colour from it.
func (v *View) addColumns(r *Row, d Dim, n Node) {
	if d != CallPane || len(v.cols.metrics) == 0 {
		return
	}
	r.Columns = make([]ColumnCell, len(v.cols.metrics))
	for k := range v.cols.metrics {
		c, val := v.values.columnCell(k, n)
		pad := 0
		if k < len(v.cols.scales) {
			_, frac := splitNumber(c.Text)
			pad = max(v.cols.scales[k].width.frac-frac, 0)
		}
		r.Columns[k] = ColumnCell{Text: c.Text, Pad: pad, Value: val}
		if k == v.cols.selected {
			r.Color, r.Relief = c.Color, c.Relief
		}
	}
}

// sortByColumn sorts call-pane rows ns by the collapsed value of the
// column sorted by, in its direction; undefined values last.
func (v *View) sortByColumn(ns []Node) {
	k := v.cols.sortBy
	key := func(n Node) float64 {
		if k < 0 {
			return v.values.Inclusive(CallPane, n)
		}
		return v.values.columnValue(k, n, true)
	}
	asc := v.cols.ascending
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

// columnInfo is the line below the call pane while a metric column is
// selected: its colour scale and the selected row's value in it.
func (vs *Values) columnInfo() string {
	v := vs.v
	k := v.cols.selected
	n := v.panes[CallPane].selected
	if k < 0 || k >= len(v.cols.metrics) || !n.Valid() {
		return ""
	}
	m := v.cols.metrics[k]
	unit := v.exp.Metrics[m].Unit
	f := v.look.format
	hi := 100.0
	if v.panes[CallPane].mode == Absolute && k < len(v.cols.scales) {
		hi = v.cols.scales[k].max
	} else {
		unit = "%"
	}
	lo := f.Format(0, false)
	if k < len(v.cols.scales) && (v.cols.scales[k].negative || v.look.scale.Diverging) {
		lo = f.Format(-hi, false)
	}
	c, _ := vs.columnCell(k, n)
	return fmt.Sprintf("colours: column %s · scale %s – %s %s · selected %s",
		metricRow{}.label(v, m), lo, f.Format(hi, false), unit, c.Text)
}

// columnsExplain names the selected call-pane row's values in the metric
// columns, for the status line.
func (v *View) columnsExplain(n Node) string {
	if len(v.cols.metrics) == 0 || !n.Valid() {
		return ""
	}
	var parts []string
	for k, m := range v.cols.metrics {
		c, _ := v.values.columnCell(k, n)
		unit := v.exp.Metrics[m].Unit
		if v.panes[CallPane].mode != Absolute {
			unit = "%"
		}
		parts = append(parts, strings.TrimSpace(metricRow{}.label(v, m)+" "+c.Text+" "+unit))
	}
	return "columns: " + strings.Join(parts, ", ")
}

// The commands of metric columns.
const (
	CmdColumn   Command = "metric column"     // Arg: a metric, shown as a column or removed
	CmdNoColumn Command = "no metric columns" // removes every metric column
)

// columnMenu returns the context-menu items of metric columns for row n
// of pane d: a metric row is shown as a column or removed.
func columnMenu(v *View, d Dim, n Node) []MenuItem {
	if v == nil || d != MetricPane || n.Kind != MetricNode {
		return nil
	}
	it := MenuItem{Label: "Show as column in the call tree", Command: CmdColumn, Arg: n.Index}
	if v.HasColumn(n.Index) {
		it.Label = "Remove its column from the call tree"
	}
	return []MenuItem{separator, it}
}

// columnsMenuItems are the Metric tree menu's items of metric columns.
func columnsMenuItems(v *View) []MenuItem {
	show := item("Show selected metric as column", CmdColumn)
	clear := item("Remove all metric columns", CmdNoColumn)
	show.Disabled, clear.Disabled = true, true
	if v != nil {
		if s := v.Selected(MetricPane); s.Kind == MetricNode {
			show.Arg, show.Disabled, show.Checked = s.Index, false, v.HasColumn(s.Index)
		}
		clear.Disabled = len(v.cols.metrics) == 0
	}
	return []MenuItem{separator, show, clear}
}

// Columns returns the titles of the bottom-up rows' value columns:
// BottomUpColumns, then each metric column's inclusive value (absolute,
// as the bottom-up view's own columns).
func (b *BottomUp) Columns() []string {
	out := slices.Clone(BottomUpColumns)
	for _, m := range b.v.cols.metrics {
		out = append(out, metricRow{}.label(b.v, m)+" ("+b.v.exp.Metrics[m].Unit+")")
	}
	return out
}

// columnTexts returns row's inclusive values of the metric columns; a
// derived metric's values do not add up along call paths, so it has none.
func (b *BottomUp) columnTexts(row *model.CallerRow) []string {
	v := b.v
	var out []string
	for k, m := range v.cols.metrics {
		metric := &v.exp.Metrics[m]
		d := v.values.columnValues(k)
		if d == nil || metric.IsDerived() {
			out = append(out, b.fmt.Format(math.NaN(), false))
			continue
		}
		_, in := row.ValuesOf(d.excl, d.incl, metric.Aggregation)
		out = append(out, b.fmt.Format(in, metric.IsInteger()))
	}
	return out
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
		c, val := v.values.columnCell(k, n)
		num := ""
		if !math.IsNaN(val) {
			num = exact.Format(val, false)
		}
		out = append(out, num, c.Text)
	}
	return out
}
