package analysisview

import (
	"fmt"
	"math"
	"strconv"

	"cubeview/colormap"
	"cubeview/numfmt"
	"cubeview/view"
)

// hiddenSuffix ends the id of a bottom-up "(n hidden)" row: its parent's
// id (none at the top) and "~", which no region row id holds.
const hiddenSuffix = "~"

// fold replaces the rows ids below row id whose inclusive magnitude is
// under the View's SmallRows threshold of the total by one "(n hidden)"
// row at the end, when there are at least view.MinHidden; as in the
// panes, only a metric whose values add up folds.
func (b *BottomUp) fold(id string, ids []string) []string {
	v := b.v
	t := v.SmallRows().Threshold()
	if t == 0 || b.key.Metric < 0 || !view.AddsUp(&v.Experiment().Metrics[b.key.Metric]) {
		return ids
	}
	_, _, total := v.Values().CallTree()
	total = math.Abs(total)
	if !(total > 0) || math.IsInf(total, 0) {
		return ids
	}
	var keep, small []string
	for _, c := range ids {
		if r := b.rows[c]; r != nil && math.Abs(r.Incl) < t*total {
			small = append(small, c)
		} else {
			keep = append(keep, c)
		}
	}
	if len(small) < view.MinHidden {
		return ids
	}
	hid := id + "/" + hiddenSuffix
	if id == "" {
		hid = hiddenSuffix
	}
	if b.hidden == nil {
		b.hidden = map[string][]string{}
	}
	b.hidden[hid] = small
	return append(keep, hid)
}

// sums returns the inclusive and exclusive values of rows ids added up.
func (b *BottomUp) sums(ids []string) (incl, excl float64) {
	for _, id := range ids {
		if r := b.rows[id]; r != nil {
			incl += r.Incl
			excl += r.Excl
		}
	}
	return incl, excl
}

// hiddenRow is what a widget shows for a "(n hidden)" row hiding ids.
func (b *BottomUp) hiddenRow(ids []string) BottomUpRow {
	v := b.v
	integer := v.Experiment().Metrics[b.key.Metric].IsInteger()
	incl, excl := b.sums(ids)
	c := v.Appearance().Cell(b.fmt, incl, integer, colormap.Range{Max: b.max}, true)
	share := ""
	if _, _, t := v.Values().CallTree(); t != 0 && !math.IsNaN(t) {
		share = numfmt.Percent(incl, t)
	}
	return BottomUpRow{
		Label:   "(" + strconv.Itoa(len(ids)) + " hidden)",
		Columns: []string{c.Text, b.fmt.Format(excl, integer), share},
		Color:   c.Color,
		Relief:  c.Relief,
		Tooltip: fmt.Sprintf("%s below %s %% of the total, folded into one row that shows their sum (View › Hide small rows; open it to see them)", view.Count(len(ids), "row"), strconv.FormatFloat(100*v.SmallRows().Threshold(), 'g', -1, 64)),
	}
}
