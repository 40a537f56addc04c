package cube

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

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
		if data, err := os.ReadFile(path); err == nil && len(data) < 300<<10 {
			f.Add(data)
		}
	}
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		os.WriteFile(fmt.Sprintf("/tmp/hang/cur-%d", os.Getpid()), data, 0o644)
		t0 := time.Now()
		defer func() { os.WriteFile(fmt.Sprintf("/tmp/hang/dur-%d", os.Getpid()), []byte(time.Since(t0).String()), 0o644) }()
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
