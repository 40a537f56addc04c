package hpctoolkit

import (
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// BenchmarkOpenXML imports the cpi database (experiment.xml and four
// metric-db files).
func BenchmarkOpenXML(b *testing.B) {
	dir := testkit.Data(b, "hpctoolkit", "cpi-database-v2")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(dir, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenSparse imports the vectorAdd database (meta.db and
// profile.db: 656 contexts, 54 metrics, 2 threads).
func BenchmarkOpenSparse(b *testing.B) {
	dir := testkit.Data(b, "hpctoolkit", "vectorAdd-metadb")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(dir, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
