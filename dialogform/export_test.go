package dialogform

import (
	"cubeview/view"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestExportForm accepts a path in an existing folder with an offered
// extension only.
func TestExportForm(t *testing.T) {
	dir := t.TempDir()
	var got string
	f := ExportForm("the chart", "x.png", dir, []string{".png", ".svg"}, nil, func(p string) { got = p })
	for _, tt := range []struct {
		path string
		ok   bool
	}{
		{filepath.Join(dir, "a.svg"), true},
		{filepath.Join(dir, "a.PNG"), true},
		{filepath.Join(dir, "a.csv"), false},
		{filepath.Join(dir, "nowhere", "a.png"), false},
		{"", false},
	} {
		got = ""
		if err := f.Set(f.Fields[0], tt.path); err != nil {
			t.Fatal(err)
		}
		err := f.Submit()
		exported := got != "" && got == tt.path
		if (err == nil) != tt.ok || exported != tt.ok {
			t.Errorf("%q: error %v, exported to %q", tt.path, err, got)
		}
	}
	if err := view.WriteExport(filepath.Join(dir, "out.csv"), func(w io.Writer) error { _, err := w.Write([]byte("a,b\n")); return err }); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "out.csv")); err != nil || string(data) != "a,b\n" {
		t.Errorf("written %q, %v", data, err)
	}
}
