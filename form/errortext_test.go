package form

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestErrorText(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "tau run")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ msg, want string }{
		{"trunc.cubex: truncated tar archive: header at byte 512", "File trunc.cubex: truncated tar archive: header at byte 512"},
		{"runs/Before.cubex: no such file or directory", "File runs/Before.cubex: no such file or directory"},
		{folder + ": no profile files", "Folder " + folder + ": no profile files"},
		{"repo:12: no trial 12", "Repository trial repo:12: no trial 12"},
		{"cannot create a file in /nonexistent: no such file or directory", "Cannot create a file in /nonexistent: no such file or directory"},
		{"line 2 of the metric mappings: metric mapping \"x\": want FROM=TO", "Line 2 of the metric mappings: metric mapping \"x\": want FROM=TO"},
		{"Difference: nothing to compare", "Difference: nothing to compare"},
		{"before − after: no metric in common", "Computing before − after: no metric in common"},
		{"merge(before, after): out of memory", "Computing merge(before, after): out of memory"},
		{"ünicode first", "Ünicode first"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ErrorText(errors.New(tt.msg)); got != tt.want {
			t.Errorf("ErrorText(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}
