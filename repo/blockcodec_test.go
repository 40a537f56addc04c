package repo

import (
	"math"
	"testing"

	"cubeview/model"
)

func TestBlockCodec(t *testing.T) {
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
	empty, err := decodeBlock(encodeBlock(model.NewBlock(4, 0)), 4, 0)
	if err != nil || empty.StoredRows() != 0 {
		t.Errorf("empty block: %v", err)
	}
}

// FuzzDecodeBlock: stored data is read back without panics or unbounded
// allocation, whatever the bytes.
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

func countPlaceholders(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '?' {
			n++
		}
	}
	return n
}
