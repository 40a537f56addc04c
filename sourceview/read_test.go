package sourceview_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/sourceview"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	elf := append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 64)...)
	tests := []struct {
		name    string
		path    string
		max     int64
		want    string
		wantErr error
		errText string // must appear in the error
	}{
		{"plain", write("a.c", []byte("int a;\nint b;\n")), 0, "int a;\nint b;\n", nil, ""},
		{"CRLF", write("crlf.c", []byte("int a;\r\nint b;\r\n")), 0, "int a;\nint b;\n", nil, ""},
		{"old Mac line ends", write("cr.c", []byte("int a;\rint b;\r")), 0, "int a;\nint b;\n", nil, ""},
		{"byte-order mark", write("bom.c", []byte("\xef\xbb\xbfint a;\n")), 0, "int a;\n", nil, ""},
		{"UTF-8 comment", write("utf8.f90", []byte("! Größe\n")), 0, "! Größe\n", nil, ""},
		{"binary", write("solver.o", elf), 0, "", sourceview.ErrBinary, "NUL byte"},
		{"Latin-1", write("latin1.f", []byte("C     first line\nC     Gr\xf6\xdfe\n")), 0, "", sourceview.ErrNotUTF8, "line 2"},
		{"too large", write("big.c", bytes.Repeat([]byte("x\n"), 100)), 50, "", sourceview.ErrTooLarge, "limit 50"},
		{"directory", dir, 0, "", sourceview.ErrNotFile, ""},
		{"missing", filepath.Join(dir, "nope.c"), 0, "", os.ErrNotExist, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sourceview.Read(tt.path, tt.max)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Read(%s) error = %v, want %v", tt.path, err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.path) || !strings.Contains(err.Error(), tt.errText) {
					t.Errorf("error %q does not name the file %q and say %q", err, tt.path, tt.errText)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read(%s): %v", tt.path, err)
			}
			if got != tt.want {
				t.Errorf("Read(%s) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}
