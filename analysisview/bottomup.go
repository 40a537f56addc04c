package analysisview

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/colormap"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

// BottomUp is the bottom-up view of a View's call tree for its selected
// metric (model.BottomUp): every region at the top with its
// inclusive and exclusive values, below it the regions that called it,
// with the values split by caller. Rows are computed when a widget asks
// for them and kept until the metric selection changes (Sync).
type BottomUp struct {
	v     *view.View
	key   model.MetricSel // Metric −1: no metric selected
	valid bool
	note  string // why there are no rows, or ""
	top   []string
	rows  map[string]*model.CallerRow
	kids  map[string][]string
	max   float64 // largest magnitude at the top: the colour scale
	fmt   numfmt.Format
	excl  []float64 // the values the rows were computed from
	small float64   // the SmallRows threshold the rows were folded at
	// hidden holds the ids each "(n hidden)" row hides (bottomup_fold.go).
	hidden map[string][]string
}

// sameSlice reports whether x and y are the same slice of values.
func sameSlice(x, y []float64) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// NewBottomUp returns the bottom-up view of v's call tree.
func NewBottomUp(v *view.View) *BottomUp { return &BottomUp{v: v} }

// BottomUpColumns are the titles of a bottom-up row's value columns.
var BottomUpColumns = []string{"Inclusive", "Exclusive", "% of total"}

// Sync follows the view's metric selection; v must be up to date
// (Update). It reports whether the rows changed.
func (b *BottomUp) Sync() bool {
	v := b.v
	sel := v.Selection()
	key := sel.Metric
	if !sel.HasMetric {
		key = model.MetricSel{Metric: -1, Inclusive: true}
	}
	callExcl, callIncl, _ := v.Values().CallTree()
	if b.valid && key == b.key && sameSlice(b.excl, callExcl) && b.small == v.SmallRows().Threshold() {
		b.fmt = v.Appearance().NumberFormat() // the number format may have changed
		return false
	}
	b.key, b.valid, b.excl, b.small = key, true, callExcl, v.SmallRows().Threshold()
	b.hidden = map[string][]string{}
	b.top, b.rows, b.kids, b.note, b.max = nil, map[string]*model.CallerRow{}, map[string][]string{}, "", 0
	e := v.Experiment()
	switch {
	case !sel.HasMetric:
		b.note = "Select a metric."
	case e.Metrics[key.Metric].IsDerived():
		b.note = "The values of a derived metric do not add up along the call tree: choose a stored metric for the bottom-up view."
	case callExcl == nil:
		b.note = "The selected metric has no values."
	}
	if b.note != "" {
		return true
	}
	agg := e.Metrics[key.Metric].Aggregation
	top := model.BottomUp(e, callExcl, callIncl, agg)
	sortCallerRows(top)
	b.top = make([]string, 0, len(top))
	for i := range top {
		id := "b" + strconv.Itoa(top[i].Region)
		b.rows[id] = &top[i]
		b.top = append(b.top, id)
		b.max = math.Max(b.max, math.Max(math.Abs(top[i].Incl), math.Abs(top[i].Excl)))
	}
	b.fmt = v.Appearance().NumberFormat()
	return true
}

// View returns the view whose call tree b turns upside down.
func (b *BottomUp) View() *view.View { return b.v }

// Note returns why the view has no rows, or "".
func (b *BottomUp) Note() string { return b.note }

// Title describes what the rows show.
func (b *BottomUp) Title() string {
	if b.key.Metric < 0 {
		return "Bottom-up view"
	}
	what := b.v.Label(view.Node{Kind: view.MetricNode, Index: b.key.Metric})
	if !b.key.Inclusive {
		what += " without its child metrics"
	}
	return fmt.Sprintf("Bottom-up view of %s: every region, below it its callers (%d regions)", what, len(b.top))
}

// ChildIDs returns the rows below id ("" for the top), largest inclusive
// value first.
func (b *BottomUp) ChildIDs(id string) []string {
	if h, ok := b.hidden[id]; ok {
		return h
	}
	return b.fold(id, b.childIDs(id))
}

