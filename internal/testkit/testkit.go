package testkit

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// update is the -update flag of every test binary that imports testkit:
// golden files are rewritten instead of compared.
var update = flag.Bool("update", false, "rewrite golden files in testdata/ instead of comparing")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// DataEnv names an environment variable that, when set, overrides the
// location of the real test data.
const DataEnv = "CUBEVIEW_TEST_DATA"

var (
	dataOnce sync.Once
	dataDir  string
	dataErr  error
)

// findData locates ../shared/data beside the repository root (the folder
// holding go.mod), whatever the package directory the test runs in.
func findData() (string, error) {
	if d := os.Getenv(DataEnv); d != "" {
		if _, err := os.Stat(d); err != nil {
			return "", fmt.Errorf("%s=%s: %w", DataEnv, d, err)
		}
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test's directory")
		}
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "data")
	if _, err := os.Stat(d); err != nil {
		return "", err
	}
	return filepath.Clean(d), nil
}

// DataDir returns the folder of real experiments (../shared/data next to
// the repository root, or $CUBEVIEW_TEST_DATA), or skips the test with a
// message when it is absent: it is not part of the repository.
func DataDir(t testing.TB) string {
	t.Helper()
	dataOnce.Do(func() { dataDir, dataErr = findData() })
	if dataErr != nil {
		t.Skipf("real test data not found (../shared/data beside the repository is not part of it): %v", dataErr)
	}
	return dataDir
}

// Data returns the path of elem… inside the real-data folder, skipping the
// test when the folder is absent and failing it when the named file is
// missing from a folder that is present.
func Data(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{DataDir(t)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("real test data: %v", err)
	}
	return p
}

// Golden compares got with the file testdata/name of the test's package
// and fails the test with the first difference. With -update it writes got
// to that file instead.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the output (run with -update to accept it):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff describes the first line where got differs from want, with its
// number, or returns "" when they are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		okA, okB := i < len(w), i < len(g)
		if okA {
			a = w[i]
		}
		if okB {
			b = g[i]
		}
		if okA != okB || a != b {
			switch {
			case !okA:
				return fmt.Sprintf("line %d: want end of text\n  got  %q", i+1, b)
			case !okB:
				return fmt.Sprintf("line %d: want %q\n  got  end of text", i+1, a)
			}
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, a, b)
		}
	}
	return "texts differ" // unreachable: equal lines mean equal texts
}

// Peak runs f and returns the largest heap in use while it ran, above
// what was in use before (sampled with runtime.ReadMemStats every
// millisecond), and how long f took. Memory that f keeps afterwards
// counts; garbage collected meanwhile does not.
func Peak(f func()) (peak uint64, elapsed time.Duration) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var top uint64
		var m runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			select {
			case <-stop:
				done <- top
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	f()
	elapsed = time.Since(start)
	close(stop)
	top := <-done
	runtime.ReadMemStats(&ms)
	top = max(top, ms.HeapInuse)
	if top < base {
		return 0, elapsed
	}
	return top - base, elapsed
}
