package timinglog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clock returns a log into buf whose clock advances by step per reading,
// from one second after the epoch.
func clock(buf *bytes.Buffer, step time.Duration) *Log {
	t := time.Unix(1, 0)
	return &Log{w: buf, now: func() time.Time { t = t.Add(step); return t }}
}

func TestWindow(t *testing.T) {
	var buf bytes.Buffer
	l := clock(&buf, 2500*time.Microsecond)
	var w Window
	renders := 0
	render := func() { renders++ }
	l.Painted(&w, "a.cubex", render)
	l.Painted(&w, "a.cubex", render) // nothing to log
	l.SelectStarted(&w)
	l.Painted(&w, "a.cubex", render)
	l.Painted(&w, "a.cubex", render) // the change was logged already
	want := "1002500000 values a.cubex\n1010000000 selected 2.5ms\n"
	if buf.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
	if renders != 2 {
		t.Errorf("rendered %d times, want once per logged event", renders)
	}
}

func TestOff(t *testing.T) {
	t.Setenv(Env, "")
	l := Open(os.Stderr)
	if l != nil {
		t.Fatal("Open without the variable returned a log")
	}
	var w Window
	l.SelectStarted(&w)
	l.Painted(&w, "x", func() { t.Error("rendered without a log") })
	l.Event("x", "") // must not crash
}

func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "timing.log")
	t.Setenv(Env, path)
	l := Open(os.Stderr)
	l.Event("values", "b.cubex")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], " start ") || !strings.HasSuffix(lines[1], " values b.cubex") {
		t.Errorf("log = %q, want a start and a values line", data)
	}
	var stderr bytes.Buffer
	t.Setenv(Env, filepath.Join(t.TempDir(), "no", "such", "dir", "timing.log"))
	if Open(&stderr) != nil || !strings.Contains(stderr.String(), Env) {
		t.Errorf("unwritable log: stderr %q, want a message naming %s", stderr.String(), Env)
	}
}
