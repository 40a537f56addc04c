package format

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"cubeview/format/cube"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// Hostile files are built here in code; each test checks the error or the
// result, and the peak heap while reading (testkit.Peak).

// smallCube is a valid CUBE 3 document of the synthetic generator.
func smallCube(t testing.TB) []byte {
	t.Helper()
	e := synth.Generate(synth.Config{Cnodes: 20, Locations: 4, Metrics: 3, Seed: 7})
	var buf bytes.Buffer
	if err := cube.WriteXML(&buf, e); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll opens path and loads every metric, as "cubeview info" does.
func readAll(path string) (*model.Experiment, error) {
	e, err := Open(path)
	if err != nil {
		return nil, err
	}
	for m := range e.Metrics {
		if e.Metrics[m].Unavailable == "" {
			if _, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true}); err != nil {
				return e, err
			}
		}
	}
	return e, nil
}

// measure opens path like readAll and reports the peak heap and time.
func measure(t *testing.T, name, path string) (*model.Experiment, error) {
	t.Helper()
	var e *model.Experiment
	var err error
	peak, d := testkit.Peak(func() { e, err = readAll(path) })
	fi, _ := os.Stat(path)
	t.Logf("%s: file %d bytes, peak heap %.1f MB, %v, error: %v", name, fi.Size(), float64(peak)/(1<<20), d.Round(1e6), err)
	const bound = 96 << 20
	if peak > bound {
		t.Errorf("%s: peak heap %.1f MB, want at most %d MB", name, float64(peak)/(1<<20), bound>>20)
	}
	return e, err
}

// writeGzip writes parts, gzip-compressed, to a file in dir.
func writeGzip(t testing.TB, path string, parts ...func(w io.Writer) error) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	for _, p := range parts {
		if err := p(zw); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func bytesOf(b []byte) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}

// repeat writes n copies of byte c.
func repeat(c byte, n int64) func(io.Writer) error {
	return func(w io.Writer) error {
		chunk := bytes.Repeat([]byte{c}, 1<<20)
		for n > 0 {
			k := min(n, int64(len(chunk)))
			if _, err := w.Write(chunk[:k]); err != nil {
				return err
			}
			n -= k
		}
		return nil
	}
}

func TestHostileWhitespaceBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 128 MB")
	}
	doc := smallCube(t)
	at := bytes.Index(doc, []byte("<metrics>"))
	dir := t.TempDir()
	path := writeGzip(t, filepath.Join(dir, "bomb.cube.gz"), bytesOf(doc[:at]), repeat(' ', 128<<20), bytesOf(doc[at:]))
	e, err := measure(t, "128 MB of whitespace between elements of a .cube.gz", path)
	if err != nil {
		t.Fatalf("a valid document with much whitespace: %v", err)
	}
	if len(e.Cnodes) != 20 {
		t.Errorf("%d cnodes", len(e.Cnodes))
	}
}

func TestHostileDecompressionBudget(t *testing.T) {
	doc := smallCube(t)
	at := bytes.Index(doc, []byte("<metrics>"))
	dir := t.TempDir()
	path := writeGzip(t, filepath.Join(dir, "bomb.cube.gz"), bytesOf(doc[:at]), repeat(' ', 64<<20), bytesOf(doc[at:]))
	defer setBudget(32 << 20)()
	_, err := measure(t, "64 MB of whitespace in a .cube.gz, budget 32 MB", path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "more than 32 MB") {
		t.Errorf("error %v, want one naming the file and the budget", err)
	}
}

func TestHostileTrailingZeros(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trailing.cube")
	if err := os.WriteFile(path, smallCube(t), 0o644); err != nil {
		t.Fatal(err)
	}
	// A sparse file: 1 GB of zero bytes after the document cost no disk.
	if err := os.Truncate(path, 1<<30); err != nil {
		t.Fatal(err)
	}
	e, err := measure(t, "a .cube followed by 1 GB of zero bytes", path)
	if err != nil {
		t.Fatalf("trailing bytes after </cube>: %v", err)
	}
	if len(e.Cnodes) != 20 {
		t.Errorf("%d cnodes", len(e.Cnodes))
	}
}

// cubexBytes writes e as .cubex and returns its members.
func cubexMembers(t testing.TB, e *model.Experiment) []tarEntry {
	t.Helper()
	var buf bytes.Buffer
	if err := cube.WriteCubex(&buf, e); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(&buf)
	var out []tarEntry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		out = append(out, tarEntry{h.Name, int64(len(b)), bytesOf(b)})
	}
}

