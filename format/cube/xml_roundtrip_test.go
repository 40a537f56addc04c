package cube

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func xmlDump(t testing.TB, e *model.Experiment) string {
	t.Helper()
	var sb strings.Builder
	if err := e.Dump(&sb); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// xmlMetadataDump is Dump without the data lines.
func xmlMetadataDump(t testing.TB, e *model.Experiment) string {
	var out []string
	for _, l := range strings.Split(xmlDump(t, e), "\n") {
		if strings.HasPrefix(l, "data ") || strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  coord ") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func xmlGzip(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func xmlGunzip(t testing.TB, b []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// xmlReencode writes e and reads the result back.
func xmlReencode(t testing.TB, e *model.Experiment, anchor bool) (*xmlDoc, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := encodeXML(&buf, e, anchor); err != nil {
		t.Fatalf("encodeXML(anchor=%v): %v", anchor, err)
	}
	doc, err := decodeXML(bytes.NewReader(buf.Bytes()), "rewritten")
	if err != nil {
		t.Fatalf("reading what encodeXML(anchor=%v) wrote: %v", anchor, err)
	}
	return doc, buf.Bytes()
}

// xmlCheckRoundTrip writes e as CUBE 3 (data compared too) and as an
// anchor (metadata only) and reads both back.
func xmlCheckRoundTrip(t *testing.T, e *model.Experiment) (cube3, anchor []byte) {
	t.Helper()
	want := xmlDump(t, e)
	doc, cube3 := xmlReencode(t, e, false)
	if !doc.HasSeverity || doc.Version != "3.0" {
		t.Errorf("CUBE 3 output read as version %q, HasSeverity %v", doc.Version, doc.HasSeverity)
	}
	if got := xmlDump(t, doc.Exp); got != want {
		t.Errorf("CUBE 3 round trip changes the experiment:\n%s", xmlFirstDiff(want, got))
	}
	doc, anchor = xmlReencode(t, e, true)
	if doc.HasSeverity || doc.Version != "4.4" {
		t.Errorf("anchor read as version %q, HasSeverity %v", doc.Version, doc.HasSeverity)
	}
	if want, got := xmlMetadataDump(t, e), xmlMetadataDump(t, doc.Exp); got != want {
		t.Errorf("anchor round trip changes the metadata:\n%s", xmlFirstDiff(want, got))
	}
	return cube3, anchor
}

func xmlFirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + w + "\n  got  " + g
		}
	}
	return "(no line differs)"
}

func TestXMLRoundTripSharedCube3(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testkit.Data(t, "cube3"), "*.cube"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc, _ := xmlDecodeFile(t, f)
			xmlCheckRoundTrip(t, doc.Exp)
		})
	}
}

func TestXMLRoundTripSharedAnchors(t *testing.T) {
	dir := testkit.Data(t, "cube4")
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".cubex") && filepath.Base(p) != "cube4.8_with_checksum_bug.cubex" {
			files = append(files, p)
		}
		return nil
	})
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			doc, err := decodeXML(bytes.NewReader(xmlAnchorOf(t, f)), f)
			if err != nil {
				t.Fatal(err)
			}
			xmlCheckRoundTrip(t, doc.Exp)
		})
	}
}

func TestXMLRoundTripCube2(t *testing.T) {
	doc, _ := xmlDecodeFile(t, filepath.Join("testdata", "cube2-small.cube"))
	xmlCheckRoundTrip(t, doc.Exp)
}

func TestXMLRoundTripSynthetic(t *testing.T) {
	for _, cfg := range []synth.Config{
		{Cnodes: 200, Locations: 16, Threads: 4, Nodes: 2, Metrics: 6, Density: 0.5, Seed: 1, MinMax: true},
		{Cnodes: 1, Locations: 1, Metrics: 1, Seed: 2},
		{Cnodes: 50, Locations: 30, Threads: 3, Nodes: 4, Metrics: 3, Density: 0.2, Seed: 3},
	} {
		e := synth.Generate(cfg)
		cube3, _ := xmlCheckRoundTrip(t, e)
		// Every stored value travels: count the written values.
		if !bytes.Contains(cube3, []byte("<matrix metricId=")) {
			t.Error("no data written")
		}
	}
}

