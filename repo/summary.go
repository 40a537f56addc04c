package repo

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"cubeview/model"
)

// castagnoli is the CRC-32C table of every stored checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksum returns the CRC-32C of the parts, one after the other.
func checksum(parts ...[]byte) uint32 {
	var c uint32
	for _, p := range parts {
		c = crc32.Update(c, castagnoli, p)
	}
	return c
}

// errDamaged is wrapped by errors about stored data whose checksum does
// not match: the database was changed outside cubeview or damaged.
var errDamaged = errors.New("stored data are damaged (checksum mismatch; run \"cubeview repo check\")")

// seal appends the CRC-32C of b to it.
func seal(b []byte) []byte { return binary.BigEndian.AppendUint32(b, checksum(b)) }

// unseal checks and removes what seal appended.
func unseal(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errDamaged
	}
	body := b[:len(b)-4]
	if checksum(body) != binary.BigEndian.Uint32(b[len(body):]) {
		return nil, errDamaged
	}
	return body, nil
}

// encodeVector stores values as big-endian IEEE doubles, sealed.
func encodeVector(v []float64) []byte {
	b := make([]byte, 8*len(v), 8*len(v)+4)
	for i, x := range v {
		binary.BigEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return seal(b)
}

// decodeVector reads what encodeVector wrote; want is the expected length.
func decodeVector(b []byte, want int) ([]float64, error) {
	b, err := unseal(b)
	if err != nil {
		return nil, err
	}
	if len(b) != 8*want {
		return nil, fmt.Errorf("%w: a summary of %d values holds %d bytes", errDamaged, want, len(b))
	}
	v := make([]float64, want)
	for i := range v {
		v[i] = math.Float64frombits(binary.BigEndian.Uint64(b[8*i:]))
	}
	return v, nil
}

// kinds lists the region kind of every region of e.
func kindsOf(e *model.Experiment) []string {
	k := make([]string, len(e.Regions))
	for i := range e.Regions {
		k[i] = RegionKind(&e.Regions[i])
	}
	return k
}

// bounds are the largest values among the call paths and regions of one
// region kind ("" for all): what a search needs to know whether a trial
// can hold a hit.
type bounds struct {
	excl, incl, flatExcl, flatIncl float64
}

func noBounds() bounds {
	inf := math.Inf(-1)
	return bounds{inf, inf, inf, inf}
}

// maxOf keeps the larger value; NaN, which meets no constraint, is ignored.
func maxOf(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}

// boundsByKind computes the bounds of v for all call paths and per region
// kind; cnodeRegion gives each call path's region.
func boundsByKind(v vectors, cnodeRegion []int, kinds []string) map[string]bounds {
	out := map[string]bounds{"": noBounds()}
	get := func(k string) bounds {
		b, ok := out[k]
		if !ok {
			b = noBounds()
		}
		return b
	}
	for c, g := range cnodeRegion {
		for _, k := range []string{"", kinds[g]} {
			b := get(k)
			b.excl, b.incl = maxOf(b.excl, v.excl[c]), maxOf(b.incl, v.incl[c])
			out[k] = b
		}
	}
	for g := range kinds {
		if g >= len(v.regExcl) {
			break
		}
		for _, k := range []string{"", kinds[g]} {
			b := get(k)
			b.flatExcl, b.flatIncl = maxOf(b.flatExcl, v.regExcl[g]), maxOf(b.flatIncl, v.regIncl[g])
			out[k] = b
		}
	}
	return out
}

// share returns max/total where shares exist (a positive total), else nil.
func share(max, total float64) any {
	if !(total > 0) || math.IsInf(max, -1) || math.IsNaN(max) {
		return nil
	}
	return max / total
}

// insertSummary writes metric m's summary vectors and bounds. A metric
// is stored with a negative index for a repository's derived metric.
func (r *Repo) insertSummary(ctx context.Context, tx *sql.Tx, trial int64, m int, v vectors, name string, cnodeRegion []int, kinds []string) error {
	if _, err := tx.ExecContext(ctx, r.d.q(`INSERT INTO summary (trial, metric, excl, incl, flat_excl, flat_incl) VALUES (?, ?, ?, ?, ?, ?)`),
		trial, m, encodeVector(v.excl), encodeVector(v.incl), encodeVector(v.regExcl), encodeVector(v.regIncl)); err != nil {
		return err
	}
	if err := insertHot(ctx, tx, r.d, trial, m, hotOf(v.excl, definedOrZero(v.total))); err != nil {
		return err
	}
	for k, b := range boundsByKind(v, cnodeRegion, kinds) {
		if _, err := tx.ExecContext(ctx, r.d.q(`INSERT INTO bound (trial, metric, kind, name_hash, excl_max, excl_share, incl_max, incl_share,
			flat_excl_max, flat_excl_share, flat_incl_max, flat_incl_share) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			trial, m, r.d.text(k), textHash(name), b.excl, share(b.excl, v.total), b.incl, share(b.incl, v.total),
			b.flatExcl, share(b.flatExcl, v.total), b.flatIncl, share(b.flatIncl, v.total)); err != nil {
			return err
		}
	}
	return nil
}

// tree is what a search needs of a trial's definitions: the call tree,
// regions with names and kinds. It is stored compactly with the trial so
// that a search reads one row per trial that holds a hit.
type tree struct {
	parent, region, id []int // per call path
	name, kind         []string
}

// encodeTree returns the stored form of e's tree, sealed.
func encodeTree(e *model.Experiment) []byte {
	var en encoder
	en.uint(1) // format version
	en.uint(uint64(len(e.Cnodes)))
	for i := range e.Cnodes {
		c := &e.Cnodes[i]
		en.uint(uint64(c.Parent + 1))
		en.uint(uint64(c.Region))
		en.int(int64(c.ID))
	}
	kinds := kindsOf(e)
	index := map[string]int{}
	var names []string
	for _, k := range kinds {
		if _, ok := index[k]; !ok {
			index[k] = len(names)
			names = append(names, k)
		}
	}
	en.uint(uint64(len(names)))
	for _, k := range names {
		en.str(k)
	}
	en.uint(uint64(len(e.Regions)))
	for i := range e.Regions {
		en.uint(uint64(index[kinds[i]]))
		en.str(e.Regions[i].Name)
	}
	return seal(en.b)
}

// decodeTree reads what encodeTree wrote. A search decodes the trees of
// every trial that holds a hit, so this makes few allocations: one for
// the call paths' numbers, one for all region names.
func decodeTree(b []byte) (*tree, error) {
	b, err := unseal(b)
	if err != nil {
		return nil, err
	}
	d := &decoder{b: b}
	if d.uint() != 1 {
		return nil, errCorrupt
	}
	nc := d.count(3)
	if d.err != nil {
		return nil, d.err
	}
	ints := make([]int, 3*nc)
	t := &tree{parent: ints[:nc:nc], region: ints[nc : 2*nc : 2*nc], id: ints[2*nc:]}
	p := d.b
	for i := 0; i < nc; i++ {
		u, n := uvarint(p)
		if n <= 0 {
			return nil, errCorrupt
		}
		g, m := uvarint(p[n:])
		if m <= 0 {
			return nil, errCorrupt
		}
		n += m
		z, m := uvarint(p[n:])
		if m <= 0 || u > uint64(nc) || g > math.MaxInt32 {
			return nil, errCorrupt
		}
		p = p[n+m:]
		t.parent[i], t.region[i], t.id[i] = int(u)-1, int(g), int(int64(z>>1)^-int64(z&1))
	}
	d.b = p
	names := make([]string, d.count(1))
	for i := range names {
		names[i] = d.str()
	}
	nr := d.count(2)
	if d.err != nil {
		return nil, d.err
	}
	// The region names are substrings of one copy of the rest.
	rest := string(d.b)
	at := 0
	t.name, t.kind = make([]string, nr), make([]string, nr)
	for i := 0; i < nr; i++ {
		k, n := uvarint(d.b[at:])
		if n <= 0 || k >= uint64(len(names)) {
			return nil, errCorrupt
		}
		at += n
		l, n := uvarint(d.b[at:])
		if n <= 0 || l > uint64(len(d.b)-at-n) {
			return nil, errCorrupt
		}
		at += n
		t.kind[i], t.name[i] = names[k], rest[at:at+int(l)]
		at += int(l)
	}
	for i := range t.parent {
		if t.region[i] >= nr {
			return nil, errCorrupt
		}
	}
	return t, nil
}

// uvarint is binary.Uvarint, quicker for the one-byte numbers that most
// stored numbers are.
func uvarint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return binary.Uvarint(b)
}

// path returns call path c's region names joined by "/".
func (t *tree) path(c int) string {
	var parts []string
	for ; c >= 0 && len(parts) <= len(t.parent); c = t.parent[c] {
		parts = append(parts, t.name[t.region[c]])
	}
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	for i := len(parts) - 1; i >= 0; i-- {
		b = append(b, parts[i]...)
		if i > 0 {
			b = append(b, '/')
		}
	}
	return string(b)
}

// cnodeRegions lists the region of every call path of e.
func cnodeRegions(e *model.Experiment) []int {
	g := make([]int, len(e.Cnodes))
	for c := range e.Cnodes {
		g[c] = e.Cnodes[c].Region
	}
	return g
}
