package view

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
)

// TestExportReal writes the call pane of the MPI π profile, one branch
// open, as CSV and reads it back: every value with all its digits, as
// the panes hold it; the metric documentation address uses the file's
// web mirror. (The bottom-up view's CSV: analysisview's TestBottomUpCSV;
// the menu item that opens it: menu's TestOpenDocumentation.)
func TestExportReal(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	time := Node{MetricNode, e.MetricByName("time")}
	v.Select(MetricPane, time)
	root := Node{CnodeNode, e.CnodeRoots[0]}
	v.SetExpanded(CallPane, root, true)
	mustUpdate(t, v)
	rows := append([]Node{root}, v.Children(CallPane, root)...)
	var buf bytes.Buffer
	if err := PaneCSV(v, CallPane, rows, &buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 || recs[0][4] != "value" {
		t.Fatalf("%d records for %d rows, header %q", len(recs), len(rows), recs[0])
	}
	for i, n := range rows {
		r := recs[i+1]
		x, err := strconv.ParseFloat(r[4], 64)
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if want := v.Values().Value(CallPane, n); math.Abs(x-want) > 1e-11*math.Abs(want) {
			t.Errorf("row %s: %g, pane %g", r[1], x, want)
		}
		if r[5] != v.Values().Text(CallPane, n) || r[6] != "sec" {
			t.Errorf("row %s: shown %q %q", r[1], r[5], r[6])
		}
	}
	if recs[1][8] != "exclusive" || !strings.HasPrefix(recs[2][1], v.Label(root)+" / ") || recs[2][2] != "1" {
		t.Errorf("records %q, %q", recs[1], recs[2])
	}

	if u := MetricURL(v, time); u != "http://www.vi-hps.org/upload/packages/scorep/scorep_metrics.html#time" {
		t.Errorf("documentation of time: %q", u)
	}
	if u := MetricURL(v, root); u != "" {
		t.Errorf("a call path has documentation %q", u)
	}
}
