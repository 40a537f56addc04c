package analysisview

import (
	"strings"

	"cubeview/internal/elide"
)

// ShortHeader returns a shorter title of column c for where Header's
// does not fit: the experiments' names reduced to what tells them apart
// ("…baseline…" for "scorep_tea_leaf_baseline_8x12_trace"; the
// difference "baseline − optimized"), "" for the other columns.
func (p *PerfDiffReport) ShortHeader(c int) string {
	if p.Grouped() {
		return ""
	}
	names := elide.Distinct([]string{p.NameA, p.NameB})
	switch p.Columns[c] {
	case PerfDiffA:
		return names[0]
	case PerfDiffB:
		return names[1]
	case PerfDiffDelta:
		return strings.Trim(names[0], "…") + " − " + strings.Trim(names[1], "…")
	}
	return ""
}

// PathColumn reports whether column c holds paths (call path, system
// node), which shorten keeping their leaf.
func (p *PerfDiffReport) PathColumn(c int) bool {
	k := p.Columns[c]
	return k == PerfDiffCallPath || k == PerfDiffSystem
}
