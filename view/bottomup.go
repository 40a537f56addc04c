package view

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/colormap"
	"cubeview/model"
	"cubeview/numfmt"
)

// BottomUp is the bottom-up view of a View's call tree for its selected
// metric (model.Experiment.BottomUp): every region at the top with its
// inclusive and exclusive values, below it the regions that called it,
// with the values split by caller. Rows are computed when a widget asks
// for them and kept until the metric selection changes (Sync).
type BottomUp struct {
	v     *View
	key   metricKey
	valid bool
	note  string // why there are no rows, or ""
	top   []string
	rows  map[string]*model.CallerRow
	kids  map[string][]string
	max   float64 // largest magnitude at the top: the colour scale
	fmt   numfmt.Format
	excl  []float64 // the values the rows were computed from
}

// sameSlice reports whether x and y are the same slice of values.
func sameSlice(x, y []float64) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// NewBottomUp returns the bottom-up view of v's call tree.
func NewBottomUp(v *View) *BottomUp { return &BottomUp{v: v} }

// BottomUpColumns are the titles of a bottom-up row's value columns.
var BottomUpColumns = []string{"Inclusive", "Exclusive", "% of total"}

// Sync follows the view's metric selection; v must be up to date
// (Update). It reports whether the rows changed.
func (b *BottomUp) Sync() bool {
	v := b.v
	ms, ok := metricSel(v)
	key := metricKey{ms.Metric, ms.Inclusive}
	if !ok {
		key = metricKey{-1, true}
	}
	if b.valid && key == b.key && sameSlice(b.excl, v.values.callExcl) {
		b.fmt = v.look.format // the number format may have changed
		return false
	}
	b.key, b.valid, b.excl = key, true, v.values.callExcl
	b.top, b.rows, b.kids, b.note, b.max = nil, map[string]*model.CallerRow{}, map[string][]string{}, "", 0
	e := v.exp
	switch {
	case !ok:
		b.note = "Select a metric."
	case e.Metrics[ms.Metric].IsDerived():
		b.note = "The values of a derived metric do not add up along the call tree: choose a stored metric for the bottom-up view."
	case v.values.callExcl == nil:
		b.note = "The selected metric has no values."
	}
	if b.note != "" {
		return true
	}
	agg := e.Metrics[ms.Metric].Aggregation
	top := e.BottomUp(v.values.callExcl, v.values.callIncl, agg)
	sortCallerRows(top)
	b.top = make([]string, 0, len(top))
	for i := range top {
		id := "b" + strconv.Itoa(top[i].Region)
		b.rows[id] = &top[i]
		b.top = append(b.top, id)
		b.max = math.Max(b.max, math.Max(math.Abs(top[i].Incl), math.Abs(top[i].Excl)))
	}
	b.fmt = v.look.format
	return true
}

// View returns the view whose call tree b turns upside down.
func (b *BottomUp) View() *View { return b.v }

// Note returns why the view has no rows, or "".
func (b *BottomUp) Note() string { return b.note }

// Title describes what the rows show.
func (b *BottomUp) Title() string {
	if b.key.metric < 0 {
		return "Bottom-up view"
	}
	m := b.v.exp.Metrics[b.key.metric]
	what := metricName(&m)
	if !b.key.inclusive {
		what += " without its child metrics"
	}
	return fmt.Sprintf("Bottom-up view of %s: every region, below it its callers (%d regions)", what, len(b.top))
}

func metricName(m *model.Metric) string {
	if m.DispName != "" {
		return m.DispName
	}
	return m.UniqName
}

// ChildIDs returns the rows below id ("" for the top), largest inclusive
// value first.
func (b *BottomUp) ChildIDs(id string) []string {
	if id == "" {
		return b.top
	}
	if k, ok := b.kids[id]; ok {
		return k
	}
	row := b.rows[id]
	if row == nil {
		return nil
	}
	ms := b.v.exp.Metrics[b.key.metric]
	callers := b.v.exp.Callers(*row, b.v.values.callExcl, b.v.values.callIncl, ms.Aggregation)
	sortCallerRows(callers)
	ids := make([]string, len(callers))
	for i := range callers {
		ids[i] = id + "/" + strconv.Itoa(callers[i].Region)
		b.rows[ids[i]] = &callers[i]
	}
	b.kids[id] = ids
	return ids
}

