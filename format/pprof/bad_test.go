package pprof

import (
	"bytes"
	"compress/gzip"
	"cubeview/format/importer"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

func encode(t testing.TB, p *profile.Profile, compress bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	if compress {
		err = p.Write(&buf)
	} else {
		err = p.WriteUncompressed(&buf)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipped(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// TestBadInput feeds broken profiles and checks that each gives an error
// naming the file and the problem.
func TestBadInput(t *testing.T) {
	good := encode(t, handmade(), false)
	goodGz := encode(t, handmade(), true)

	badFunction := handmade()
	badFunction.Location[0].Line[0].Function = &profile.Function{ID: 99, Name: "ghost"}
	badLength := append([]byte(nil), good...)
	badLength[1] = 0xff // the first field's length now runs far past the end

	defer func(old func(int64) int64) { importer.Budget = old }(importer.Budget)
	importer.Budget = func(int64) int64 { return 1 << 20 }
	bomb := gzipped(make([]byte, 2<<20))

	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty profile"},
		{"wrong magic", []byte("this is no profile at all\n"), "unrecognized profile format"},
		{"truncated protobuf", good[:len(good)*2/3], "malformed protobuf profile"},
		{"truncated gzip", goodGz[:len(goodGz)/2], "bad gzip data"},
		{"bad gzip header", append([]byte{0x1f, 0x8b, 0x08, 0xff}, good...), "gzip"},
		{"function id out of range", encode(t, badFunction, false), "malformed profile"},
		{"length past the end", badLength, "malformed protobuf profile"},
		{"gzip bomb", bomb, "decompresses to more than 1 MB"},
		{"gzip twice", gzipped(goodGz), "gzip-compressed twice"},
		{"values for too few sample types", []byte("heap profile: 1: 2 [3: 4] @ heap/1\n1: 2 [3: 4] @ 0x1\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "/data/" + strings.ReplaceAll(tt.name, " ", "-") + ".pb.gz"
			e, err := Parse(bytes.NewReader(tt.data), name)
			if tt.want == "" {
				// a valid legacy profile: must open and validate
				if err != nil {
					t.Fatal(err)
				}
				if err := e.Validate(); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error (%d cnodes)", len(e.Cnodes))
			}
			if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one naming %s and saying %q", err, name, tt.want)
			}
		})
	}
}

// FuzzRead checks that any input yields an experiment that validates or
// an error, never a panic.
func FuzzRead(f *testing.F) {
	f.Add(encode(f, handmade(), false))
	f.Add(encode(f, handmade(), true))
	f.Add([]byte("heap profile: 1: 2 [3: 4] @ heap/1\n1: 2 [3: 4] @ 0x1 0x2\n"))
	f.Add([]byte("--- contention:\ncycles/second=1000\n10 20 @ 0x1 0x2\n"))
	f.Add([]byte("goroutine profile: total 2\n2 @ 0x1 0x2\n"))
	f.Add([]byte{0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x27, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data[:min(len(data), importer.HeadSize)], "fuzz") // must not panic
		e, err := Parse(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}

// TestGzipBombMemory: a profile that inflates far beyond the
// decompression budget for its size fails with a message naming the file
// and the budget, without holding the inflated data: less than 8 MB is
// allocated for a file that inflates to 128 MB (budget 16 MB).
func TestGzipBombMemory(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 128; i++ {
		zw.Write(zeros)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.pb.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(old func(int64) int64) { importer.Budget = old }(importer.Budget)
	importer.Budget = func(int64) int64 { return 16 << 20 }

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Read(path, importer.Options{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "decompresses to more than 16 MB") {
		t.Errorf("error %v, want one naming %s and the budget", err, path)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("reading a %d KB bomb allocated %d MB", buf.Len()>>10, alloc>>20)
	}
}
