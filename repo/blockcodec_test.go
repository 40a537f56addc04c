package repo

import (
	"math"
	"testing"

	"cubeview/model"
)

// TestChunkCodecs: both chunk codecs give back every bit pattern, and a
// changed byte fails the checksum.
func TestChunkCodecs(t *testing.T) {
	cs := []int{0, 2, 5}
	vals := []float64{1, 2, 3, math.Copysign(0, -1), math.NaN(), math.Inf(-1), 1e-300, -7, 42}
	for _, enc := range []func([]int, []float64) encodedChunk{encodeChunk, encodeRawChunk} {
		ch := enc(cs, vals)
		gotCs, got, err := decodeChunk(ch.codec, ch.nrows, ch.rows, ch.data, ch.checksum, 6, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(gotCs) != 3 || gotCs[1] != 2 || gotCs[2] != 5 {
			t.Errorf("codec %d: rows %v", ch.codec, gotCs)
		}
		for i := range vals {
			if math.Float64bits(got[i]) != math.Float64bits(vals[i]) {
				t.Errorf("codec %d: value %d = %v, want %v", ch.codec, i, got[i], vals[i])
			}
		}
		if _, _, err := decodeChunk(ch.codec, ch.nrows, ch.rows, ch.data, ch.checksum, 4, 3); err == nil {
			t.Errorf("codec %d: a chunk with a row beyond the call paths decodes", ch.codec)
		}
		bad := append([]byte(nil), ch.data...)
		bad[len(bad)/2] ^= 0x10
		if _, _, err := decodeChunk(ch.codec, ch.nrows, ch.rows, bad, ch.checksum, 6, 3); err == nil {
			t.Errorf("codec %d: a changed byte is not noticed", ch.codec)
		}
	}
}

// TestLegacyBlockCodec reads the whole-metric blocks of schemas 2 and 3.
func TestLegacyBlockCodec(t *testing.T) {
	b := model.NewBlock(6, 3)
	b.SetRow(0, []float64{1, 2, 3})
	b.SetRow(2, []float64{math.Copysign(0, -1), math.NaN(), math.Inf(-1)})
	b.SetRow(3, []float64{0, 0, 0}) // all zero: need not be stored
	b.SetRow(5, []float64{1e-300, -7, 42})
	data := encodeBlock(b)
	got, err := decodeBlock(data, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; c < 6; c++ {
		for l := 0; l < 3; l++ {
			if math.Float64bits(got.Value(c, l)) != math.Float64bits(b.Value(c, l)) {
				t.Errorf("(%d,%d) = %v, want %v", c, l, got.Value(c, l), b.Value(c, l))
			}
		}
	}
	if got.StoredRows() != 3 {
		t.Errorf("%d rows stored, want 3", got.StoredRows())
	}
	if _, err := decodeBlock(data, 6, 4); err == nil {
		t.Error("a block of other dimensions decodes")
	}
}

// FuzzDecodeChunk: stored chunks are read back without panics or
// unbounded allocation, whatever the bytes.
func FuzzDecodeChunk(f *testing.F) {
	for _, ch := range []encodedChunk{encodeChunk([]int{1}, []float64{1, 2}), encodeRawChunk([]int{0, 2}, []float64{1, 2, 3, 4})} {
		f.Add(ch.codec, ch.nrows, ch.rows, ch.data, 3, 2)
	}
	f.Fuzz(func(t *testing.T, codec, nrows int, rows, data []byte, nc, nl int) {
		if nc < 0 || nl < 0 || nc > 1000 || nl > 1000 {
			return
		}
		cs, vals, err := decodeChunk(codec, nrows, rows, data, checksum(rows, data), nc, nl)
		if err == nil && (len(cs) != nrows || len(vals) != nrows*nl) {
			t.Fatalf("decoded %d rows, %d values; want %d rows of %d", len(cs), len(vals), nrows, nl)
		}
	})
}

// FuzzDecodeBlock: blocks of schemas 2 and 3 are read back without panics
// or unbounded allocation, whatever the bytes.
func FuzzDecodeBlock(f *testing.F) {
	b := model.NewBlock(3, 2)
	b.SetRow(1, []float64{1, 2})
	f.Add(encodeBlock(b), 3, 2)
	f.Add([]byte{3, 2, 1, 0}, 3, 2)
	f.Fuzz(func(t *testing.T, data []byte, nc, nl int) {
		if nc < 0 || nl < 0 || nc > 1000 || nl > 1000 {
			return
		}
		blk, err := decodeBlock(data, nc, nl)
		if err == nil && (blk.NumCnodes() != nc || blk.NumLocations() != nl) {
			t.Fatalf("decoded %d×%d, want %d×%d", blk.NumCnodes(), blk.NumLocations(), nc, nl)
		}
	})
}

// FuzzFilter: any filter text compiles or gives a FilterError.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{"app = lulesh and procs >= 64", "not (a ~ 'x*' or has b)", "@\"k\" != 3", "(((", "a = 'x''y'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := compileFilter(postgresDialect, s)
		if err != nil {
			if _, ok := err.(*FilterError); !ok {
				t.Fatalf("%q: %T %v", s, err, err)
			}
			return
		}
		if n := countPlaceholders(c.sql); n != len(c.args) {
			t.Fatalf("%q: %d placeholders, %d arguments", s, n, len(c.args))
		}
	})
}

// FuzzConstraint: any constraint text parses or gives a ConstraintError.
func FuzzConstraint(f *testing.F) {
	for _, s := range []string{"time >= 10%", "incl(time) > 2 and not (mpi < 1 or \"a b\" <= 3)", "excl(", "x >", "(a > 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := parseConstraint(s, false)
		if err != nil {
			if _, ok := err.(*ConstraintError); !ok {
				t.Fatalf("%q: %T %v", s, err, err)
			}
			return
		}
		x.tests(func(ts *test) {
			if ts.metric == "" {
				t.Fatalf("%q: a test without a metric", s)
			}
		})
	})
}

// FuzzTree: stored call trees are read back without panics.
func FuzzTree(f *testing.F) {
	f.Add([]byte{1, 2, 0, 0, 0, 1, 0, 0, 1, 4, 117, 115, 101, 114, 1, 0, 1, 97})
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := decodeTree(seal(b))
		if err == nil {
			for c := range tr.parent {
				tr.path(c)
			}
		}
	})
}

func countPlaceholders(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '?' {
			n++
		}
	}
	return n
}
