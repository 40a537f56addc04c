package format

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
)

// hostileDir holds the full-size hostile files of BenchmarkHostile between
// runs: several GB of content, about 7 MB on disk.
var hostileDir = filepath.Join(os.TempDir(), "cubeview-hostile")

// hostileFile returns the path of a hostile file, building it with build
// (through a temporary name) unless an earlier run did.
func hostileFile(b *testing.B, name string, build func(b *testing.B, path string)) string {
	b.Helper()
	path := filepath.Join(hostileDir, name)
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(hostileDir, 0o755); err != nil {
		b.Fatal(err)
	}
	tmp := filepath.Join(hostileDir, "building-"+name)
	build(b, tmp)
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkHostile reads the hostile files of the stress test at their
// full sizes as "cubeview info" does (every metric loaded) and reports
// the peak heap while reading (peak-MB); each must end with the expected
// error or read correctly. Not part of make test (minutes, GBs inflated):
//
//	go test ./format -run '^$' -bench Hostile -benchtime 1x
func BenchmarkHostile(b *testing.B) {
	whitespace := func(b *testing.B, path string) {
		doc := smallCube(b)
		at := strings.Index(string(doc), "<metrics>")
		writeGzip(b, path, bytesOf(doc[:at]), repeat(' ', 3<<30), bytesOf(doc[at:]))
	}
	unusedMember := func(b *testing.B, path string) {
		e := synth.Generate(synth.Config{Cnodes: 30, Locations: 8, Metrics: 4, Seed: 3})
		junk := tarEntry{"remapping.spec", 3500 << 20, repeat(0, 3500<<20)}
		all := append([]tarEntry{junk}, cubexMembers(b, e)...)
		writeGzip(b, path, func(w io.Writer) error { return writeTar(w, all...) })
	}
	cases := []struct {
		name, file string
		build      func(b *testing.B, path string)
		budget     int64  // decompression budget; 0: the default
		err        string // expected error; "": reads
	}{
		{"cube.gz of 3 GiB white space", "whitespace.cube.gz", whitespace, 0, "decompresses to more than"},
		{"cube.gz of 3 GiB white space, no budget", "whitespace.cube.gz", whitespace, 1 << 40, ""},
		{"cube followed by 2 GiB of zero bytes", "trailing.cube", func(b *testing.B, path string) {
			if err := os.WriteFile(path, smallCube(b), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.Truncate(path, 2<<30+int64(len(smallCube(b)))); err != nil { // sparse
				b.Fatal(err)
			}
		}, 0, ""},
		{"gzip'd cubex with an unused 3.4 GiB member", "unused-member.cubex.gz", unusedMember, 0, "decompresses to more than"},
		{"gzip'd cubex with an unused 3.4 GiB member, no budget", "unused-member.cubex.gz", unusedMember, 1 << 40, ""},
		{"cubex of 64 ranks with location id 999999999", "sparse-location.cubex", func(b *testing.B, path string) {
			e := synth.Generate(synth.Config{Cnodes: 12, Locations: 64, Threads: 1, Nodes: 4, Metrics: 3, Seed: 5})
			src := cubexWithAnchor(b, e, func(a string) string {
				return strings.Replace(a, `<location Id="5">`, `<location Id="999999999">`, 1)
			})
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}, 0, "999999999"},
	}
	for _, c := range cases {
		b.Run(strings.ReplaceAll(c.name, " ", "_"), func(b *testing.B) {
			path := hostileFile(b, c.file, c.build)
			if c.budget > 0 {
				defer setBudget(c.budget)()
			}
			var peak uint64
			var err error
			for b.Loop() {
				p, _ := testkit.Peak(func() { _, err = readAll(path) })
				peak = max(peak, p)
			}
			switch {
			case c.err == "" && err != nil:
				b.Errorf("%s: %v", path, err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				b.Errorf("%s: error %v, want one with %q", path, err, c.err)
			}
			b.Logf("%s: %v", c.name, err)
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		})
	}
}
