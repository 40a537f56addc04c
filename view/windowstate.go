package view

import (
	"slices"
	"strconv"

	"cubeview/internal/prefs"
)

// Preference keys of the window state remembered beside the splits and
// the number format: the panes' value modes, the sort order, the panel
// open below the panes and the window's size.
const (
	paneModesKey  = "paneModes"  // one mode name per pane
	sortOrderKey  = "sortOrder"  // a SortOrder
	openPanelKey  = "openPanel"  // a Panel, "" for none
	windowSizeKey = "windowSize" // width and height, as text
	smallRowsKey  = "smallRows"  // SmallRows threshold, a share of the total
)

// Panel names a panel shown below a window's panes that a new window
// opens again.
type Panel string

// The panels a window remembers.
const (
	NoPanel         Panel = ""
	StatisticsPanel Panel = "statistics"
	SourcePanel     Panel = "source"
)

// PaneModesPref returns the value mode each pane had last; Absolute for
// a pane without one, and for external percent, which needs a reference
// that a new window does not have.
func PaneModesPref(p *prefs.Store) [SystemPane + 1]Mode {
	var modes [SystemPane + 1]Mode
	l := p.StringList(paneModesKey)
	for d := range modes {
		if d < len(l) {
			if m, ok := ParseMode(Dim(d), l[d]); ok && m != ExternalPercent {
				modes[d] = m
			}
		}
	}
	return modes
}

// SavePaneModes remembers the panes' value modes of v.
func SavePaneModes(p *prefs.Store, v *View) {
	l := make([]string, SystemPane+1)
	for d := range l {
		l[d] = v.Mode(Dim(d)).String()
	}
	p.SetStringList(paneModesKey, l)
}

// SortOrderPref returns the sort order chosen last (FileOrder at first).
func SortOrderPref(p *prefs.Store) SortOrder {
	o := SortOrder(p.Float(sortOrderKey, float64(FileOrder)))
	if o > ByName {
		return FileOrder
	}
	return o
}

// SaveSortOrder remembers o.
func SaveSortOrder(p *prefs.Store, o SortOrder) { p.SetFloat(sortOrderKey, float64(o)) }

// PanelPref returns the panel open last below the panes.
func PanelPref(p *prefs.Store) Panel {
	switch x := Panel(p.String(openPanelKey)); x {
	case StatisticsPanel, SourcePanel:
		return x
	}
	return NoPanel
}

// SavePanel remembers x as the panel open below the panes.
func SavePanel(p *prefs.Store, x Panel) { p.SetString(openPanelKey, string(x)) }

// WindowSizePref returns the size the user gave a window last, zero when
// none (WindowSize then takes the default).
func WindowSizePref(p *prefs.Store) Size {
	l := p.StringList(windowSizeKey)
	if len(l) != 2 {
		return Size{}
	}
	w, err1 := strconv.ParseFloat(l[0], 64)
	h, err2 := strconv.ParseFloat(l[1], 64)
	if err1 != nil || err2 != nil || w < 1 || h < 1 {
		return Size{}
	}
	return Size{w, h}
}

// SaveWindowSize remembers s as the size of the window closed last.
func SaveWindowSize(p *prefs.Store, s Size) {
	p.SetStringList(windowSizeKey, []string{strconv.FormatFloat(s.Width, 'f', 0, 64), strconv.FormatFloat(s.Height, 'f', 0, 64)})
}

// SmallRowsPref returns the threshold of View › Hide small rows chosen
// last, 0 (every row shown) at first.
func SmallRowsPref(p *prefs.Store) float64 {
	t := p.Float(smallRowsKey, 0)
	if !(t > 0 && t < 1) {
		return 0
	}
	return t
}

// SaveSmallRows remembers the threshold of View › Hide small rows.
func SaveSmallRows(p *prefs.Store, t float64) { p.SetFloat(smallRowsKey, t) }

// Preference keys of the metric columns of the call pane.
const (
	metricColumnsKey = "metricColumns" // the columns' metrics' unique names
	columnSortKey    = "columnSort"    // "" or the metric sorted by ("" main) and "ascending"/"descending"
)

// SaveColumns remembers the metric columns of v and the column the call
// pane is sorted by, by the metrics' unique names.
func SaveColumns(p *prefs.Store, v *View) {
	var names []string
	for _, m := range v.cols.Metrics() {
		names = append(names, v.exp.Metrics[m].UniqName)
	}
	p.SetStringList(metricColumnsKey, names)
	k, sorted, asc := v.cols.Sorted()
	if !sorted {
		p.SetStringList(columnSortKey, nil)
		return
	}
	name, dir := "", "descending"
	if k >= 0 {
		name = names[k]
	}
	if asc {
		dir = "ascending"
	}
	p.SetStringList(columnSortKey, []string{name, dir})
}

// RestoreColumns shows the metric columns remembered last in v: those of
// its metrics with the remembered unique names, and the sort by a column.
func RestoreColumns(p *prefs.Store, v *View) {
	var ms []int
	for _, name := range p.StringList(metricColumnsKey) {
		if m := v.exp.MetricByName(name); m >= 0 {
			ms = append(ms, m)
		}
	}
	v.cols.SetAll(ms)
	s := p.StringList(columnSortKey)
	if len(s) != 2 {
		return
	}
	k := -1
	if s[0] != "" {
		m := v.exp.MetricByName(s[0])
		if k = slices.Index(v.cols.metrics, m); m < 0 || k < 0 {
			return
		}
	}
	v.cols.SetSort(k, s[1] == "ascending")
}