type tarEntry struct {
	name string
	size int64
	body func(io.Writer) error
}

// writeTar writes the entries as a tar archive to w.
func writeTar(w io.Writer, entries ...tarEntry) error {
	tw := tar.NewWriter(w)
	for _, en := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: en.name, Size: en.size, Mode: 0o644, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if err := en.body(tw); err != nil {
			return err
		}
	}
	return tw.Close()
}

func TestHostileGzipCubexUnusedMember(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 256 MB")
	}
	e := synth.Generate(synth.Config{Cnodes: 30, Locations: 8, Metrics: 4, Seed: 3})
	members := cubexMembers(t, e)
	junk := tarEntry{"remapping.spec", 256 << 20, repeat(0, 256<<20)}
	// The unused member first, as a producer could write it.
	all := append([]tarEntry{junk}, members...)
	path := writeGzip(t, filepath.Join(t.TempDir(), "junk.cubex.gz"), func(w io.Writer) error { return writeTar(w, all...) })
	got, err := measure(t, "gzip-compressed .cubex with an unused 256 MB member", path)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := dumpOf(t, got), dumpOf(t, e); a != b {
		t.Errorf("values differ from the experiment written:\n%s", testkit.Diff(b, a))
	}
}

func dumpOf(t testing.TB, e *model.Experiment) string {
	t.Helper()
	var sb strings.Builder
	if err := e.Dump(&sb); err != nil {
		t.Fatal(err)
	}
	// Sources and formats differ by construction.
	var keep []string
	for _, l := range strings.Split(sb.String(), "\n") {
		if !strings.HasPrefix(l, "source ") && !strings.HasPrefix(l, "format ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// cubexWithAnchor writes e as .cubex with its anchor.xml edited by fix.
func cubexWithAnchor(t testing.TB, e *model.Experiment, fix func(anchor string) string) string {
	t.Helper()
	members := cubexMembers(t, e)
	for i, m := range members {
		if m.name != "anchor.xml" {
			continue
		}
		var buf bytes.Buffer
		m.body(&buf)
		a := fix(buf.String())
		members[i] = tarEntry{m.name, int64(len(a)), bytesOf([]byte(a))}
	}
	path := filepath.Join(t.TempDir(), "edited.cubex")
	var buf bytes.Buffer
	if err := writeTar(&buf, members...); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHostileSparseIDs: ids that are not 0…n−1 either read by value or
// give an error naming the id, never values on the wrong entity.
func TestHostileSparseIDs(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 12, Locations: 64, Threads: 1, Nodes: 4, Metrics: 3, Seed: 5})
	want := dumpOf(t, e)

	t.Run("location id far out", func(t *testing.T) {
		path := cubexWithAnchor(t, e, func(a string) string {
			return strings.Replace(a, `<location Id="5">`, `<location Id="999999999">`, 1)
		})
		_, err := readAll(path)
		if err == nil || !strings.Contains(err.Error(), "999999999") || !strings.Contains(err.Error(), "location") {
			t.Errorf("error %v, want one naming location id 999999999", err)
		}
	})
	t.Run("location ids permuted", func(t *testing.T) {
		// Ids 5 and 6 swapped: the values follow the ids.
		path := cubexWithAnchor(t, e, func(a string) string {
			a = strings.Replace(a, `<location Id="5">`, `<location Id="X">`, 1)
			a = strings.Replace(a, `<location Id="6">`, `<location Id="5">`, 1)
			return strings.Replace(a, `<location Id="X">`, `<location Id="6">`, 1)
		})
		got, err := readAll(path)
		if err != nil {
			t.Fatal(err)
		}
		for m := range got.Metrics {
			a, _ := got.Block(m)
			b, _ := e.Block(m)
			for c := range e.Cnodes {
				gc := byID(got, e.Cnodes[c].ID)
				if a.Value(gc, 5) != b.Value(c, 6) || a.Value(gc, 6) != b.Value(c, 5) || a.Value(gc, 7) != b.Value(c, 7) {
					t.Fatalf("metric %d cnode %d: locations 5, 6, 7 hold %v %v %v, want %v %v %v", m, c,
						a.Value(gc, 5), a.Value(gc, 6), a.Value(gc, 7), b.Value(c, 6), b.Value(c, 5), b.Value(c, 7))
				}
			}
		}
	})
	t.Run("cnode id far out", func(t *testing.T) {
		// Rows are positions in the call tree, so cnode ids are names only.
		path := cubexWithAnchor(t, e, func(a string) string {
			return strings.Replace(a, `<cnode id="3" `, `<cnode id="999999999" `, 1)
		})
		got, err := readAll(path)
		if err != nil {
			t.Fatal(err)
		}
		if a := dumpOf(t, got); a != strings.Replace(want, "cnode 3 ", "cnode 999999999 ", 1) && !strings.Contains(a, "999999999") {
			t.Errorf("dump does not show cnode id 999999999")
		}
		for m := range got.Metrics {
			a, _ := got.Block(m)
			b, _ := e.Block(m)
			for c := range e.Cnodes {
				id := e.Cnodes[c].ID
				if id == 3 {
					id = 999999999
				}
				gc := byID(got, id)
				for l := 0; l < 64; l++ {
					if a.Value(gc, l) != b.Value(c, l) {
						t.Fatalf("metric %d cnode id %d location %d: %v, want %v", m, id, l, a.Value(gc, l), b.Value(c, l))
					}
				}
			}
		}
	})
	t.Run("metric id far out", func(t *testing.T) {
		// The data members are named by metric id: renaming the id
		// leaves the metric without data, which must read as zero,
		// not as another metric's values.
		path := cubexWithAnchor(t, e, func(a string) string {
			return strings.Replace(a, `<metric id="1" `, `<metric id="999999999" `, 1)
		})
		got, err := readAll(path)
		if err != nil {
			t.Fatal(err)
		}
		m := got.MetricByName(e.Metrics[1].UniqName)
		if got.Metrics[m].ID != 999999999 {
			t.Fatalf("metric id %d", got.Metrics[m].ID)
		}
		total, _ := got.MetricTotal(model.MetricSel{Metric: m, Inclusive: false})
		if total != 0 {
			t.Errorf("metric without data members has total %v", total)
		}
	})
}

// byID returns the index of the cnode with the given id.
func byID(e *model.Experiment, id int) int {
	for c := range e.Cnodes {
		if e.Cnodes[c].ID == id {
			return c
		}
	}
	panic(fmt.Sprintf("no cnode id %d", id))
}

// TestHostileNonFinite: NaN and ±Inf are read, shown and kept.
func TestHostileNonFinite(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 6, Locations: 2, Metrics: 1, Seed: 9})
	b, _ := e.Block(0)
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for i, v := range vals {
		b.MutableRow(i + 1)[0] = v
	}
	dir := t.TempDir()
	for _, ext := range []string{".cubex", ".cube", ".cube.gz"} {
		path := filepath.Join(dir, "nonfinite"+ext)
		if err := Write(path, e); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		got, err := readAll(path)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		gb, _ := got.Block(0)
		for i, v := range vals {
			c := got.CnodeByPath(e.CallPath(i + 1))
			x := gb.Value(c, 0)
			if !(math.IsNaN(v) && math.IsNaN(x) || x == v) {
				t.Errorf("%s: cnode %s: %v, want %v", ext, e.CallPath(i+1), x, v)
			}
		}
		total, err := got.MetricTotal(model.MetricSel{Metric: 0, Inclusive: true})
		if err != nil || !math.IsNaN(total) {
			t.Errorf("%s: total %v, %v; want NaN", ext, total, err)
		}
	}
}

