package dialogform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/model"
)

func TestDefaultSavePath(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "profile.cubex")
	if err := os.WriteFile(own, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	doc := &document.Doc{Exp: handMade(), Name: "profile.cubex", Path: own}
	// Beside the input, never the input itself.
	if got, want := defaultSavePath(doc, "/elsewhere"), filepath.Join(dir, "profile-copy.cubex"); got != want {
		t.Errorf("proposed %s, want %s", got, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "profile-copy.cubex"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := defaultSavePath(doc, "/elsewhere"), filepath.Join(dir, "profile-copy2.cubex"); got != want {
		t.Errorf("proposed %s, want %s", got, want)
	}
	// A derived experiment: "result" beside its first operand.
	diff := &document.Doc{Exp: withProvenance(), Name: "before − after", Expression: "before − after"}
	if got, want := defaultSavePath(diff, dir), "/runs/result.cubex"; got != want {
		t.Errorf("derived: proposed %s, want %s", got, want)
	}
	// Neither file nor operands: in the folder given.
	scratch := &document.Doc{Exp: handMade(), Name: "scratch"}
	if got, want := defaultSavePath(scratch, dir), filepath.Join(dir, "scratch.cubex"); got != want {
		t.Errorf("no file: proposed %s, want %s", got, want)
	}
}

func TestCheckSavePath(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ path, err string }{
		{filepath.Join(dir, "x.cubex"), ""},
		{filepath.Join(dir, "x.cube.gz"), ""},
		{"", "no file name"},
		{filepath.Join(dir, "x.txt"), "unknown output format; the name must end in .cubex"},
		{filepath.Join(dir, "missing", "x.cubex"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
	} {
		err := CheckSavePath(tt.path)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("CheckSavePath(%q) = %v, want %q", tt.path, err, tt.err)
		}
	}
	sub := filepath.Join(dir, "sub.cubex")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckSavePath(sub); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder: %v", err)
	}
}

func TestSaveQuestion(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "profile.cubex")
	other := filepath.Join(dir, "other.cubex")
	for _, p := range []string{own, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.cubex")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	doc := &document.Doc{Exp: handMade(), Name: "profile.cubex", Path: own}
	for _, tt := range []struct {
		path, title, yes string
		text             []string
	}{
		{own, "Replace an input?", "Replace the input", []string{own + " is the file this window's experiment was read from.", "cannot be read from it again", "Replace it with profile.cubex?"}},
		{link, "Replace an input?", "Replace the input", []string{link + " is the file this window's experiment was read from (" + own + ")."}},
		{other, "Replace the file?", "Replace", []string{other + " exists. Replace it with profile.cubex?"}},
		{filepath.Join(dir, "new.cubex"), "", "", nil},
	} {
		title, text, yes := SaveQuestion(doc, tt.path)
		if title != tt.title || yes != tt.yes {
			t.Errorf("%s: %q, %q; want %q, %q", tt.path, title, yes, tt.title, tt.yes)
		}
		for _, s := range tt.text {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the question %q does not say %q", tt.path, text, s)
			}
		}
	}
	// An operand of a derived experiment.
	e := handMade()
	e.Attrs = append(e.Attrs,
		model.Attr{Key: algebra.AttrExpression, Value: "diff(" + own + ", " + other + ")"},
		model.Attr{Key: algebra.AttrOperand + "0", Value: "path=" + own},
		model.Attr{Key: algebra.AttrOperand + "1", Value: "path=" + other})
	diff := &document.Doc{Exp: e, Name: "profile − other"}
	if _, text, _ := SaveQuestion(diff, other); !strings.Contains(text, other+" is an operand other of this window's experiment.") {
		t.Errorf("operand: %q", text)
	}
}
