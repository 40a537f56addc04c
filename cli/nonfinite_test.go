package cli

import (
	"archive/tar"
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNonFiniteValues: NaN and infinities in a file are read, shown and
// kept by every command, as CubeLib reads them.
func TestNonFiniteValues(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "nan.cube")
	doc := strings.Replace(string(mustRead(t, writeXML(t, dir, "x.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20}))),
		`<row cnodeId="0">1 2</row>`, `<row cnodeId="0">1 nan</row>`, 1)
	doc = strings.Replace(doc, `<row cnodeId="1">10 20</row>`, `<row cnodeId="1">inf -inf</row>`, 1)
	if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	status, info, stderr := run("info", in)
	if status != 0 || !strings.Contains(info, "sum: NaN") {
		t.Errorf("info: status %d, %s%s", status, info, stderr)
	}
	status, tree, _ := run("tree", in)
	if status != 0 || !strings.Contains(tree, "NaN  -  main") || !strings.Contains(tree, "NaN  -    foo") {
		t.Errorf("tree: status %d\n%s", status, tree)
	}
	wantDump := "Cnode ID, Thread ID,time\n0,0,1\n0,1,NaN\n1,0,+Inf\n1,1,-Inf\n"
	for _, ext := range []string{".cubex", ".cube", ".cube.gz"} {
		out := filepath.Join(dir, "copy"+ext)
		if status, _, stderr := run("convert", in, out); status != 0 {
			t.Fatalf("convert to %s: %s", ext, stderr)
		}
		if status, dump, stderr := run("dump", "--excl", out); status != 0 || dump != wantDump {
			t.Errorf("dump of %s: status %d %s\n%s", ext, status, stderr, dump)
		}
	}
	if status, _, stderr := run("diff", in, filepath.Join(dir, "copy.cubex"), "-o", filepath.Join(dir, "d.cube")); status != 0 {
		t.Errorf("diff: %s", stderr)
	}
	if _, dump, _ := run("dump", "--excl", filepath.Join(dir, "d.cube")); dump != "Cnode ID, Thread ID,time\n0,0,0\n0,1,NaN\n1,0,NaN\n1,1,NaN\n" {
		t.Errorf("diff dump:\n%s", dump)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestErrorPrefixNotDoubled: an error found while loading a metric names
// the file, the metric and the command once.
func TestErrorPrefixNotDoubled(t *testing.T) {
	dir := t.TempDir()
	a := writeXML(t, dir, "a.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20})
	good := filepath.Join(dir, "good.cubex")
	if status, _, stderr := run("convert", a, good); status != 0 {
		t.Fatal(stderr)
	}
	// Copy it with an index entry pointing past the call tree: found when
	// the metric is loaded, not when the file is opened.
	var out bytes.Buffer
	tr, tw := tar.NewReader(bytes.NewReader(mustRead(t, good))), tar.NewWriter(&out)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		body, _ := io.ReadAll(tr)
		if strings.HasSuffix(h.Name, ".index") {
			binary.LittleEndian.PutUint32(body[len(body)-4:], 99)
		}
		tw.WriteHeader(h)
		tw.Write(body)
	}
	tw.Close()
	bad := filepath.Join(dir, "bad.cubex")
	if err := os.WriteFile(bad, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"info", bad}, {"dump", bad}, {"tree", bad},
		{"diff", bad, good, "-o", filepath.Join(dir, "d.cube")},
		{"cut", "--prune", "foo", bad, "-o", filepath.Join(dir, "c.cube")},
		{"calc", "mean(" + bad + ", " + good + ")", "-o", filepath.Join(dir, "m.cube")},
	} {
		status, _, stderr := run(args...)
		if status != 1 || !strings.Contains(stderr, "row position 99") {
			t.Errorf("%v: status %d, %q", args[0], status, stderr)
			continue
		}
		for _, once := range []string{bad, `metric "time"`, args[0] + ": "} {
			if n := strings.Count(stderr, once); n != 1 {
				t.Errorf("%v: %q appears %d times in %q", args[0], once, n, stderr)
			}
		}
	}
}

func TestTidyMessage(t *testing.T) {
	tests := []struct{ cmd, in, want string }{
		{"cut", "cut: a.cubex: no region", "a.cubex: no region"},
		{"info", `a.cubex: metric "t": a.cubex: metric "t": 0.index: bad`, `a.cubex: metric "t": 0.index: bad`},
		{"diff", `operand 0 (a): metric "t": a: metric "t": x`, `operand 0 (a): metric "t": x`},
		{"info", "a: b: c", "a: b: c"},
		{"info", "x: x: x", "x"},
	}
	for _, tt := range tests {
		if got := tidyMessage(tt.cmd, tt.in); got != tt.want {
			t.Errorf("tidyMessage(%q, %q) = %q, want %q", tt.cmd, tt.in, got, tt.want)
		}
	}
}
