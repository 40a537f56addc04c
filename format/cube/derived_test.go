package cube

import (
	"archive/tar"
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// derivedFixture is a generated experiment plus the derived metric
// ratio = metric3 / (time + 1) with thresholds.
func derivedFixture(t *testing.T) *model.Experiment {
	t.Helper()
	e := synth.Generate(synth.Config{Cnodes: 40, Locations: 8, Threads: 2, Nodes: 2, Metrics: 4, Seed: 7})
	f, err := model.ParseFormula("metric3 / (time + 1)")
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.WithDerived(model.DerivedMetric{UniqName: "ratio", Formula: f, Thresholds: "low < 50 < high"})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sameDerived checks that metric "ratio" of got is derived and gives the
// same values as in want at every cnode, inclusive and exclusive, and at
// every system node.
func sameDerived(t *testing.T, got, want *model.Experiment) {
	t.Helper()
	gm, wm := got.MetricByName("ratio"), want.MetricByName("ratio")
	if gm < 0 || !got.Metrics[gm].IsDerived() {
		t.Fatalf("ratio after the round trip: %+v", got.Metrics[gm])
	}
	g, w := &got.Metrics[gm], &want.Metrics[wm]
	if g.Formula.String() != w.Formula.String() || g.Unit != w.Unit || g.Type != model.PostDerived {
		t.Errorf("ratio read back as %q [%s] type %s, want %q [%s]", g.Formula, g.Unit, g.Type, w.Formula, w.Unit)
	}
	if th, err := g.Thresholds(); err != nil || th == nil || th.String() != "low < 50 < high" {
		t.Errorf("thresholds read back: %v, %v", th, err)
	}
	for _, incl := range []bool{true, false} {
		gv, err := got.CallTreeValues(model.MetricSel{Metric: gm, Inclusive: true}, incl)
		if err != nil {
			t.Fatal(err)
		}
		wv, err := want.CallTreeValues(model.MetricSel{Metric: wm, Inclusive: true}, incl)
		if err != nil {
			t.Fatal(err)
		}
		gotByID := map[int]float64{}
		for c, v := range gv {
			gotByID[got.Cnodes[c].ID] = v
		}
		for c, v := range wv {
			if id := want.Cnodes[c].ID; !nearlyEqual(gotByID[id], v) {
				t.Fatalf("inclusive=%v cnode id %d: %v after the round trip, %v before", incl, id, gotByID[id], v)
			}
		}
	}
	gs, err := got.SystemTreeValues(model.MetricSel{Metric: gm, Inclusive: true}, got.CnodeOrder())
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := want.SystemTreeValues(model.MetricSel{Metric: wm, Inclusive: true}, want.CnodeOrder())
	type key struct {
		kind model.SystemKind
		id   int
	}
	gotByID := map[key]float64{}
	for s, v := range gs {
		gotByID[key{got.System[s].Kind, got.System[s].ID}] = v
	}
	for s, v := range ws {
		if k := (key{want.System[s].Kind, want.System[s].ID}); !nearlyEqual(gotByID[k], v) {
			t.Fatalf("system node %v: %v after the round trip, %v before", k, gotByID[k], v)
		}
	}
}

func TestDerivedMetricCubexRoundTrip(t *testing.T) {
	e := derivedFixture(t)
	var buf bytes.Buffer
	if err := WriteCubex(&buf, e); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCubex(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "derived.cubex")
	if err != nil {
		t.Fatal(err)
	}
	sameDerived(t, got, e)
	// The anchor holds the CubePL definition the Cube tools evaluate, and no
	// data members are written for the derived metric.
	members := cubexMembers(t, buf.Bytes())
	anchor := string(members["anchor.xml"])
	id := strconv.Itoa(got.Metrics[got.MetricByName("ratio")].ID)
	for _, s := range []string{`type="POSTDERIVED"`, `<cubepl>metric::metric3() / (metric::time() + 1)</cubepl>`, `<dtype>DOUBLE</dtype>`} {
		if !strings.Contains(anchor, s) {
			t.Errorf("anchor.xml lacks %s", s)
		}
	}
	if _, ok := members[id+".data"]; ok {
		t.Errorf("a data member is written for the derived metric")
	}
	if _, ok := members[id+".index"]; ok {
		t.Errorf("an index member is written for the derived metric")
	}
}

func TestDerivedMetricXMLRoundTrip(t *testing.T) {
	e := derivedFixture(t)
	var buf bytes.Buffer
	if err := WriteXML(&buf, e); err != nil {
		t.Fatal(err)
	}
	got, err := ReadXML(&buf, "derived.cube")
	if err != nil {
		t.Fatal(err)
	}
	sameDerived(t, got, e)
}

func TestUnsupportedCubePLStaysUnavailable(t *testing.T) {
	e := derivedFixture(t)
	e.Metrics[e.MetricByName("ratio")].Formula = nil
	e.Metrics[e.MetricByName("ratio")].Expression = "${x} = 1; return metric::time() * ${x};"
	e.Metrics[e.MetricByName("ratio")].Unavailable = derivedUnavail
	var buf bytes.Buffer
	if err := WriteCubex(&buf, e); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCubex(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "derived.cubex")
	if err != nil {
		t.Fatal(err)
	}
	m := &got.Metrics[got.MetricByName("ratio")]
	if m.IsDerived() || m.Unavailable != derivedUnavail || m.Expression != e.Metrics[e.MetricByName("ratio")].Expression {
		t.Errorf("unsupported CubePL read as derived %v, unavailable %q, expression %q", m.IsDerived(), m.Unavailable, m.Expression)
	}
}

// nearlyEqual allows for sums taken in another order after a round trip.
func nearlyEqual(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// cubexMembers returns the members of a .cubex archive written by WriteCubex.
func cubexMembers(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = b
	}
}
