package cube

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
)

// TestCubexAnchorBudget: a gzip-compressed anchor.xml member that inflates
// beyond the decompression budget of its size (here lowered to 4 MB; 16
// MB of white space) is refused with the budget error naming the file and
// the member, as every compressed input is.
func TestCubexAnchorBudget(t *testing.T) {
	old := importer.Budget
	importer.Budget = func(int64) int64 { return 4 << 20 }
	defer func() { importer.Budget = old }()
	head, tail := hostileDoc()
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write([]byte(head))
	zw.Write(bytes.Repeat([]byte{' '}, 16<<20))
	zw.Write([]byte(tail))
	zw.Close()
	var archive bytes.Buffer
	tw := tar.NewWriter(&archive)
	if err := tw.WriteHeader(&tar.Header{Name: "anchor.xml", Mode: 0o644, Size: int64(z.Len())}); err != nil {
		t.Fatal(err)
	}
	tw.Write(z.Bytes())
	tw.Close()
	path := filepath.Join(t.TempDir(), "bomb.cubex")
	if err := os.WriteFile(path, archive.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, importer.Options{})
	var be *importer.BudgetError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "bomb.cubex") || !strings.Contains(err.Error(), "anchor.xml") {
		t.Fatalf("error %v, want the decompression budget's, naming bomb.cubex and anchor.xml", err)
	}
}
