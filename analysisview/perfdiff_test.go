package analysisview

import (
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/numfmt"
	"cubeview/view"
)

func TestParseDelta(t *testing.T) {
	for _, c := range []struct {
		text     string
		relative bool
		want     float64
		ok       bool
	}{
		{"1", false, 1, true},
		{" 0.5 ", false, 0.5, true},
		{"0", false, 0, true},
		{"5", true, 0.05, true},
		{"5 %", true, 0.05, true},
		{"100", true, 1, true},
		{"101", true, 0, false},
		{"-1", false, 0, false},
		{"", false, 0, false},
		{"abc", false, 0, false},
		{"Inf", false, 0, false},
		{"NaN", false, 0, false},
	} {
		got, err := parseDelta(c.text, c.relative)
		if (err == nil) != c.ok || (c.ok && !near(got, c.want)) {
			t.Errorf("parseDelta(%q, %v) = %v, %v", c.text, c.relative, got, err)
		}
	}
}

// TestMatchAcrossExperiments maps every call path and system node of a
// copy of the hand-made experiment back to the same index, and a call
// path whose region the view's experiment lacks to none.
func TestMatchAcrossExperiments(t *testing.T) {
	v := view.NewView(handMade())
	src := handMade()
	for c := range src.Cnodes {
		if got := MatchCnode(v.Experiment(), src, c); got != c {
			t.Errorf("cnode %d (%s) matched %d", c, src.CallPath(c), got)
		}
	}
	for s := range src.System {
		if got := matchSystem(v.Experiment(), src, s); got != s {
			t.Errorf("system node %d (%s) matched %d", s, src.System[s].Name, got)
		}
	}
	src.Regions[2].Name = "baz"
	if got := MatchCnode(v.Experiment(), src, 4); got != -1 {
		t.Errorf("main/baz matched %d", got)
	}
	if got := MatchCnode(v.Experiment(), src, 99); got != -1 {
		t.Errorf("cnode 99 matched %d", got)
	}
	// Processes match by rank whatever the machine and node names.
	src.System[0].Name, src.System[1].Name = "other", "elsewhere"
	if got := matchSystem(v.Experiment(), src, 6); got != 6 {
		t.Errorf("rank 1's thread matched %d", got)
	}
	if got := matchSystem(v.Experiment(), src, 1); got != -1 {
		t.Errorf("a renamed node matched %d", got)
	}
}

func TestPerfDiffReportAndFocus(t *testing.T) {
	a, b := handMade(), handDiff()
	res, err := analysis.PerfDiff(a, b, analysis.PerfDiffOptions{Metric: "time", Delta: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep := newPerfDiffReport(res, &a.Metrics[0], "A", "B", numfmt.Cube())
	if len(rep.Rows) != len(res.Foci) || len(rep.Rows) == 0 {
		t.Fatalf("%d rows for %d foci", len(rep.Rows), len(res.Foci))
	}
	if !strings.Contains(rep.Headline, "Time (time)") || !strings.Contains(rep.Headline, "1 most specific") ||
		strings.Contains(strings.ToLower(rep.Headline+strings.Join(rep.Notes, " ")), "significant") {
		t.Errorf("headline %q", rep.Headline)
	}
	// handDiff differs from handMade only at bar (c4) on location 1 by 10.
	first := rep.Rows[0]
	if !first.MostSpecific || first.CallPath != "main/bar" || !near(first.Diff, 10) || first.TextDiff != "10.00" {
		t.Errorf("first row %+v", first)
	}
	v := view.NewView(a)
	m, c, s := FocusNodes(v, res, first.Focus)
	if m != mTime || c != cBar || s != (view.Node{Kind: view.SystemNode, Index: 4}) {
		t.Errorf("focus nodes %v %v %v", m, c, s)
	}
}