// TestXMLRoundTripFeatures sends everything the model can hold through
// both formats, including what only travels in cubeview:: attributes.
func TestXMLRoundTripFeatures(t *testing.T) {
	doc, _ := xmlDecodeFile(t, filepath.Join("testdata", "cube4-anchor-features.cube"))
	e := doc.Exp
	tricky := "two\nlines\tand tab, CR\r, <tag> & \"quotes\" 'apos' ünïcödé €"
	e.Regions[0].Descr = tricky
	e.Regions[1].Attrs = append(e.Regions[1].Attrs, model.Attr{Key: "k\n2", Value: tricky})
	e.Attrs = append([]model.Attr{{Key: "note", Value: tricky}}, e.Attrs...)
	e.Metrics[0].Present = 0b101
	e.Metrics[e.MetricByName("visits")].Approximate = true
	e.Metrics[e.MetricByName("visits")].Aggregation = model.Max // differs from its data type
	e.Metrics[e.MetricByName("mpi")].Unavailable = "only in operand 2"
	e.Cnodes[1].Present = 0b10
	e.System[0].Rank = 3
	e.System[2].Present = 0b11
	e.System[3].Attrs = []model.Attr{{Key: "core", Value: "7"}}
	e.System[3].Descr = "a thread"
	e.Mirrors = append(e.Mirrors, "https://mirror.example.org/?a=1&b=2")

	cube3, anchor := xmlCheckRoundTrip(t, e)

	// The anchor keeps CubeLib's syntax for derived metrics.
	for _, s := range []string{
		`type="PREDERIVED_EXCLUSIVE" viztype="GHOST" convertible="false" cacheable="false"`,
		`<cubepl rowwise=false>`, `<cubeplaggr cubeplaggrtype=plus>arg1 + arg2</cubeplaggr>`,
		`<metric id="0" type="EXCLUSIVE">`, `<metrics title="Metrics &amp; more">`,
		`<parameter partype="string" parkey="mode" parvalue="fast &amp; safe"/>`,
		`<coord stnId="7">3</coord>`,
		// Location ids 9, 5, 2 become their ranks 2, 1, 0 for the CUBE
		// tools; the ids are restored from cubeview:: attributes.
		`<location Id="2">`, `<coord locId="2">0</coord>`, `key="cubeview::location::2" value="{&quot;id&quot;:9,`,
	} {
		if !bytes.Contains(anchor, []byte(s)) {
			t.Errorf("anchor lacks %s", s)
		}
	}
	// The CUBE 3 file has the fixed tags of the original parser; what
	// CUBE 3 cannot hold is in attributes; thread ids are 0…n−1.
	for _, s := range []string{
		"<cube version=\"3.0\">", "<metrics>\n", "<program>\n", "<system>\n",
		`<machine Id="3">`, `<node Id="7">`, `<thread Id="0">`, `<thread Id="2">`,
		`key="cubeview::metric::1"`, `key="cubeview::location::0"`, `<coord nodeId="7">3</coord>`, `<coord thrdId="2">0</coord>`,
		`key="cube::metrics title"`,
	} {
		if !bytes.Contains(cube3, []byte(s)) {
			t.Errorf("CUBE 3 output lacks %q", s)
		}
	}
	for _, s := range []string{"title=", "<cubepl", "<parameter", "<mangled_name>", "<systemtreenode", "Id=\"9\""} {
		if bytes.Contains(cube3, []byte(s)) {
			t.Errorf("CUBE 3 output contains %q, which the CUBE 3 parser rejects", s)
		}
	}
}

// TestXMLRoundTripDataOrder checks that values reach the right thread when
// location ids are not the data columns.
func TestXMLRoundTripDataOrder(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 20, Locations: 6, Threads: 2, Metrics: 2, Seed: 4})
	// Reverse the location ids: column l gets id n-1-l.
	n := len(e.Locations)
	for l, s := range e.Locations {
		e.System[s].ID = n - 1 - l
	}
	doc, raw := xmlReencode(t, e, false)
	if !bytes.Contains(raw, []byte(`<thread Id="5">`)) || bytes.Contains(raw, []byte("cubeview::location")) {
		t.Error("a permutation of 0…n−1 should be written as is")
	}
	if xmlDump(t, doc.Exp) != xmlDump(t, e) {
		t.Error("round trip with permuted location ids changes the experiment")
	}
	// Ids that are not 0…n−1 are renumbered in the file and restored.
	for _, s := range e.Locations {
		e.System[s].ID += 100
	}
	doc, raw = xmlReencode(t, e, false)
	if !bytes.Contains(raw, []byte("cubeview::location::0")) {
		t.Error("renumbered thread ids should be recorded")
	}
	if xmlDump(t, doc.Exp) != xmlDump(t, e) {
		t.Error("round trip with large location ids changes the experiment")
	}
}

// TestXMLRoundTripTitles checks dimension titles that are not where
// reading puts them (at the end, in dimension order), and attributes that
// merely look like cubeview:: ones.
func TestXMLRoundTripTitles(t *testing.T) {
	for _, attrs := range [][]model.Attr{
		{{Key: "cube::system title", Value: "S"}, {Key: "a", Value: "1"}},
		{{Key: "cube::system title", Value: "S"}, {Key: "cube::metrics title", Value: "M"}},
		{{Key: "a", Value: "1"}, {Key: "cube::program title", Value: "P"}, {Key: "cube::system title", Value: "S"}},
		// Not of the form cubeview::KIND::ID: ordinary attributes.
		{{Key: "cubeview::note", Value: "x"}, {Key: "cubeview::metric::07", Value: "{"}, {Key: "cubeview::thing::1", Value: "y"}},
	} {
		e := synth.Generate(synth.Config{Cnodes: 3, Locations: 2, Metrics: 1, Seed: 6})
		e.Attrs = attrs
		xmlCheckRoundTrip(t, e)
	}
}

func TestXMLWriteSystemShape(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 3, Locations: 4, Threads: 2, Metrics: 1, Seed: 5})
	// Hang the processes directly below the machine.
	for i := range e.System {
		if e.System[i].Kind == model.Group {
			e.System[i].Parent = 0
		}
	}
	e.Link()
	e.NumberLocations()
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	err := encodeXML(io.Discard, e, false)
	if err == nil || !strings.Contains(err.Error(), ".cubex") || !strings.Contains(err.Error(), "machine → node → process → thread") {
		t.Errorf("error %v, want one suggesting .cubex", err)
	}
	if _, anchor := xmlReencode(t, e, true); len(anchor) == 0 {
		t.Error("the anchor should take any system tree")
	}
}

// TestXMLWriteRowOrder checks the severity layout by hand: value i of a
// row is the thread with Id i, padded with zeros, one per line.
func TestXMLWriteRowOrder(t *testing.T) {
	doc, err := decodeXML(strings.NewReader(xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">0.1 0</row></matrix>`)), "min.cube")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := encodeXML(&buf, doc.Exp, false); err != nil {
		t.Fatal(err)
	}
	if want := "<row cnodeId=\"0\">\n0.1\n0\n      </row>"; !strings.Contains(buf.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, buf.String())
	}
}
