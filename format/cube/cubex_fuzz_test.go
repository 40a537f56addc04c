package cube

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// FuzzReadCubex feeds arbitrary bytes to the .cubex reader and loads every
// metric of whatever opens: any input must give a value or an error, never
// a panic or a hang.
func FuzzReadCubex(f *testing.F) {
	// Small generated archives in every layout and quirk the reader
	// knows: the engine explores from them quickly, where real files of
	// a hundred kilobytes would leave it a few thousand executions.
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ReadCubex(bytes.NewReader(data), int64(len(data)), "fuzz.cubex")
		if err != nil {
			if e != nil {
				t.Fatal("experiment and error both returned")
			}
			return
		}
		if e.Validate() != nil {
			return
		}
		for m := range e.Metrics {
			b, err := e.Block(m)
			if err == nil && (b.NumCnodes() != len(e.Cnodes) || b.NumLocations() != len(e.Locations)) {
				t.Fatalf("metric %d: block %d×%d for %d×%d", m, b.NumCnodes(), b.NumLocations(), len(e.Cnodes), len(e.Locations))
			}
		}
	})
}

// fuzzSeeds returns small generated .cubex files in every storage
// variant, and with the quirks of real files: a gzip-compressed anchor,
// CubeWriter 4.8's tar checksums 32 too low, a .data member with a
// surplus row.
func fuzzSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	e := synth.Generate(synth.Config{Cnodes: 4, Locations: 2, Metrics: 4, MinMax: true, Seed: 11, Density: 0.7})
	sum := func(m int) bool { return e.Metrics[m].Aggregation == model.Sum }
	for _, opt := range []cubexWriteOptions{
		{},
		{dense: true},
		{compress: true, bigEndian: true},
		{inclusive: sum},
	} {
		var buf bytes.Buffer
		if err := writeCubex(&buf, e, opt); err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, buf.Bytes())
	}
	plain := seeds[0]
	members, err := readTarIndex(bytes.NewReader(plain), int64(len(plain)))
	if err != nil {
		tb.Fatal(err)
	}
	// Checksums 32 too low in every header.
	bug := slices.Clone(plain)
	for _, m := range members {
		h := (*[tarBlock]byte)(bug[m.offset-tarBlock : m.offset])
		copy(h[148:156], fmt.Sprintf("%06o\x00 ", tarChecksum(h)-32))
	}
	seeds = append(seeds, bug)
	// Rebuilt from the members: a gzip-compressed anchor, a surplus row.
	var files []tarFile
	for _, name := range slices.Sorted(maps.Keys(members)) {
		m := members[name]
		body := string(plain[m.offset : m.offset+m.size])
		files = append(files, tarFile{name, body})
	}
	gz, surplus := slices.Clone(files), slices.Clone(files)
	for i, f := range files {
		switch {
		case f.name == anchorName:
			var zb bytes.Buffer
			zw := gzip.NewWriter(&zb)
			zw.Write([]byte(f.body))
			zw.Close()
			gz[i].body = zb.String()
		case strings.HasSuffix(f.name, ".data") && strings.HasPrefix(f.body, dataMarker):
			surplus[i].body = f.body + strings.Repeat("\x00", 16)
		}
	}
	seeds = append(seeds, buildTar(tb, tar.FormatUSTAR, gz...), buildTar(tb, tar.FormatUSTAR, surplus...))
	return seeds
}

// TestFuzzSeedsOpen: every generated seed is a valid archive, so the
// fuzzer starts from inputs that reach the data.
func TestFuzzSeedsOpen(t *testing.T) {
	for i, seed := range fuzzSeeds(t) {
		e, err := ReadCubex(bytes.NewReader(seed), int64(len(seed)), "seed.cubex")
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		for m := range e.Metrics {
			if _, err := e.Block(m); err != nil {
				t.Fatalf("seed %d: %v", i, err)
			}
		}
	}
}
