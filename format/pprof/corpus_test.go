package pprof

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	rpprof "runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// detectFile runs Detect on the head of the file at path as package
// format gives it (decompressed).
func detectFile(t *testing.T, path string) importer.Confidence {
	t.Helper()
	head, _, err := importer.Head(path, importer.HeadSize)
	if err != nil {
		t.Fatal(err)
	}
	return Detect(head, path)
}

// spin burns CPU for about d in a few recognisable functions.
func spin(d time.Duration) float64 {
	x := 0.0
	for end := time.Now().Add(d); time.Now().Before(end); {
		x += spinInner(1000)
	}
	return x
}

func spinInner(n int) float64 {
	x := 0.0
	for i := 0; i < n; i++ {
		x += float64(i%7) * 1.5
	}
	return x
}

var (
	sink     []byte
	spinSink float64
)

// TestRuntimeProfiles writes a CPU and a heap profile with runtime/pprof,
// as "go test -cpuprofile/-memprofile" do; each must be recognised (the
// runtime writes scalar fields such as period before the sample types)
// and equal "go tool pprof -top" for every sample type.
func TestRuntimeProfiles(t *testing.T) {
	goCmd := goTool(t)
	dir := t.TempDir()

	cpu := filepath.Join(dir, "cpu.pprof")
	f, err := os.Create(cpu)
	if err != nil {
		t.Fatal(err)
	}
	if err := rpprof.StartCPUProfile(f); err != nil {
		t.Skipf("CPU profiling unavailable: %v", err)
	}
	spinSink = spin(300 * time.Millisecond)
	rpprof.StopCPUProfile()
	f.Close()

	old := runtime.MemProfileRate
	runtime.MemProfileRate = 512
	for i := 0; i < 2000; i++ {
		sink = append(sink, make([]byte, 100+i)...)
	}
	runtime.GC()
	heap := filepath.Join(dir, "heap.pprof")
	f, err = os.Create(heap)
	if err != nil {
		t.Fatal(err)
	}
	err = rpprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	runtime.MemProfileRate = old
	if err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{cpu, heap} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if c := detectFile(t, path); c < importer.Likely {
				t.Errorf("Detect = %v, want at least likely", c)
			}
			checkTop(t, goCmd, path)
		})
	}
}

// TestProtoOutput converts the shared legacy (gperftools and Go) profiles
// with "go tool pprof -proto" and compares what cubeview reads of the
// output with "go tool pprof -top".
func TestProtoOutput(t *testing.T) {
	goCmd := goTool(t)
	for _, path := range realProfiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), filepath.Base(path)+".pb.gz")
			cmd := exec.Command(pprofTool(t, goCmd), "-proto", "-symbolize=none", "-output", out, path)
			cmd.Env = append(os.Environ(), "PPROF_TMPDIR="+t.TempDir(), "PPROF_BINARY_PATH=/nonexistent")
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go tool pprof -proto: %v\n%s", err, msg)
			}
			if c := detectFile(t, out); c < importer.Likely {
				t.Errorf("Detect = %v, want at least likely", c)
			}
			checkTop(t, goCmd, out)
		})
	}
}

// corpora are the public repositories whose pprof profiles the corpus
// test reads, with the paths that hold them.
var corpora = []struct {
	repo  string
	match func(string) bool
}{
	{"google/pprof", func(p string) bool {
		return (strings.HasPrefix(p, "profile/testdata/") || strings.HasPrefix(p, "internal/driver/testdata/") ||
			strings.HasPrefix(p, "internal/proftest/testdata/") || strings.HasPrefix(p, "internal/report/testdata/")) &&
			(strings.Contains(filepath.Base(p), "cppbench.") && !strings.HasSuffix(p, ".string") ||
				strings.HasSuffix(p, "go.crc32.cpu") || strings.HasSuffix(p, "large.cpu") || strings.HasSuffix(p, "sample.cpu") ||
				strings.HasSuffix(p, "go.nomappings.crash"))
	}},
	{"parca-dev/parca", func(p string) bool {
		return !strings.HasPrefix(p, "ui/") && (strings.HasSuffix(p, ".pb.gz") || strings.HasSuffix(p, ".pprof"))
	}},
	{"grafana/pyroscope", func(p string) bool {
		return strings.Contains(p, "testdata/") && (strings.HasSuffix(p, ".pb.gz") || strings.HasSuffix(p, ".pprof") ||
			strings.HasSuffix(p, "pprof/testdata/heap.pb"))
	}},
	{"jlfwong/speedscope", func(p string) bool { return strings.HasPrefix(p, "sample/profiles/pprof/") }},
}

// TestCorpus reads the pprof profiles of public repositories (where their
// snapshots are on this machine) and compares each with "go tool pprof
// -top" for every sample type. A file pprof itself refuses is counted,
// not compared.
func TestCorpus(t *testing.T) {
	goCmd := goTool(t)
	skipped := 0
	var mu sync.Mutex
	tried, opened, refused, compared := 0, 0, 0, 0
	for _, c := range corpora {
		t.Run(strings.ReplaceAll(c.repo, "/", "+"), func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, c.repo, c.match)
			more := testkit.CorpusBudget(t)
			if len(paths) == 0 {
				t.Fatalf("no pprof profiles in the snapshot of %s", c.repo)
			}
			for _, p := range paths {
				if !more() {
					skipped++
					continue
				}
				t.Run(p, func(t *testing.T) {
					path := local[p]
					mu.Lock()
					tried++
					mu.Unlock()
					if msg, err := exec.Command(pprofTool(t, goCmd), "-raw", "-symbolize=none", path).CombinedOutput(); err != nil {
						mu.Lock()
						refused++
						mu.Unlock()
						t.Skipf("go tool pprof refuses it too: %s", bytes.TrimSpace(msg))
					}
					if c := detectFile(t, path); c == importer.No {
						t.Fatalf("not recognised")
					}
					n := checkTop(t, goCmd, path)
					mu.Lock()
					opened++
					compared += n
					mu.Unlock()
				})
			}
		})
	}
	t.Logf("pprof corpus: %d files tried, %d left for lack of time ("+testkit.CorpusTimeEnv+"=0 checks all), %d refused by pprof too, %d opened, %d values compared", tried, skipped, refused, opened, compared)
}
