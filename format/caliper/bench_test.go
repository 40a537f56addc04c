package caliper

import (
	"os"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// BenchmarkOpenCPI imports the cpi profile (144 nodes, 108 rows).
func BenchmarkOpenCPI(b *testing.B) {
	path := testkit.Data(b, "caliper", "cpi-json", "cpi-callpath-profile.json")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
