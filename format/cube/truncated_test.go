package cube

import (
	"bytes"
	"os"
	"path/filepath"
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
