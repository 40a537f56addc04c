package cube

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
)

// BenchmarkReadXML measures decodeXML on real and generated CUBE 3 files.
func BenchmarkReadXML(b *testing.B) {
	inputs := []struct {
		name string
		data func(b *testing.B) []byte
	}{
		{"cubew-test3", xmlSharedBytes("cubew-test3.cube")},
		{"example3", xmlSharedBytes("example3.cube")},
		{"synth-1kx64x10", func(b *testing.B) []byte {
			e := synth.Generate(synth.Config{Cnodes: 1000, Locations: 64, Threads: 4, Nodes: 4, Metrics: 10, Seed: 1})
			var buf bytes.Buffer
			if err := encodeXML(&buf, e, false); err != nil {
				b.Fatal(err)
			}
			return buf.Bytes()
		}},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			data := in.data(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeXML(bytes.NewReader(data), in.name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func xmlSharedBytes(name string) func(b *testing.B) []byte {
	return func(b *testing.B) []byte {
		data, err := os.ReadFile(filepath.Join(testkit.Data(b, "cube3"), name))
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
}

// BenchmarkWriteXML measures encodeXML of a generated experiment as CUBE 3.
func BenchmarkWriteXML(b *testing.B) {
	e := synth.Generate(synth.Config{Cnodes: 1000, Locations: 64, Threads: 4, Nodes: 4, Metrics: 10, Seed: 1})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := encodeXML(&buf, e, false); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
}
