package format

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// sharedFiles lists the CUBE files of the shared real-data folder,
// skipping the test when it is absent.
func sharedFiles(t *testing.T) []string {
	t.Helper()
	dir := testkit.DataDir(t)
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".cubex") || strings.HasSuffix(path, ".cube") || strings.HasSuffix(path, ".cube.gz")) {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no CUBE files in %s", dir)
	}
	return files
}

var formatPattern = regexp.MustCompile(`^CUBE (2\.0|3\.0) XML( \(gzip\))?$|^CUBE (4\.\d|3\.0) \(\.cubex\)$`)

func TestOpenSharedFiles(t *testing.T) {
	for _, path := range sharedFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			e, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if e.Source != path {
				t.Errorf("Source = %q, want %q", e.Source, path)
			}
			if !formatPattern.MatchString(e.Format) {
				t.Errorf("Format = %q", e.Format)
			}
			if strings.HasSuffix(path, ".cubex") {
				if !strings.HasSuffix(e.Format, "(.cubex)") {
					t.Errorf("Format = %q for a .cubex file", e.Format)
				}
				for m := range e.Metrics {
					if e.Loaded(m) {
						t.Errorf("metric %q loaded by Open", e.Metrics[m].UniqName)
					}
				}
			}
			if len(e.Metrics) == 0 || len(e.Cnodes) == 0 || len(e.Locations) == 0 {
				t.Errorf("empty dimension: %d metrics, %d cnodes, %d locations", len(e.Metrics), len(e.Cnodes), len(e.Locations))
			}
			for m := range e.Metrics {
				if _, err := e.Block(m); err != nil {
					t.Errorf("metric %q: %v", e.Metrics[m].UniqName, err)
				}
			}
			if err := e.Validate(); err != nil {
				t.Errorf("after loading: %v", err)
			}
		})
	}
}

func TestOpenUnsupportedDataTypes(t *testing.T) {
	var path string
	for _, p := range sharedFiles(t) {
		if filepath.Base(p) == "cube-values_example.cubex" {
			path = p
		}
	}
	if path == "" {
		t.Skip("cube-values_example.cubex not in the shared data")
	}
	e, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	scalar := map[string]bool{"INT8": true, "UINT8": true, "INT16": true, "UINT16": true, "INT32": true,
		"UINT32": true, "INT64": true, "UINT64": true, "DOUBLE": true, "MINDOUBLE": true, "MAXDOUBLE": true}
	var unavailable, available int
	for m := range e.Metrics {
		met := &e.Metrics[m]
		if scalar[string(met.DataType)] {
			available++
			if met.Unavailable != "" {
				t.Errorf("metric %q (%s) unavailable: %s", met.UniqName, met.DataType, met.Unavailable)
			}
			continue
		}
		unavailable++
		if met.Unavailable == "" || !strings.Contains(met.Unavailable, string(met.DataType)) {
			t.Errorf("metric %q of type %s: Unavailable = %q, want a reason naming the type", met.UniqName, met.DataType, met.Unavailable)
		}
		b, err := e.Block(m)
		if err != nil || b.StoredRows() != 0 {
			t.Errorf("unavailable metric %q has data (%v)", met.UniqName, err)
		}
	}
	if available != 11 || unavailable != 7 {
		t.Errorf("%d scalar and %d other metrics, want 11 and 7 (the file's dtype list)", available, unavailable)
	}
}

func dump(t *testing.T, e *model.Experiment) string {
	t.Helper()
	var sb strings.Builder
	if err := e.Dump(&sb); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, path := range sharedFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			orig, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			want := dump(t, orig)
			for _, ext := range []string{".cubex", ".cube", ".cube.gz"} {
				out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+ext)
				if err := Write(out, orig); err != nil {
					t.Fatalf("write %s: %v", ext, err)
				}
				back, err := Open(out)
				if err != nil {
					t.Fatalf("reopen %s: %v", ext, err)
				}
				if got := dump(t, back); got != want {
					t.Errorf("%s round trip changes the dump:\n%s", ext, testkit.Diff(want, got))
				}
			}
		})
	}
}

func TestRoundTripSynthetic(t *testing.T) {
	plain := synth.Generate(synth.Config{Cnodes: 200, Locations: 12, Threads: 3, Nodes: 2, Metrics: 7, MinMax: true, Density: 0.6, Seed: 5})
	// Location ids that are neither 0…L−1 nor in column order.
	permuted := synth.Generate(synth.Config{Cnodes: 50, Locations: 8, Threads: 2, Metrics: 4, Density: 0.8, Seed: 6})
	for l, s := range permuted.Locations {
		permuted.System[s].ID = 40 + (l*5)%8
	}
	for name, e := range map[string]*model.Experiment{"plain": plain, "permuted": permuted} {
		want := dump(t, e)
		for _, ext := range []string{".cubex", ".cube", ".cube.gz"} {
			out := filepath.Join(t.TempDir(), "synthetic"+ext)
			if err := Write(out, e); err != nil {
				t.Fatal(err)
			}
			back, err := Open(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(t, back); got != want {
				t.Errorf("%s: %s round trip changes the dump:\n%s", name, ext, testkit.Diff(want, got))
			}
		}
	}
}

// syntheticCubex returns the members of a small .cubex written by Write.
func syntheticCubex(t *testing.T) (map[string][]byte, []string) {
	t.Helper()
	e := synth.Generate(synth.Config{Cnodes: 20, Locations: 4, Metrics: 3, Seed: 7})
	path := filepath.Join(t.TempDir(), "x.cubex")
	if err := Write(path, e); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	members := map[string][]byte{}
	var order []string
	tr := tar.NewReader(bytes.NewReader(raw))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		members[h.Name] = body
		order = append(order, h.Name)
	}
	return members, order
}