// IsBranch reports whether row id has callers below it.
func (b *BottomUp) IsBranch(id string) bool {
	if id == "" {
		return true
	}
	row := b.rows[id]
	if row == nil {
		return false
	}
	for _, p := range row.Paths {
		if b.v.exp.Cnodes[p.At].Parent >= 0 {
			return true
		}
	}
	return false
}

// sortCallerRows puts the largest inclusive magnitude first, then the
// largest exclusive one; ties keep the region order.
func sortCallerRows(rows []model.CallerRow) {
	slices.SortFunc(rows, func(x, y model.CallerRow) int {
		return cmp.Or(cmp.Compare(math.Abs(y.Incl), math.Abs(x.Incl)),
			cmp.Compare(math.Abs(y.Excl), math.Abs(x.Excl)), cmp.Compare(x.Region, y.Region))
	})
}

// Values returns row id's inclusive and exclusive values.
func (b *BottomUp) Values(id string) (incl, excl float64, ok bool) {
	row := b.rows[id]
	if row == nil {
		return 0, 0, false
	}
	return row.Incl, row.Excl, true
}

// BottomUpRow is what a widget shows for one bottom-up row.
type BottomUpRow struct {
	Label   string
	Columns []string // BottomUp.Columns
	Color   color.NRGBA
	Relief  colormap.Relief
	Tooltip string
}

// Row returns the display data of row id.
func (b *BottomUp) Row(id string) BottomUpRow {
	row := b.rows[id]
	if row == nil {
		return BottomUpRow{}
	}
	v := b.v
	e := v.exp
	integer := e.Metrics[b.key.metric].IsInteger()
	c := v.look.cell(b.fmt, row.Incl, integer, colormap.Range{Max: b.max}, true)
	share := ""
	if t := v.values.callTotal; t != 0 && !math.IsNaN(t) {
		share = numfmt.Percent(row.Incl, t)
	}
	label := e.Regions[row.Region].Name
	if row.Depth > 0 {
		label = "← " + label
	}
	var tip string
	if row.Depth == 0 {
		tip = fmt.Sprintf("%s: %s", RegionText(&e.Regions[row.Region]), Count(len(row.Paths), "call path"))
	} else {
		tip = fmt.Sprintf("called %d levels up from %s through %s", row.Depth, e.Regions[b.rows[strings.SplitN(id, "/", 2)[0]].Region].Name, Count(len(row.Paths), "call path"))
	}
	if ex, in, n := row.Uncalled(e, v.values.callExcl, v.values.callIncl, e.Metrics[b.key.metric].Aggregation); n > 0 && len(row.Paths) > n {
		tip += fmt.Sprintf("; %s without a caller hold %s inclusive, %s exclusive", Count(n, "call path"), b.fmt.Format(in, integer), b.fmt.Format(ex, integer))
	}
	return BottomUpRow{
		Label:   label,
		Columns: append([]string{c.Text, b.fmt.Format(row.Excl, integer), share}, b.columnTexts(row)...),
		Color:   c.Color,
		Relief:  c.Relief,
		Tooltip: tip,
	}
}

// Target returns the call-pane row to select for bottom-up row id: the
// region in the flat profile; in the call tree the call path of the row
// with the largest inclusive value (at a caller row, the caller's call
// path through which it holds most).
func (b *BottomUp) Target(id string) Node {
	row := b.rows[id]
	if row == nil {
		return Node{}
	}
	if b.v.flat {
		return Node{RegionNode, row.Region}
	}
	best, bestVal := -1, math.Inf(-1)
	for _, p := range row.Paths {
		x := at(b.v.values.callIncl, p.At)
		if best < 0 || math.Abs(x) > bestVal {
			best, bestVal = p.At, math.Abs(x)
		}
	}
	if best < 0 {
		return Node{}
	}
	return Node{CnodeNode, best}
}

// RegionRowID returns the id of region r's top row, or "" when r has no
// call path.
func (b *BottomUp) RegionRowID(r int) string {
	id := "b" + strconv.Itoa(r)
	if b.rows[id] == nil {
		return ""
	}
	return id
}

// SelectedRegion returns the region of the call pane's selection, or −1.
func (b *BottomUp) SelectedRegion() int {
	n := b.v.panes[CallPane].selected
	switch n.Kind {
	case CnodeNode:
		return b.v.exp.Cnodes[n.Index].Region
	case RegionNode, SubroutinesNode:
		return n.Index
	}
	return -1
}
