package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCalcHelpExampleRuns runs the example that "cubeview help calc"
// gives, on files of those names: a user who copies it must not be
// refused (it once wrote its result over one of its operands).
func TestCalcHelpExampleRuns(t *testing.T) {
	m := regexp.MustCompile(`(?m)^\s+cubeview calc '([^']+)' -o (\S+)$`).FindStringSubmatch(commands["calc"].Usage)
	if m == nil {
		t.Fatalf("no example in the usage text:\n%s", commands["calc"].Usage)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range regexp.MustCompile(`[\w.-]+\.cubex`).FindAllString(m[1], -1) {
		writeXML(t, dir, strings.TrimSuffix(f, ".cubex")+".cube", "sec", "n0", "n1", [4]float64{1, 2, 3, 4})
		// the example names .cubex files: convert the small XML ones
		if status, _, stderr := run("convert", strings.TrimSuffix(f, ".cubex")+".cube", f); status != 0 {
			t.Fatalf("convert: %s", stderr)
		}
	}
	status, stdout, stderr := run("calc", m[1], "-o", m[2])
	if status != 0 {
		t.Fatalf("the example %q -o %s: status %d\n%s%s", m[1], m[2], status, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, m[2])); err != nil {
		t.Errorf("the example wrote no %s: %v", m[2], err)
	}
}
