package timinglog

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHarnessSummaryComparesNumbers: the GUI timing harness's summary of
// a log ranks selection times as numbers (100.0 ms is the maximum, not
// 9.5 ms, which sorts last as text).
func TestHarnessSummaryComparesNumbers(t *testing.T) {
	if _, err := exec.LookPath("awk"); err != nil {
		t.Skip("awk not installed")
	}
	log := filepath.Join(t.TempDir(), "timing.log")
	text := "1 values a.cubex\n2 selected 9.5ms\n3 selected 12.3ms\n4 selected 100.0ms\n5 selected 8.0ms\n"
	if err := os.WriteFile(log, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", filepath.Join("..", "..", "scripts", "gui-timing.sh"), "--summary", log).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if want := "mean 32.5 ms, max 100.0 ms over 4"; !strings.Contains(string(out), want) {
		t.Errorf("summary %q, want %q", out, want)
	}
}
