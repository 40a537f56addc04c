package callgrind

import (
	"cubeview/format/importer"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodHeader = "version: 1\npositions: line\nevents: Ir Dr\n"

// TestBadInput feeds broken files and checks that each gives an error
// naming the file, the line and the problem.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"no events", "version: 1\ncmd: x\n", "no events: line"},
		{"cost before events", "fn=main\n10 5\n", ":2: cost line before the events: line"},
		{"cost before fn", goodHeader + "10 5\n", ":4: cost line before any fn= line"},
		{"truncated after calls", goodHeader + "fn=main\ncfn=f\ncalls=1 10\n", "file ends after a calls= line"},
		{"calls without cost", goodHeader + "fn=main\ncfn=f\ncalls=1 10\nfn=other\n", ":7: a calls= line must be followed by its cost line"},
		{"calls without cfn", goodHeader + "fn=main\ncalls=1 10\n10 5\n", ":5: calls= line without a preceding cfn= line"},
		{"undefined id", goodHeader + "fl=(1) a.c\nfn=(7)\n10 5\n", ":5: name id (7) is used before it is defined"},
		{"huge id", goodHeader + "fn=(99999999999999999999) f\n", ":4: bad name id"},
		{"too many costs", goodHeader + "fn=main\n10 5 6 7\n", ":5: more costs than the 2 events"},
		{"star as a cost", goodHeader + "fn=main\n10 *\n", `:5: bad cost in "10 *": "*" (same as before) compresses positions, not costs`},
		{"negative call count", goodHeader + "fn=main\ncfn=f\ncalls=-1 10\n10 5\n", ":6: bad call count"},
		{"overflowing cost", goodHeader + "fn=main\n10 99999999999999999999999\n", ":5: bad cost"},
		{"garbage line", goodHeader + "fn=main\nhello world\n", ":5: malformed line"},
		{"unknown spec", goodHeader + "fn=main\nxyz=1\n", ":5: unknown specification \"xyz\""},
		{"unknown position", "positions: instr bb line\n", ":1: unknown position \"bb\""},
		{"newer version", "version: 2\n", ":1: unsupported format version"},
		{"event listed twice", "events: Ir Ir\n", ":1: event \"Ir\" listed twice"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".callgrind")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := Read(path, importer.Options{})
			if err == nil {
				t.Fatalf("no error (%d regions)", len(e.Regions))
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one naming %s and saying %q", err, path, tt.want)
			}
		})
	}
}

// FuzzRead checks that any input yields an experiment that validates or
// an error, never a panic.
func FuzzRead(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "handmade.callgrind")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(goodHeader + "fl=(1) a.c\nfn=(1) main\n10 5 1\n+1 3\ncfn=(2) f\ncalls=2 20\n* 100 10\nfn=(2)\n20 100 10\n"))
	f.Add([]byte("positions: instr line\nevents: Ir\nfn=f\n0x10 3 1\n+2 -1 4\n* * 5\n"))
	f.Add([]byte("events: A B\nevent: S = A + 2 B\nfn=x\n1 2 3\npart: 2\nevents: B C\nfn=x\n1 4 5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data[:min(len(data), importer.HeadSize)], "fuzz") // must not panic
		e, err := Parse(strings.NewReader(string(data)), "fuzz", importer.Options{})
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}

// TestLongTokenQuoted: an error about a huge malformed line quotes a
// bounded part of it (importer.Quote), not the whole line.
func TestLongTokenQuoted(t *testing.T) {
	for _, bad := range []string{strings.Repeat("x", 4<<20), strings.Repeat("k", 4<<20) + "=1", "9 " + strings.Repeat("7", 4<<20) + "z"} {
		_, err := Parse(strings.NewReader(goodHeader+"fn=main\n"+bad+"\n"), "long.callgrind", importer.Options{})
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "long.callgrind:5:") {
			n := 0
			if err != nil {
				n = len(err.Error())
			}
			t.Errorf("error of %d bytes: %.200v", n, err)
		}
	}
}
