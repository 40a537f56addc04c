package format

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLookalikes: a file or folder no reader reads is named for what it
// looks like, with a hint, and is still ErrUnknownFormat.
func TestLookalikes(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	folder := func(name string, files ...string) string {
		for _, f := range files {
			file(filepath.Join(name, f), "x")
		}
		return filepath.Join(dir, name)
	}
	tests := []struct {
		path string
		want string // in the message
	}{
		{file("scorep/traces.otf2", "\x00\x01\x02OTF2 anchor"), "looks like an OTF2 trace"},
		{folder("scorep_trace", "traces.otf2", "scorep.cfg", "traces/0.evt"), "is a directory that looks like an OTF2 trace"},
		{folder("scorep_sum", "summary.cubex", "scorep.cfg", "traces.otf2"), "is a directory that looks like a Score-P or Scalasca experiment folder, which this program does not read as a whole; open a CUBE file in it: summary.cubex"},
		{file("run.prv", "#Paraver (12/03/2024 at 10:00):1000_ns:1(4):1:4(1:1,1:1,1:1,1:1)\n"), "looks like a Paraver trace"},
		{file("renamed.txt", "#Paraver (12/03/2024 at 10:00):1000_ns:1(4):1:1(4:1)\n"), "looks like a Paraver trace"},
		{folder("hpctoolkit-cpi-measurements", "cpi-000000-000-a8c01d31-1234-0.hpcrun", "cpi-000000-000-a8c01d31-1234-0.log"), "run hpcprof"},
		{file("trace.json", `{"traceEvents":[{"name":"main","ph":"X","ts":0,"dur":10,"pid":1,"tid":1}]}`), "Chrome or Perfetto trace"},
		{file("events.json", `[{"name":"main","ph":"B","ts":0,"pid":1,"tid":1}]`), "Chrome or Perfetto trace"},
		{file("gmon.out", "gmon\x01\x00\x00\x00\x00\x00\x00\x00"), `gprof PROGRAM gmon.out`},
		{file("perf.data", "PERFILE2\x68\x00\x00\x00"), "perf script -i perf.data"},
		{file("r.db", "SQLite format 3\x00\x10\x00"), "cubeview repo --repo FILE"},
		{file("a.zip", "PK\x03\x04\x14\x00"), "ZIP archive"},
		{file("a.cubex.xz", "\xfd7zXZ\x00\x00"), "uncompress it first"},
		{file("a.out", "\x7fELF\x02\x01\x01"), "program or library"},
		{file("run.nsys-rep", "\x00\x00"), "Nsight Systems"},
	}
	for _, tt := range tests {
		_, err := Open(tt.path)
		if err == nil {
			t.Errorf("%s: opened", tt.path)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.want) || !strings.HasPrefix(msg, tt.path+": ") {
			t.Errorf("%s: %q; want the path and %q", tt.path, msg, tt.want)
		}
		if !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%s: %v is not ErrUnknownFormat", tt.path, err)
		}
	}
	// What cannot be told keeps the general message.
	for _, p := range []string{file("notes.txt", "just some text\n"), folder("empty-ish", "README")} {
		_, err := Open(p)
		if err == nil || strings.Contains(err.Error(), "looks like") || !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%s: %v; want the general message", p, err)
		}
	}
}
