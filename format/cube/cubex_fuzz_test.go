package cube

import (
	"bytes"
	"os"
	"path/filepath"
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
	dir := filepath.Join("..", "..", "..", "shared", "data", "cube4")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.cubex"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if seed := essentialMembers(data); len(seed) <= maxFuzzSeed {
			f.Add(seed)
		}
	}
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

// fuzzSeeds returns small generated .cubex files in every storage variant.
func fuzzSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	e := synth.Generate(synth.Config{Cnodes: 6, Locations: 2, Metrics: 5, MinMax: true, Seed: 11, Density: 0.7})
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
	return seeds
}

// maxFuzzSeed keeps seeds small: the fuzzing engine minimises every new
// interesting input, which takes long for inputs of hundreds of kilobytes.
const maxFuzzSeed = 160 << 10

// essentialMembers returns the tar archive data with only the members the
// reader uses (anchor.xml, .index, .data), each kept byte for byte with
// its original header, so quirks such as wrong checksums survive.
func essentialMembers(data []byte) []byte {
	members, err := readTarIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return data
	}
	var kept []tarMember
	for name, m := range members {
		if name == anchorName || strings.HasSuffix(name, ".index") || strings.HasSuffix(name, ".data") {
			kept = append(kept, m)
		}
	}
	slices.SortFunc(kept, func(a, b tarMember) int { return int(a.offset - b.offset) })
	var out []byte
	for _, m := range kept {
		start := m.offset - tarBlock // the member's own header (no extended headers in these files)
		end := m.offset + (m.size+tarBlock-1)/tarBlock*tarBlock
		if start < 0 || end > int64(len(data)) {
			return data
		}
		out = append(out, data[start:end]...)
	}
	return append(out, make([]byte, 2*tarBlock)...)
}
