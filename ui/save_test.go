package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveAsAsksBeforeReplacingAnInput: Save as… onto the file the
// experiment was read from (also through a link) asks first and leaves the
// file as it was until confirmed; another existing file is confirmed too,
// a new one written at once.
func TestSaveAsAsksBeforeReplacingAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "profile.cubex")
	orig, err := os.ReadFile(dataFile(t, "cube4/cpi/profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.cubex")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.cube")
	if err := os.WriteFile(other, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	w := openWindow(t, a, in)

	type asked struct {
		title, question string
		yes             func()
	}
	submit := func(path string) (*saveForm, []asked) {
		f := w.newSaveForm()
		var got []asked
		f.confirm = func(title, question string, yes func()) { got = append(got, asked{title, question, yes}) }
		f.entry.SetText(path)
		f.Submit()
		return f, got
	}
	for _, p := range []string{in, link} {
		_, got := submit(p)
		if len(got) != 1 || got[0].title != "Replace an input?" || !strings.Contains(got[0].question, p) {
			t.Fatalf("save to %s: asked %+v, want whether to replace the input", p, got)
		}
		if now, _ := os.ReadFile(in); !bytes.Equal(now, orig) {
			t.Fatalf("save to %s: the input changed before the answer", p)
		}
	}
	_, got := submit(other)
	if len(got) != 1 || got[0].title != "Replace?" {
		t.Fatalf("save to an existing file: asked %+v", got)
	}
	if now, _ := os.ReadFile(other); string(now) != "keep" {
		t.Fatal("the existing file changed before the answer")
	}
	got[0].yes()
	if b := openWindow(t, a, other); len(b.Document().Exp.Cnodes) != len(w.Document().Exp.Cnodes) {
		t.Error("the confirmed save did not write the experiment")
	}

	fresh := filepath.Join(dir, "new.cube.gz")
	if _, got := submit(fresh); len(got) != 0 {
		t.Errorf("save to a new file asked %+v", got)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("save to a new file: %v", err)
	}

	f, got := submit(dir)
	if len(got) != 0 || !f.problem.Visible() || !strings.Contains(f.problem.Text, "folder") {
		t.Errorf("save to a folder: asked %+v, problem %q", got, f.problem.Text)
	}
}

func TestDocumentInputs(t *testing.T) {
	a, b := &Document{Path: "/x/a.cubex"}, &Document{Path: "/x/b.cubex"}
	diff := &Document{Name: "a − b", sources: []*Document{a, b}}
	mean := &Document{Name: "mean", sources: []*Document{diff, a}}
	if got := strings.Join(mean.inputs(), " "); got != "/x/a.cubex /x/b.cubex /x/a.cubex" {
		t.Errorf("inputs = %s", got)
	}
}
