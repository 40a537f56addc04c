package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReaderWarningsPrinted: what a reader tolerated in an input (here a
// CUBE 3 row with fewer values than threads) is printed on stderr by every
// command that reads the file, once per file; the command still succeeds.
func TestReaderWarningsPrinted(t *testing.T) {
	dir := t.TempDir()
	good := writeXML(t, dir, "good.cube", "sec", "n0", "n1", [4]float64{1, 2, 3, 4})
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, "<row cnodeId=")
	j := strings.Index(text[i:], "</row>") + i
	row := text[i:j]
	short := row[:strings.Index(row, ">")+1] + "1"
	bad := filepath.Join(dir, "short.cube")
	if err := os.WriteFile(bad, []byte(text[:i]+short+text[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"tree", bad}, {"flat", bad}, {"diff", bad, bad}} {
		status, _, stderr := run(args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", args, status, stderr)
		}
		if n := strings.Count(stderr, "warning: "+bad+": line"); n != 1 {
			t.Errorf("%v: %d warnings naming the file and line on stderr, want 1:\n%s", args, n, stderr)
		}
		if !strings.Contains(stderr, "values for") {
			t.Errorf("%v: warning does not say what is missing: %s", args, stderr)
		}
	}
	if _, _, stderr := run("tree", good); strings.Contains(stderr, "warning") {
		t.Errorf("a file without warnings: %s", stderr)
	}
}

// TestReaderWarningNamesFileOnce: readers that name the file in their own
// warnings (perf script, folded stacks) are not prefixed with it again.
// FlameGraph's and gprof2dot's perf script samples (glxgears.perf) showed
// "warning: glxgears.perf: glxgears.perf: 1317 lines inside call chains …".
func TestReaderWarningNamesFileOnce(t *testing.T) {
	dir := t.TempDir()
	folded := filepath.Join(dir, "stacks.folded")
	script := filepath.Join(dir, "perf.txt")
	files := map[string]string{
		folded: "main;work;spin 30\nmain;idle 10\nthis is not a stack\nmain 5\n",
		script: "prog 123 1.000: 1 cycles:\n\tffff a (/bin/x)\n\tsrc.c:12\n\tffff main (/bin/x)\n\n" +
			"prog 123 1.001: 1 cycles:\n\tffff a (/bin/x)\n\tffff main (/bin/x)\n\n",
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		status, _, stderr := run("tree", path)
		if status != 0 || !strings.Contains(stderr, "warning: "+path+": 1 lines") || strings.Count(stderr, path) != 1 {
			t.Errorf("tree %s: status %d, stderr %q; want 0 and one warning naming the file once", path, status, stderr)
		}
	}
	if got, want := namedOnce("run/", "run: 3 bytes ignored"), "run: 3 bytes ignored"; got != want {
		t.Errorf("namedOnce of a folder = %q, want %q", got, want)
	}
	if got, want := namedOnce("a.cube", "line 3: short row"), "a.cube: line 3: short row"; got != want {
		t.Errorf("namedOnce = %q, want %q", got, want)
	}
}
