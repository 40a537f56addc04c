package cube

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docDigest is everything a decoded document says, as text.
func docDigest(t testing.TB, d *xmlDoc) string {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "version %s severity %v columns %v\n", d.Version, d.HasSeverity, d.LocationColumn)
	if err := d.Exp.Dump(&sb); err != nil {
		t.Fatal(err)
	}
	for m := range d.Exp.Metrics {
		fmt.Fprintf(&sb, "metric %d: %+v\n", m, d.Exp.Metrics[m])
	}
	return sb.String()
}

// sameAsDOM decodes data with the scanner and with the element-tree
// reference reader it replaced, and reports how they differ. Where the
// reference reads a document, the scanner must read it identically, and
// it must reject what the reference rejects, but for documents followed by
// other bytes, which it ignores.
func sameAsDOM(t testing.TB, data []byte) {
	t.Helper()
	ref, refErr := domDecodeXML(bytes.NewReader(data), "f")
	got, err := decodeXML(bytes.NewReader(data), "f")
	switch {
	case bareValueKey.Match(data) && (refErr == nil) != (err == nil):
		// See bareValueKey.
	case refErr == nil && err != nil:
		t.Fatalf("the reference reads the document, the scanner fails: %v", err)
	case refErr == nil:
		if a, b := docDigest(t, ref), docDigest(t, got); a != b && !bareValueKey.Match(data) {
			t.Fatalf("the scanner reads the document differently:\n%s", firstLineDiff(a, b))
		}
		if !maps.Equal(ref.LocationColumn, got.LocationColumn) {
			t.Fatalf("location columns %v, reference %v", got.LocationColumn, ref.LocationColumn)
		}
	case err == nil && !got.Trailing && !bareValueKey.Match(data):
		t.Fatalf("the scanner reads a document the reference rejects (%v)", refErr)
	}
}

// bareValueKey matches where the reference's quoting of CubeLib's bare
// attribute values applied: it quoted them anywhere, also in text, so a
// document it rejects for some other reason may read after the quoting
// changed the text, and vice versa.
var bareValueKey = regexp.MustCompile(`(rowwise|cubeplaggrtype|locationwise)=[a-zA-Z]`)

func firstLineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n reference %s\n scanner   %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines, reference %d", len(bl), len(al))
}

// TestScannerMatchesDOM reads every CUBE XML document of the test data and
// the shared data (whole .cube files and the anchors of .cubex archives)
// with both readers.
func TestScannerMatchesDOM(t *testing.T) {
	var files []string
	local, _ := filepath.Glob(filepath.Join("testdata", "*.cube"))
	files = append(files, local...)
	shared := filepath.Join("..", "..", "..", "shared", "data")
	filepath.WalkDir(shared, func(p string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(p, ".cube") || strings.HasSuffix(p, ".cubex")) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) <= len(local) {
		t.Logf("shared data not available at %s: only the package's test data", shared)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var data []byte
			if strings.HasSuffix(f, ".cubex") {
				if strings.Contains(f, "checksum_bug") {
					t.Skip("archive/tar rejects its header checksums; the .cubex tests read its anchor")
				}
				data = xmlAnchorOf(t, f)
			} else {
				var err error
				if data, err = os.ReadFile(f); err != nil {
					t.Fatal(err)
				}
			}
			sameAsDOM(t, data)
		})
	}
}

// FuzzScannerMatchesDOM: for any input, the scanner reads what the
// element-tree reference reads, and identically.
func FuzzScannerMatchesDOM(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.cube"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">1 2</row></matrix>`)))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE cube><cube version="4.4"><!-- c --><metrics title="M"/><program/><system><![CDATA[x]]></system></cube>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsDOM(t, data)
	})
}

// FuzzScanNumber: where scanNumber reads a number, ParseFloat reads the
// same bits.
func FuzzScanNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "0.000181790997885", "-1.5e-07", "9007199254740993", "1e22", "1e23",
		"123456789012345678", ".5", "5.", "+3", "1e", "0x1p3", "inf", "1_0", "4.9e-324", "00000000000000000000001.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, end, ok := scanNumber([]byte(s), 0)
		if !ok || end != len(s) {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("scanNumber(%q) = %v (%#x), ParseFloat: %v (%#x), %v", s, v, math.Float64bits(v), want, math.Float64bits(want), err)
		}
	})
}

// BenchmarkReadXMLReference compares the scanner with the element-tree
// reader it replaced, on the same inputs in one run.
func BenchmarkReadXMLReference(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "cube3", "cubew-test3.cube"))
	if err != nil {
		b.Skipf("shared data: %v", err)
	}
	for _, r := range []struct {
		name string
		read func(io.Reader, string) (*xmlDoc, error)
	}{{"scanner", decodeXML}, {"element-tree", domDecodeXML}} {
		b.Run(r.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				if _, err := r.read(bytes.NewReader(data), "cubew-test3.cube"); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b, int64(len(data)))
		})
	}
}
