package filesum

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func writeFile(t testing.TB, size int) (path, want string) {
	t.Helper()
	data := make([]byte, size)
	r := rand.New(rand.NewPCG(1, uint64(size)))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	path = filepath.Join(t.TempDir(), "f.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return path, hex.EncodeToString(s[:])
}

// TestSumEqualsSeparatePass: whatever a reader reads (in order, with
// small and large gaps, backwards, overlapping, concurrently, nothing at
// all), Sum equals SHA-256 of the whole file, and reads again only what
// was not read in order.
func TestSumEqualsSeparatePass(t *testing.T) {
	const size = 3<<20 + 123
	path, want := writeFile(t, size)
	type read struct{ off, n int64 }
	seq := func(chunk int64) []read {
		var rs []read
		for off := int64(0); off < size; off += chunk {
			rs = append(rs, read{off, min(chunk, size-off)})
		}
		return rs
	}
	for _, tc := range []struct {
		name     string
		reads    []read
		maxAgain int64 // most bytes Sum may read itself
	}{
		{"nothing read", nil, size},
		{"in order", seq(64 << 10), 0},
		{"in order, odd chunks", seq(4097), 0},
		{"small gaps (tar headers)", []read{{0, 512}, {1024, 100000}, {101024 + 512, size - 101024 - 512}}, 0},
		{"large gap", []read{{0, 1000}, {1000 + MaxGap + 1, 10}}, size - 1000},
		{"backwards", []read{{size - 1000, 1000}, {0, 1000}}, size - 1000},
		{"overlapping", []read{{0, 5000}, {100, 6000}, {5000, size - 5000}}, 0},
		{"past the end", []read{{0, size + 100}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for _, r := range tc.reads {
				buf := make([]byte, r.n)
				if n, err := f.ReadAt(buf, r.off); err != nil && !(err == io.EOF && r.off+int64(n) == size) {
					t.Fatalf("ReadAt(%d, %d): %d, %v", r.n, r.off, n, err)
				}
			}
			sum, n, err := f.Sum()
			if err != nil || sum != want || n != size {
				t.Fatalf("Sum = %s, %d, %v; want %s, %d", sum, n, err, want, size)
			}
			if again := f.CaughtUp(); again > tc.maxAgain {
				t.Errorf("Sum read %d bytes again, want at most %d", again, tc.maxAgain)
			}
			if sum2, _, _ := f.Sum(); sum2 != sum {
				t.Errorf("second Sum %s", sum2)
			}
		})
	}
	t.Run("sequential Read", func(t *testing.T) {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := io.CopyBuffer(io.Discard, io.LimitReader(f, size-10), make([]byte, 7000)); err != nil {
			t.Fatal(err)
		}
		if sum, _, err := f.Sum(); err != nil || sum != want || f.CaughtUp() != 10 {
			t.Fatalf("Sum = %s, %v after reading all but 10 bytes (read again %d)", sum, err, f.CaughtUp())
		}
	})
	t.Run("concurrent readers", func(t *testing.T) {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := int64(0); w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := make([]byte, 8192)
				for off := w * 8192; off < size; off += 4 * 8192 {
					f.ReadAt(buf, off)
				}
			}()
		}
		wg.Wait()
		f.Close()
		if sum, _, err := f.Sum(); err != nil || sum != want {
			t.Fatalf("Sum = %s, %v", sum, err)
		}
	})
}

// TestSumAfterClose: after Close, Sum reads the rest from the same file
// opened again; a file replaced or changed meanwhile is ErrChanged.
func TestSumAfterClose(t *testing.T) {
	path, want := writeFile(t, 100000)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f.ReadAt(make([]byte, 1000), 0)
	f.Close()
	if sum, _, err := f.Sum(); err != nil || sum != want || f.CaughtUp() != 100000-1000 {
		t.Fatalf("Sum = %s, %v (read again %d)", sum, err, f.CaughtUp())
	}

	for _, change := range []struct {
		name string
		do   func() error
	}{
		{"appended", func() error {
			g, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			g.Write([]byte("more"))
			return g.Close()
		}},
		{"touched", func() error { return os.Chtimes(path, time.Now(), time.Now().Add(time.Hour)) }},
		{"replaced", func() error {
			data, _ := os.ReadFile(path)
			os.Remove(path)
			return os.WriteFile(path, data, 0o644)
		}},
	} {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		f.ReadAt(make([]byte, 10), 0)
		f.Close()
		if err := change.do(); err != nil {
			t.Fatal(err)
		}
		if sum, _, err := f.Sum(); !errors.Is(err, ErrChanged) {
			t.Errorf("%s: Sum = %q, %v; want ErrChanged", change.name, sum, err)
		}
	}
}
