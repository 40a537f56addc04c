package cube

import (
	"archive/tar"
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// ampDoc is a CUBE 3 document whose texts carry ampersands the way CubeLib
// writes them: predefined entities, character references, bare '&', an
// unknown entity name and a CDATA section (where nothing is a reference).
func ampDoc(region, descr string) string {
	doc := xmlMinimal(`<region id="0" mod="a&b.c" begin="1" end="2"><name>`+region+`</name><descr>`+descr+`</descr></region><cnode id="0" calleeId="0"></cnode>`,
		`<matrix metricId="0"><row cnodeId="0">1 2</row></matrix>`)
	return strings.Replace(doc, `<cube version="3.0">`, `<cube version="3.0">
  <attr key="topics" value="Buddhism, Taoism &amp; & &Confucianism"/>`, 1)
}

// TestBareAmpersandIsLiteral pins how texts with '&' are read: a '&' that
// does not start a predefined entity or a character reference is a
// literal '&', as in CubeLib; CDATA is taken as it stands.
func TestBareAmpersandIsLiteral(t *testing.T) {
	tests := []struct {
		name, region, descr string
		wantRegion          string
		wantDescr           string
	}{
		{"bare", `parallel &quot; &lt; --&amp;--&apos; & ggg&gt;   &amp;   &gt;&gt;`, `a && b`,
			`parallel " < --&--' & ggg>   &   >>`, `a && b`},
		{"at the end", `x &`, `&`, `x &`, `&`},
		{"unknown entity", `&foo; &nbsp;`, `&amp &lt`, `&foo; &nbsp;`, `&amp &lt`},
		{"character references", `&#65;&#x42;&#x;&#;&#12a;`, `&#x4a;`, `AB&#x;&#;&#12a;`, `J`},
		{"CDATA", `<![CDATA[a & b &amp; c]]> & d`, `<![CDATA[]]]]><![CDATA[>&]]>&amp;`, `a & b &amp; c & d`, `]]>&&`},
	}
	for _, tt := range tests {
		doc := ampDoc(tt.region, tt.descr)
		// Pad so that references straddle the readers' buffer boundaries.
		for _, pad := range []int{0, 1, 7, 31, 32, 33, 16<<10 - 40, 32<<10 - 3, 64 << 10} {
			padded := strings.Replace(doc, "<cube ", strings.Repeat(" ", pad)+"<cube ", 1)
			inputs := map[string]func() io.Reader{
				"whole":    func() io.Reader { return strings.NewReader(padded) },
				"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(padded)) },
				"halves":   func() io.Reader { return iotest.HalfReader(strings.NewReader(padded)) },
				"gzip":     func() io.Reader { return bytes.NewReader(xmlGzip(t, []byte(padded))) },
			}
			for how, in := range inputs {
				e, err := ReadXML(in(), "amp.cube")
				if err != nil {
					t.Fatalf("%s, pad %d, %s: %v", tt.name, pad, how, err)
				}
				r := e.Regions[0]
				if r.Name != tt.wantRegion || r.Descr != tt.wantDescr || r.Module != "a&b.c" {
					t.Errorf("%s, pad %d, %s: region %q descr %q module %q; want %q, %q, %q",
						tt.name, pad, how, r.Name, r.Descr, r.Module, tt.wantRegion, tt.wantDescr, "a&b.c")
				}
				if v, _ := e.Attr("topics"); v != "Buddhism, Taoism & & &Confucianism" {
					t.Errorf("%s, pad %d, %s: attribute %q", tt.name, pad, how, v)
				}
				b, err := e.Block(0)
				if err != nil || b.Value(0, 1) != 2 {
					t.Errorf("%s, pad %d, %s: data %v, %v", tt.name, pad, how, b, err)
				}
			}
		}
	}
}

// TestBareAmpersandInAnchor reads a bare '&' in the anchor.xml of a
// .cubex archive, plain and gzip-compressed.
func TestBareAmpersandInAnchor(t *testing.T) {
	anchor := `<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.4">
  <attr key="note" value="R&D"/>
  <metrics><metric id="0" type="EXCLUSIVE"><disp_name>Time & more</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric></metrics>
  <program><region id="0" mod="m.c" begin="1" end="2"><name>load & store</name></region><cnode id="0" calleeId="0"></cnode></program>
  <system><systemtreenode Id="0"><name>m</name><class>machine</class>
    <locationgroup Id="0"><name>p</name><rank>0</rank><type>process</type>
      <location Id="0"><name>t</name><rank>0</rank><type>thread</type></location></locationgroup></systemtreenode></system>
</cube>
`
	for name, body := range map[string][]byte{"plain": []byte(anchor), "gzip": xmlGzip(t, []byte(anchor))} {
		arch := buildTar(t, tar.FormatUSTAR, tarFile{"anchor.xml", string(body)})
		e, err := ReadCubex(bytes.NewReader(arch), int64(len(arch)), "amp.cubex")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Regions[0].Name != "load & store" || e.Metrics[0].DispName != "Time & more" {
			t.Errorf("%s: region %q, metric %q", name, e.Regions[0].Name, e.Metrics[0].DispName)
		}
		if v, _ := e.Attr("note"); v != "R&D" {
			t.Errorf("%s: attribute %q", name, v)
		}
	}
}

// TestMalformedXMLStillFails makes sure that tolerating bare ampersands
// does not make other malformed XML acceptable.
func TestMalformedXMLStillFails(t *testing.T) {
	full := ampDoc("a & b", "c")
	for name, doc := range map[string]string{
		"bare <":           strings.Replace(full, "a & b", "a < b", 1),
		"unclosed element": strings.Replace(full, "</descr>", "", 1),
		"invalid char ref": strings.Replace(full, "a & b", "a &#0; b", 1),
		"unclosed CDATA":   strings.Replace(full, "a & b", "<![CDATA[a & b", 1),
	} {
		if _, err := ReadXML(strings.NewReader(doc), "bad.cube"); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "bad.cube: ") {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

// TestCubeLibAmpersandFile opens CubeLib's own test file with bare
// ampersands and checks the texts as CubeLib reads them.
func TestCubeLibAmpersandFile(t *testing.T) {
	path := testkit.Data(t, "cube3", "quirks", "cubelib-unescaped-ampersand.cube")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e, err := ReadXML(f, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range e.Regions {
		if r.ID == 172 {
			found = true
			if want := `parallel " < --&--' & ggg>   &   >>`; r.Name != want {
				t.Errorf("region 172 is named %q, want %q", r.Name, want)
			}
		}
	}
	if !found {
		t.Error("no region id 172")
	}
	if v, _ := e.Attr("topics"); v != "Buddhism, Taoism & & &Confucianism" {
		t.Errorf("attribute topics = %q", v)
	}
}

// TestSurplusDataRows reads a .data member longer than its index needs:
// the indexed rows are read, the rest is ignored with a warning, as
// CubeLib does. A member that is too short stays an error.
func TestSurplusDataRows(t *testing.T) {
	le := binary.LittleEndian
	index := func(pos ...uint32) string {
		b := le.AppendUint32(append([]byte(indexMarker), 1, 0, 0, 0, 0, 0, 1), uint32(len(pos)))
		for _, p := range pos {
			b = le.AppendUint32(b, p)
		}
		return string(b)
	}
	doubles := func(vs ...float64) string {
		b := []byte(dataMarker)
		for _, v := range vs {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
		return string(b)
	}
	tests := []struct {
		name        string
		data        string
		wantWarning string
	}{
		{"one surplus row", doubles(1, 2, 3, 4, 99, 98), "0.data holds 1 row (16 bytes) more than the 2 rows its index names"},
		{"two surplus rows", doubles(1, 2, 3, 4, 99, 98, 97, 96), "0.data holds 2 rows (32 bytes) more than the 2 rows its index names"},
		{"a partial row", doubles(1, 2, 3, 4, 99), "0.data holds 8 bytes more than the 2 rows its index names"},
	}
	for _, tt := range tests {
		e := smallExperiment("DOUBLE", "")
		// Deep order of cnodes 10 → {11 → {13}, 12} is 0, 1, 3, 2: positions
		// 0 and 2 are cnodes 10 and 13.
		if err := attachArchive(t, handArchive(t, tarFile{"0.index", index(0, 2)}, tarFile{"0.data", tt.data}), e); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], tt.wantWarning) || !strings.Contains(e.Warnings[0], `metric "m"`) {
			t.Errorf("%s: warnings %q, want one naming metric \"m\" and containing %q", tt.name, e.Warnings, tt.wantWarning)
		}
		b, err := e.Block(0)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := [][]float64{b.Row(0), b.Row(1), b.Row(2), b.Row(3)}
		want := [][]float64{{1, 2}, nil, nil, {3, 4}}
		for c := range want {
			for l := 0; l < 2; l++ {
				w := 0.0
				if want[c] != nil {
					w = want[c][l]
				}
				if b.Value(c, l) != w {
					t.Errorf("%s: cnode %d location %d = %v, want %v (rows %v)", tt.name, c, l, b.Value(c, l), w, got)
				}
			}
		}
	}
	e := smallExperiment("DOUBLE", "")
	err := attachArchive(t, handArchive(t, tarFile{"0.index", index(0, 2)}, tarFile{"0.data", doubles(1, 2, 3)}), e)
	if err == nil || !strings.Contains(err.Error(), "size mismatch") || !strings.Contains(err.Error(), "has only 34") {
		t.Errorf("too short a member: error %v", err)
	}
}

// TestCubeLibSurplusDataRowFile opens CubeLib's constructor test file,
// whose three .data members each hold more rows than their index names;
// the values are those of the indexed rows, read by hand from the members.
func TestCubeLibSurplusDataRowFile(t *testing.T) {
	path := testkit.Data(t, "cube4", "quirks", "cubelib-surplus-data-row.cubex")
	e, err := OpenCubex(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	wantWarnings := []string{
		`metric "Uniq_name1": 0.data holds 1 row (16 bytes) more than the 2 rows its index names`,
		`metric "Uniq_name2": 1.data holds 1 row (16 bytes) more than the 2 rows its index names`,
		`metric "Uniq_name3": 2.data holds 2 rows (32 bytes) more than the 1 row its index names`,
	}
	if len(e.Warnings) != len(wantWarnings) {
		t.Fatalf("warnings %q, want %d", e.Warnings, len(wantWarnings))
	}
	for i, w := range wantWarnings {
		if !strings.HasPrefix(e.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to start with %q", i, e.Warnings[i], w)
		}
	}
	// Index positions (deep order = cnode ids 0, 1, 2 here) and rows:
	// metric 0 rows at 0, 1: [4 0] [5 9]; metric 1: [2 1] [0 3];
	// metric 2 row at 1: [0 323].
	want := map[string][3][2]float64{
		"Uniq_name1": {{4, 0}, {5, 9}, {0, 0}},
		"Uniq_name2": {{2, 1}, {0, 3}, {0, 0}},
		"Uniq_name3": {{0, 0}, {0, 323}, {0, 0}},
	}
	for name, rows := range want {
		m := e.MetricByName(name)
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		for c, row := range rows {
			for l, v := range row {
				if got := b.Value(c, l); got != v {
					t.Errorf("%s cnode %d location %d = %v, want %v", name, c, l, got, v)
				}
			}
		}
	}
}

// TestUnsignedInclusiveAsStored stores an INCLUSIVE UINT64 metric whose
// children exceed their parent and whose data hold all-ones words: the
// inclusive values are the stored ones, as CubeLib shows them (so the
// parent's own value is negative), and a write → read round trip keeps
// them.
func TestUnsignedInclusiveAsStored(t *testing.T) {
	le := binary.LittleEndian
	// Cnodes 10 → {11 → {13}, 12}; the wide order is 10, 11, 12, 13.
	idx := le.AppendUint32(append([]byte(indexMarker), 1, 0, 0, 0, 0, 0, 1), 4)
	for _, p := range []uint32{0, 1, 2, 3} {
		idx = le.AppendUint32(idx, p)
	}
	data := []byte(dataMarker)
	for _, w := range []uint64{5, math.MaxUint64, 7, 2, 1, 1, 3, math.MaxUint64} {
		data = le.AppendUint64(data, w)
	}
	e := smallExperiment("UINT64", "INCLUSIVE")
	if err := attachArchive(t, handArchive(t, tarFile{"0.index", string(idx)}, tarFile{"0.data", string(data)}), e); err != nil {
		t.Fatal(err)
	}
	// Own values by hand (an all-ones word reads as 0): 13 = [3, 0];
	// 11 = [7−3, 2−0]; 12 = [1, 1]; 10 = [5−7−1, 0−2−1] = [−3, −3].
	want := map[int][]float64{10: {-3, -3}, 11: {4, 2}, 12: {1, 1}, 13: {3, 0}}
	check := func(what string, e *model.Experiment) {
		t.Helper()
		b, err := e.Block(0)
		if err != nil {
			t.Fatal(err)
		}
		for c := range e.Cnodes {
			for l, v := range want[e.Cnodes[c].ID] {
				if got := b.Value(c, l); got != v {
					t.Errorf("%s: cnode id %d location %d = %v, want %v", what, e.Cnodes[c].ID, l, got, v)
				}
			}
		}
		incl, err := e.LocationValues(model.MetricSel{Metric: 0, Inclusive: true}, model.CnodeSel{Cnode: 0, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		if incl[0] != 5 || incl[1] != 0 {
			t.Errorf("%s: root inclusive %v, want the stored [5 0]", what, incl)
		}
	}
	check("read", e)
	var buf bytes.Buffer
	if err := WriteCubex(&buf, e); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCubex(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "back.cubex")
	if err != nil {
		t.Fatal(err)
	}
	check("written and read again", back)
}

// TestTau2cubeMaxAggregation reads CubeLib's tau2cube output, which
// declares CUBE_CT_AGGR MAX over 195 overlapping roots: the metric's total
// is its largest root, the TAU event with the largest inclusive value in
// the TAU profile it was made from (tau2cube stores it truncated to an
// integer), not the sum of all roots.
func TestTau2cubeMaxAggregation(t *testing.T) {
	cubePath := testkit.Data(t, "tau", "tau2cube-profile1.template.cube")
	profile, err := os.ReadFile(testkit.Data(t, "tau", "tau2cube-profile1", "profile.0.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	// Event lines: "NAME" calls subrs excl incl profilecalls GROUP="…".
	largest, events := 0.0, 0
	// The header says how many events follow ("195 templated_functions…");
	// user events come later, after an "aggregates" line.
	lines := strings.Split(string(profile), "\n")
	nevents, err := strconv.Atoi(strings.Fields(lines[0])[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range lines {
		if events == nevents {
			break
		}
		if !strings.HasPrefix(line, `"`) {
			continue
		}
		end := strings.Index(line[1:], `"`)
		fields := strings.Fields(line[end+2:])
		if len(fields) < 4 {
			t.Fatalf("unexpected TAU line %q", line)
		}
		incl, err := strconv.ParseFloat(fields[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		events++
		largest = max(largest, incl)
	}
	f, err := os.Open(cubePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e, err := ReadXML(f, cubePath)
	if err != nil {
		t.Fatal(err)
	}
	if !model.ForestMax(e) || len(e.CnodeRoots) != events {
		t.Fatalf("ForestMax %v, %d roots for %d TAU events", model.ForestMax(e), len(e.CnodeRoots), events)
	}
	m := e.MetricByName("BGP")
	total, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Trunc(largest); total != want {
		t.Errorf("BGP total %v, want the largest TAU inclusive value %v", total, want)
	}
	sys, err := model.ForestSystemValues(e, model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if sys[e.SystemRoots[0]] != total {
		t.Errorf("system root %v, want the total %v", sys[e.SystemRoots[0]], total)
	}
}
