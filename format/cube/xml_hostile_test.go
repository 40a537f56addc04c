package cube

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatReader yields n copies of byte c without holding them.
type repeatReader struct {
	c byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = r.c
	}
	r.n -= int64(k)
	return k, nil
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hostileDoc splits a small valid CUBE 3 document where filler can go: in
// the root element between sections.
func hostileDoc() (head, tail string) {
	doc := xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">1 2</row></matrix>`)
	i := strings.Index(doc, "<metrics>")
	return doc[:i], doc[i:]
}

// TestTrailingBytesIgnored: reading stops after </cube>; what follows (here
// 1 GB of zero bytes) is neither read nor kept.
func TestTrailingBytesIgnored(t *testing.T) {
	doc := xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">1 2</row></matrix>`)
	rest := &repeatReader{c: 0, n: 1 << 30}
	var got *xmlDoc
	var err error
	alloc := allocated(func() { got, err = decodeXML(io.MultiReader(strings.NewReader(doc), rest), "trailing.cube") })
	if err != nil {
		t.Fatal(err)
	}
	if !got.Trailing {
		t.Error("trailing bytes not noticed")
	}
	if read := 1<<30 - rest.n; read > 1<<20 {
		t.Errorf("read %d bytes after </cube>", read)
	}
	if b, _ := got.Exp.Block(0); b.Value(0, 1) != 2 {
		t.Errorf("value %v, want 2", b.Value(0, 1))
	}
	if alloc > 16<<20 {
		t.Errorf("allocated %d MB", alloc>>20)
	}
}

// TestWhitespaceBounded: 256 MB of white space between the sections of a
// document read in bounded memory.
func TestWhitespaceBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MB")
	}
	head, tail := hostileDoc()
	var err error
	alloc := allocated(func() {
		_, err = decodeXML(io.MultiReader(strings.NewReader(head), &repeatReader{c: ' ', n: 256 << 20}, strings.NewReader(tail)), "spaces.cube")
	})
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 16<<20 {
		t.Errorf("allocated %d MB for 256 MB of white space", alloc>>20)
	}
}

// TestGzipBomb: a .cube.gz of a few hundred kilobytes that inflates to
// gigabytes of white space is stopped with a clear error once it passes
// the check size, in bounded memory.
func TestGzipBomb(t *testing.T) {
	head, tail := hostileDoc()
	member := func(p []byte) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(p)
		zw.Close()
		return b.Bytes()
	}
	spaces := member(bytes.Repeat([]byte{' '}, 4<<20))
	var bomb bytes.Buffer
	bomb.Write(member([]byte(head)))
	for range 1024 { // 4 GB of white space
		bomb.Write(spaces)
	}
	bomb.Write(member([]byte(tail)))
	t.Logf("%d KB compressed", bomb.Len()>>10)
	var err error
	alloc := allocated(func() { _, err = decodeXML(bytes.NewReader(bomb.Bytes()), "bomb.cube.gz") })
	if err == nil || !strings.Contains(err.Error(), "decompression bomb") || !strings.HasPrefix(err.Error(), "bomb.cube.gz: ") {
		t.Fatalf("error %v, want a decompression bomb named by file", err)
	}
	if alloc > 32<<20 {
		t.Errorf("allocated %d MB", alloc>>20)
	}
}
