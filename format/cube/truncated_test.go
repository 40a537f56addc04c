package cube

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// truncatedAfterOpen writes e to a .cubex file, opens it with every
// metric read row by row (a memory budget below every block, each
// metric's index read), and then truncates the file to half its size:
// the rows a writer reads later are missing.
func truncatedAfterOpen(t *testing.T, e *model.Experiment, opt cubexWriteOptions) (*model.Experiment, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := writeCubex(&buf, e, opt); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "input.cubex")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	model.SetMemoryBudget(1)
	t.Cleanup(func() { model.SetMemoryBudget(0) })
	opened, err := OpenCubex(path)
	if err != nil {
		t.Fatal(err)
	}
	for m := range opened.Metrics {
		if b, err := opened.Block(m); err != nil || !b.OnDemand() {
			t.Fatalf("metric %d: not read on demand (%v)", m, err)
		}
	}
	if err := os.Truncate(path, int64(buf.Len()/2)); err != nil {
		t.Fatal(err)
	}
	return opened, path
}

// TestWriteOfTruncatedInputFails: rows that cannot be read from an input
// truncated after it was opened are an error naming the input and the
// member, for every writer, never zeros written.
func TestWriteOfTruncatedInputFails(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 200, Locations: 16, Threads: 2, Nodes: 2, Metrics: 3, Seed: 4})
	layouts := map[string]cubexWriteOptions{
		"exclusive":  {},
		"inclusive":  {inclusive: func(int) bool { return true }},
		"compressed": {compress: true},
	}
	writers := map[string]func(*bytes.Buffer, *model.Experiment) error{
		"cubex": func(w *bytes.Buffer, e *model.Experiment) error { return WriteCubex(w, e) },
		"cubex-inclusive": func(w *bytes.Buffer, e *model.Experiment) error {
			return WriteCubexWith(w, e, CubexOptions{Inclusive: true})
		},
		"cubex-compressed": func(w *bytes.Buffer, e *model.Experiment) error {
			return writeCubex(w, e, cubexWriteOptions{compress: true})
		},
		"xml":  func(w *bytes.Buffer, e *model.Experiment) error { return WriteXML(w, e) },
		"dump": func(w *bytes.Buffer, e *model.Experiment) error { return e.Dump(w) },
	}
	for ln, layout := range layouts {
		for wn, write := range writers {
			t.Run(ln+"/"+wn, func(t *testing.T) {
				in, path := truncatedAfterOpen(t, e, layout)
				var out bytes.Buffer
				err := write(&out, in)
				if err == nil {
					t.Fatalf("wrote %d bytes from a truncated input without an error", out.Len())
				}
				msg := err.Error()
				if !strings.Contains(msg, filepath.Base(path)) || !strings.Contains(msg, ".data") {
					t.Errorf("error %q does not name the input %s and its member", msg, path)
				}
			})
		}
	}
}

// anchorFirst rewrites the .cubex archive data with anchor.xml as its
// first member (as some writers order it) and returns the new archive and
// the end of each member's padded data.
func anchorFirst(t *testing.T, data []byte) ([]byte, []int64) {
	t.Helper()
	members, err := readTarIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{anchorName}
	for name := range members {
		if name != anchorName {
			names = append(names, name)
		}
	}
	slices.Sort(names[1:])
	var out bytes.Buffer
	tw := tar.NewWriter(&out)
	var ends []int64
	for _, name := range names {
		m := members[name]
		if err := writeMember(tw, name, m.size, memberTime); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data[m.offset : m.offset+m.size]); err != nil {
			t.Fatal(err)
		}
		tw.Flush()
		ends = append(ends, int64(out.Len()))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), ends
}

// TestTruncatedAnchorFirstCubex: a .cubex whose anchor.xml comes first,
// cut after any member, is an error naming the metrics without data
// (was: read as valid, every such metric zero); cut only in its
// end-of-archive blocks it reads with a warning and its values.
func TestTruncatedAnchorFirstCubex(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 40, Locations: 4, Metrics: 3, Seed: 2})
	var buf bytes.Buffer
	if err := WriteCubex(&buf, e); err != nil {
		t.Fatal(err)
	}
	whole, ends := anchorFirst(t, buf.Bytes())
	full, err := ReadCubex(bytes.NewReader(whole), int64(len(whole)), "whole.cubex")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := full.Dump(&want); err != nil {
		t.Fatal(err)
	}
	for i, end := range ends {
		cut := whole[:end]
		for _, stream := range []bool{false, true} {
			var got *model.Experiment
			var err error
			if stream {
				got, err = ReadCubexStream(bytes.NewReader(cut), "cut.cubex")
			} else {
				got, err = ReadCubex(bytes.NewReader(cut), int64(len(cut)), "cut.cubex")
			}
			if i < len(ends)-1 {
				if err == nil {
					t.Errorf("cut after member %d of %d (stream %v): read without an error", i+1, len(ends), stream)
				} else if !strings.Contains(err.Error(), "cut.cubex: truncated") || !strings.Contains(err.Error(), `"`) {
					t.Errorf("cut after member %d (stream %v): error %q does not say truncated and name metrics", i+1, stream, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("all members there (stream %v): %v", stream, err)
			}
			if len(got.Warnings) == 0 || !strings.Contains(strings.Join(got.Warnings, "\n"), "end-of-archive") {
				t.Errorf("all members there, end blocks cut (stream %v): no warning: %q", stream, got.Warnings)
			}
			var dump strings.Builder
			if err := got.Dump(&dump); err != nil {
				t.Fatal(err)
			}
			if dump.String() != want.String() {
				t.Errorf("all members there (stream %v): values differ", stream)
			}
		}
	}
}