func packTar(t *testing.T, members map[string][]byte, order []string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range order {
		body, ok := members[name]
		if !ok {
			continue
		}
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(body)), Mode: 0o644})
		tw.Write(body)
	}
	tw.Close()
	return buf.Bytes()
}

func TestOpenBadInput(t *testing.T) {
	dir := t.TempDir()
	members, order := syntheticCubex(t)
	good := packTar(t, members, order)

	noAnchor := map[string][]byte{}
	for k, v := range members {
		if k != "anchor.xml" {
			noAnchor[k] = v
		}
	}
	mismatch := map[string][]byte{}
	for k, v := range members {
		mismatch[k] = v
	}
	mismatch["0.data"] = mismatch["0.data"][:len(mismatch["0.data"])-8*4] // one row of 4 values short

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("just some text, not CUBE"))
	zw.Close()

	tests := []struct {
		name    string
		content []byte // nil: the file does not exist
		want    string
		unknown bool // no reader recognises it: ErrUnknownFormat
	}{
		{"missing.cubex", nil, "no such file", false},
		{"empty.cubex", []byte{}, "empty file", true},
		{"truncated.cubex", good[:len(good)/2], "truncated", false},
		{"noanchor.cubex", packTar(t, noAnchor, order), "no anchor.xml", false},
		{"mismatch.cubex", packTar(t, mismatch, order), "index/data size mismatch", false},
		{"text.cube", []byte("hello, world\n"), "not a CUBE file", true},
		{"text.cube.gz", gz.Bytes(), "not a CUBE file", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if tt.content != nil {
				if err := os.WriteFile(path, tt.content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e, err := Open(path)
			if err == nil {
				t.Fatalf("opened %s (%s) without error", tt.name, e.Format)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one naming %s and containing %q", err, path, tt.want)
			}
			if errors.Is(err, ErrUnknownFormat) != tt.unknown {
				t.Errorf("errors.Is(%q, ErrUnknownFormat) = %v, want %v", err, !tt.unknown, tt.unknown)
			}
		})
	}
	if _, err := Open(dir); !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a folder of no profile: %v, want ErrUnknownFormat", err)
	}
}

func TestWriteErrors(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 5, Locations: 2, Metrics: 4, Seed: 8})
	dir := t.TempDir()
	if err := Write(filepath.Join(dir, "x.txt"), e); err == nil || !strings.Contains(err.Error(), "x.txt") {
		t.Errorf("unknown extension: %v", err)
	}
	// metric3 is UINT64: a fraction cannot be stored, and nothing is left behind.
	b, err := e.Block(3)
	if err != nil {
		t.Fatal(err)
	}
	b.MutableRow(2)[1] = 0.5
	path := filepath.Join(dir, "bad.cubex")
	err = Write(path, e)
	if err == nil || !strings.Contains(err.Error(), "metric3") || !strings.Contains(err.Error(), "cnode id 2") {
		t.Errorf("error %v, want one naming the metric and cnode", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed write left %d files behind", len(entries))
	}
}

// TestErrorCarriesPath checks that Open and Write fail with an *Error
// whose Path is the file and whose message names it exactly once.
func TestErrorCarriesPath(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.cubex")
	garbage := filepath.Join(dir, "garbage.cube")
	if err := os.WriteFile(garbage, []byte("<cube version=\"3.0\"><broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Open(filepath.Join("..", "assets", "before.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		err  error
	}{
		{missing, func() error { _, err := Open(missing); return err }()},
		{garbage, func() error { _, err := Open(garbage); return err }()},
		{filepath.Join(dir, "x.txt"), Write(filepath.Join(dir, "x.txt"), e)},
		{filepath.Join(dir, "no", "such", "dir.cubex"), Write(filepath.Join(dir, "no", "such", "dir.cubex"), e)},
	} {
		var fe *Error
		if !errors.As(tc.err, &fe) {
			t.Errorf("%s: error %v (%T) is not a *format.Error", tc.path, tc.err, tc.err)
			continue
		}
		if fe.Path != tc.path {
			t.Errorf("error path %q, want %q", fe.Path, tc.path)
		}
		if n := strings.Count(tc.err.Error(), tc.path); n != 1 {
			t.Errorf("%q names the file %d times, want once", tc.err, n)
		}
	}
}

// TestIsExperimentFolder checks that a TAU profile directory and an
// HPCToolkit database are experiment folders, and a folder holding
// experiments, a file and a missing path are not.
func TestIsExperimentFolder(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{testkit.Data(t, "tau", "cpi-mpi"), true},
		{testkit.Data(t, "hpctoolkit", "cpi-database-v2"), true},
		{testkit.Data(t, "cube4", "cpi"), false},
		{testkit.Data(t, "cube4", "cpi", "profile.cubex"), false},
		{filepath.Join(t.TempDir(), "missing"), false},
	}
	for _, tt := range tests {
		if got := IsExperimentFolder(tt.path); got != tt.want {
			t.Errorf("IsExperimentFolder(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
