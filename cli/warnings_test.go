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
