package dialogform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStartFolderAndExpandPath(t *testing.T) {
	dir := t.TempDir()
	if got := StartFolder(dir); got != dir {
		t.Errorf("StartFolder(%s) = %s", dir, got)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, last := range []string{"", filepath.Join(dir, "gone")} {
		if got := StartFolder(last); got != wd {
			t.Errorf("StartFolder(%q) = %s, want the current directory %s", last, got, wd)
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ text, want string }{
		{"  ~/runs/a.cubex ", filepath.Join(home, "runs/a.cubex")},
		{"~", home},
		{"runs/a.cubex", filepath.Join(wd, "runs/a.cubex")},
		{"/abs/./a.cubex", "/abs/a.cubex"},
	} {
		if got := expandPath(tt.text); got != tt.want {
			t.Errorf("expandPath(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}

func TestCheckOpenPathAndBrowseFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.cubex")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if browse, err := checkOpenPath(file); browse || err != nil {
		t.Errorf("a file: browse %v, %v; want it opened", browse, err)
	}
	if browse, err := checkOpenPath(dir); !browse || err != nil {
		t.Errorf("a folder of files: browse %v, %v; want it browsed", browse, err)
	}
	missing := filepath.Join(dir, "missing.cubex")
	if _, err := checkOpenPath(missing); err == nil || err.Error() != missing+": no such file or folder" {
		t.Errorf("a missing file: %v", err)
	}
	for _, tt := range []struct{ path, want string }{
		{dir, dir},
		{file, dir},
		{missing, dir},
		{"/no/such/folder/x.cubex", "/start"},
	} {
		if got := browseFolder(tt.path, "/start"); got != tt.want {
			t.Errorf("browseFolder(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
	if !strings.HasPrefix(saveHelp(), "The ending chooses the format: .cubex") {
		t.Errorf("save help %q", saveHelp())
	}
}