func (b *BottomUp) childIDs(id string) []string {
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
	e := b.v.Experiment()
	excl, incl, _ := b.v.Values().CallTree()
	callers := model.Callers(e, *row, excl, incl, e.Metrics[b.key.Metric].Aggregation)
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
	if id == "" || b.hidden[id] != nil {
		return true
	}
	row := b.rows[id]
	if row == nil {
		return false
	}
	for _, p := range row.Paths {
		if b.v.Experiment().Cnodes[p.At].Parent >= 0 {
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
	if h, ok := b.hidden[id]; ok {
		incl, excl = b.sums(h)
		return incl, excl, true
	}
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
	if h, ok := b.hidden[id]; ok {
		return b.hiddenRow(h)
	}
	row := b.rows[id]
	if row == nil {
		return BottomUpRow{}
	}
	v := b.v
	e := v.Experiment()
	excl, incl, total := v.Values().CallTree()
	integer := e.Metrics[b.key.Metric].IsInteger()
	c := v.Appearance().Cell(b.fmt, row.Incl, integer, colormap.Range{Max: b.max}, true)
	share := ""
	if t := total; t != 0 && !math.IsNaN(t) {
		share = numfmt.Percent(row.Incl, t)
	}
	label := e.Regions[row.Region].Name
	if row.Depth > 0 {
		label = "← " + label
	}
	var tip string
	if row.Depth == 0 {
		tip = fmt.Sprintf("%s: %s", view.RegionText(&e.Regions[row.Region]), view.Count(len(row.Paths), "call path"))
	} else {
		tip = fmt.Sprintf("called %d levels up from %s through %s", row.Depth, e.Regions[b.rows[strings.SplitN(id, "/", 2)[0]].Region].Name, view.Count(len(row.Paths), "call path"))
	}
	if ex, in, n := row.Uncalled(e, excl, incl, e.Metrics[b.key.Metric].Aggregation); n > 0 && len(row.Paths) > n {
		tip += fmt.Sprintf("; %s without a caller hold %s inclusive, %s exclusive", view.Count(n, "call path"), b.fmt.Format(in, integer), b.fmt.Format(ex, integer))
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
func (b *BottomUp) Target(id string) view.Node {
	row := b.rows[id]
	if row == nil {
		return view.Node{}
	}
	if b.v.Flat() {
		return view.Node{Kind: view.RegionNode, Index: row.Region}
	}
	_, incl, _ := b.v.Values().CallTree()
	best, bestVal := -1, math.Inf(-1)
	for _, p := range row.Paths {
		x := at(incl, p.At)
		if best < 0 || math.Abs(x) > bestVal {
			best, bestVal = p.At, math.Abs(x)
		}
	}
	if best < 0 {
		return view.Node{}
	}
	return view.Node{Kind: view.CnodeNode, Index: best}
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
	n := b.v.Selected(view.CallPane)
	switch n.Kind {
	case view.CnodeNode:
		return b.v.Experiment().Cnodes[n.Index].Region
	case view.RegionNode, view.SubroutinesNode:
		return n.Index
	}
	return -1
}

// at returns s[i], or NaN when s has no such entry.
func at(s []float64, i int) float64 {
	if i < 0 || i >= len(s) {
		return math.NaN()
	}
	return s[i]
}

// BottomUpCSV writes rows of the bottom-up view (ids shown, in order) as
// CSV: the region and its chain of callers, the depth, the inclusive and
// exclusive values with every digit and their share of the total.
func BottomUpCSV(b *BottomUp, ids []string, w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"region", "callers", "depth", "inclusive", "exclusive", "% of total", "unit"}); err != nil {
		return err
	}
	exact := numfmt.Precise()
	e := b.v.Experiment()
	unit := ""
	if b.key.Metric >= 0 {
		unit = e.Metrics[b.key.Metric].Unit
	}
	for _, id := range ids {
		if h, ok := b.hidden[id]; ok {
			in, ex := b.sums(h)
			r := b.Row(id)
			rec := []string{r.Label, "", strconv.Itoa(strings.Count(id, "/")), exact.Format(in, false), exact.Format(ex, false), r.Columns[2], unit}
			if err := cw.Write(rec); err != nil {
				return err
			}
			continue
		}
		row := b.rows[id]
		if row == nil {
			continue
		}
		parts := strings.Split(id, "/")
		var chain []string
		for _, p := range parts[1:] {
			r, err := strconv.Atoi(p)
			if err != nil || r < 0 || r >= len(e.Regions) {
				return fmt.Errorf("bottom-up row %q: bad id", id)
			}
			chain = append(chain, e.Regions[r].Name)
		}
		top := b.rows[parts[0]]
		rec := []string{e.Regions[top.Region].Name, strings.Join(chain, " ← "), strconv.Itoa(row.Depth),
			exact.Format(row.Incl, false), exact.Format(row.Excl, false), b.Row(id).Columns[2], unit}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