// TestErrorsEscapeInvalidBytes: bytes of the file that are not printable
// text reach error messages escaped.
func TestErrorsEscapeInvalidBytes(t *testing.T) {
	dir := t.TempDir()
	bad := "\x1b[31mred\xff\x00"
	cases := map[string]string{
		"root.cube":             "<?xml version=\"1.0\"?><" + "cube" + bad + " version=\"3.0\"></cube>",
		"version.cube":          "<?xml version=\"1.0\"?><cube version=\"" + bad + "\"></cube>",
		"id.cube":               strings.Replace(string(smallCube(t)), `<cnode id="1"`, `<cnode id="`+bad+`"`, 1),
		"value.cube":            strings.Replace(string(smallCube(t)), `<row cnodeId="0">`, `<row cnodeId="0">`+bad+" ", 1),
		"text.cube":             "<?xml version=\"1.0\"?>" + bad,
		"end tag.cube":          "<?xml version=\"1.0\"?><cube version=\"3.0\"></cu" + bad + ">",
		"name\x1b[31m\xff.cube": "not a cube",
	}
	for name, body := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(path)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		msg := err.Error()
		if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\x1b\x00\r") {
			t.Errorf("%s: error with raw bytes: %q", name, msg)
		}
	}
}

// TestReproducibleCubex: the same experiment gives the same bytes, also
// after a read and a second write, at any time.
func TestReproducibleCubex(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 25, Locations: 6, Threads: 2, Metrics: 4, MinMax: true, Seed: 11})
	dir := t.TempDir()
	write := func(name string, e *model.Experiment) []byte {
		path := filepath.Join(dir, name)
		if err := Write(path, e); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := write("a.cubex", e)
	time.Sleep(1100 * time.Millisecond) // member times are in seconds
	second := write("b.cubex", e)
	if !bytes.Equal(first, second) {
		t.Fatal("writing the same experiment twice gives different bytes")
	}
	back, err := Open(filepath.Join(dir, "a.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	if again := write("c.cubex", back); !bytes.Equal(first, again) {
		t.Error("writing what was read gives different bytes")
	}
	for _, ext := range []string{".cube", ".cube.gz"} {
		if !bytes.Equal(write("x"+ext, e), write("y"+ext, e)) {
			t.Errorf("%s: writing twice gives different bytes", ext)
		}
	}
}

// TestGzipCubexStreamed opens gzip-compressed copies of real .cubex files
// (one with CubeWriter 4.8's wrong tar checksums) as they open unpacked,
// and a truncated one with an error naming the file.
func TestGzipCubexStreamed(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range [][]string{{"cube4", "quirks", "cube4.8_with_checksum_bug.cubex"}, {"cube4", "cpi", "profile.cubex"}} {
		src := testkit.Data(t, rel...)
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		path := writeGzip(t, filepath.Join(dir, rel[len(rel)-1]+".gz"), bytesOf(raw))
		got, err := readAll(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readAll(src)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := dumpOf(t, got), dumpOf(t, want); a != b {
			t.Errorf("%s: gzip-compressed copy reads differently:\n%s", src, testkit.Diff(b, a))
		}
		short := writeGzip(t, filepath.Join(dir, "short.cubex.gz"), bytesOf(raw[:len(raw)/2]))
		if _, err := readAll(short); err == nil || !strings.Contains(err.Error(), short) || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("truncated copy: error %v", err)
		}
	}
}

// TestHostileIDsXML: in CUBE XML, ids that are not 0…n−1 or repeat give an
// error naming the id (thread ids number the values of a row; cnode and
// metric ids name the rows and matrices), never values on the wrong
// entity. A .cubex with a repeated id is refused as well.
func TestHostileIDsXML(t *testing.T) {
	doc := string(smallCube(t))
	tests := []struct{ old, new, want string }{
		{`<thread Id="1">`, `<thread Id="999999999">`, "no thread has Id 1"},
		{`<thread Id="1">`, `<thread Id="0">`, "thread Id 0 is declared twice"},
		{`<cnode id="3" `, `<cnode id="999999999" `, "unknown cnode id 3"},
		{`<cnode id="3" `, `<cnode id="2" `, "cnode id 2 is declared twice"},
		{`<metric id="1">`, `<metric id="999999999">`, "unknown metric id 1"},
		{`<metric id="1">`, `<metric id="0">`, "metric id 0 is declared twice"},
	}
	for _, tt := range tests {
		if !strings.Contains(doc, tt.old) {
			t.Fatalf("the document has no %s", tt.old)
		}
		path := filepath.Join(t.TempDir(), "ids.cube")
		if err := os.WriteFile(path, []byte(strings.Replace(doc, tt.old, tt.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readAll(path); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s → %s: error %v, want one naming the file and %q", tt.old, tt.new, err, tt.want)
		}
	}

	e := synth.Generate(synth.Config{Cnodes: 12, Locations: 8, Threads: 1, Nodes: 2, Metrics: 3, Seed: 5})
	for _, tt := range []struct{ old, new, want string }{
		{`<location Id="5">`, `<location Id="4">`, "location Id 4 is declared twice"},
		{`<cnode id="3" `, `<cnode id="2" `, "cnode id 2 is declared twice"},
		{`<metric id="1" `, `<metric id="0" `, "metric id 0 is declared twice"},
	} {
		path := cubexWithAnchor(t, e, func(a string) string { return strings.Replace(a, tt.old, tt.new, 1) })
		_, err := readAll(path)
		t.Logf(".cubex %s → %s: %v", tt.old, tt.new, err)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf(".cubex %s → %s: error %v, want one naming %q", tt.old, tt.new, err, tt.want)
		}
	}
}
