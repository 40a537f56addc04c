package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// readmeTable is the README's table of formats as the registry gives it.
func readmeTable() string {
	var b strings.Builder
	b.WriteString("| Format | What is opened |\n|---|---|\n")
	for _, f := range registry {
		b.WriteString("| " + f.Name + " | " + f.Files + " |\n")
	}
	return b.String()
}

const (
	tableStart = "<!-- formats: from the registry in format/importers.go; go test ./format -run TestREADMEFormats -update rewrites it -->\n"
	tableEnd   = "<!-- end of formats -->\n"
)

// TestREADMEFormats checks the README's table of formats against the
// registry; with -update it rewrites the table.
func TestREADMEFormats(t *testing.T) {
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start, end := strings.Index(text, tableStart), strings.Index(text, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("README.md has no table of formats between %q and %q", tableStart, tableEnd)
	}
	body := text[start+len(tableStart) : end]
	want := readmeTable()
	if body == want {
		return
	}
	if testkit.Updating() {
		if err := os.WriteFile(path, []byte(text[:start+len(tableStart)]+want+text[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of formats differs from the registry (run with -update to rewrite it):\n%s", testkit.Diff(want, body))
}

// TestRegistry checks what the registry's users rely on: unique names,
// a tool, a description and both functions for every format.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Formats() {
		if f.Name == "" || f.Tool == "" || f.Files == "" || f.Detect == nil || f.Read == nil {
			t.Errorf("incomplete format %+v", f)
		}
		if seen[f.Name] {
			t.Errorf("two formats named %q", f.Name)
		}
		seen[f.Name] = true
		if strings.Contains(f.Files, "|") || strings.Contains(f.Files, "\n") {
			t.Errorf("%s: Files %q breaks the README's table", f.Name, f.Files)
		}
		if c := f.Detect(nil, t.TempDir()); c != importer.No {
			t.Errorf("%s recognises an empty folder (%v)", f.Name, c)
		}
	}
	if tools := Tools(); len(tools) == 0 || tools[0] != "CUBE" {
		t.Errorf("Tools() = %v", tools)
	}
}

// TestDetectPrefersSurerReader: of two readers that recognise an input,
// the surer one reads it whatever the order, and a look-alike wins over
// a weak guess.
func TestDetectPrefersSurerReader(t *testing.T) {
	saved := registry
	defer func() { registry = saved }()
	read := func(string, importer.Options) (*model.Experiment, error) { return nil, nil }
	weak := importer.Format{Name: "weak", Tool: "w", Files: "w", Read: read,
		Detect: func([]byte, string) importer.Confidence { return importer.Weak }}
	sure := importer.Format{Name: "sure", Tool: "s", Files: "s", Read: read,
		Detect: func(head []byte, _ string) importer.Confidence {
			if strings.HasPrefix(string(head), "sure") {
				return importer.Likely
			}
			return importer.No
		}}
	registry = []importer.Format{weak, sure}
	if f, c := detect([]byte("sure thing"), "x"); f == nil || f.Name != "sure" || c != importer.Likely {
		t.Errorf("detect chose %v (%v), want the likely reader", f, c)
	}
	if f, c := detect([]byte("other"), "x"); f == nil || f.Name != "weak" || c != importer.Weak {
		t.Errorf("detect chose %v (%v), want the weak reader", f, c)
	}
	// A ZIP archive is a look-alike: the weak reader does not get it.
	path := filepath.Join(t.TempDir(), "a.zip")
	if err := os.WriteFile(path, []byte("PK\x03\x04 zipped"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "ZIP archive") {
		t.Errorf("Open of a ZIP archive: %v, want the look-alike's message", err)
	}
}
