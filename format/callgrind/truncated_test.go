package callgrind

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// TestTruncated cuts real callgrind outputs (valgrind's, which end with a
// totals: line) at many points, at line ends and inside lines: each cut
// file must be refused with an error naming it, never read as a smaller
// profile.
func TestTruncated(t *testing.T) {
	for _, name := range []string{"bool.callgrind", "issue35.callgrind", "selinux.callgrind"} {
		data, err := os.ReadFile(testkit.Data(t, "callgrind", name))
		if err != nil {
			t.Fatal(err)
		}
		body := bytes.Index(data, []byte("\nfn="))
		cuts := map[int]bool{len(data) - 3: true} // inside the totals: number
		for i := 1; i <= 16; i++ {
			at := body + (len(data)-body)*i/17
			cuts[at] = true // inside a line
			if nl := bytes.LastIndexByte(data[:at], '\n'); nl > body {
				cuts[nl+1] = true // at a line end
			}
		}
		if tl := bytes.LastIndex(data, []byte("\ntotals:")); tl > 0 {
			cuts[tl+1] = true // just before the totals: line
		}
		for at := range cuts {
			_, err := Parse(bytes.NewReader(data[:at]), name, importer.Options{})
			if err == nil {
				t.Errorf("%s cut at byte %d of %d: read without an error", name, at, len(data))
			} else if !strings.Contains(err.Error(), name) {
				t.Errorf("%s cut at byte %d: %v does not name the file", name, at, err)
			}
		}
	}
}

// TestSummaryMismatch: a cachegrind file whose summary: line (written
// after the costs) disagrees with its costs is refused; a summary: line
// of another writer before the costs that disagrees gives a warning, an
// error in strict mode.
func TestSummaryMismatch(t *testing.T) {
	cachegrind := "desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./a\nevents: Ir\nfl=a.c\nfn=main\n1 10\n2 5\nsummary: 16\n"
	if _, err := Parse(strings.NewReader(cachegrind), "a.cg", importer.Options{}); err == nil || !strings.Contains(err.Error(), "sum to 15, but its summary: line says 16") {
		t.Errorf("cachegrind with a wrong summary: %v", err)
	}
	other := "events: Ticks\nsummary: 20\nfl=a.py\nfn=main\n0 15\n"
	e, err := Parse(strings.NewReader(other), "a.prof", importer.Options{})
	if err != nil || len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "sum to 15, but its summary: line says 20") {
		t.Errorf("another writer's wrong summary: %v, warnings %q", err, e.Warnings)
	}
	if _, err := Parse(strings.NewReader(other), "a.prof", importer.Options{Strict: true}); err == nil {
		t.Error("strict: no error")
	}
}
