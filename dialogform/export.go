package dialogform

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cubeview/document"
	"cubeview/form"
)

// ExportForm asks where to export what (a title: "the call tree as
// CSV"), suggesting a file name in folder; exts are the extensions
// accepted (".csv", or ".png" and ".svg"); export gets the path.
func ExportForm(what, name, folder string, exts []string, chooseFolder func(then func(dir string)), export func(path string)) *form.Form {
	path := &form.Field{Kind: form.TextField, Text: filepath.Join(folder, name), Width: 720, Button: "Folder…",
		Validate: func(text string) error { return checkExportPath(strings.TrimSpace(text), exts) }}
	f := &form.Form{Title: "Export " + what, Confirm: "Export", Focus: path,
		Fields: []*form.Field{path, {Kind: form.NoteField, Text: "The file's extension picks the format: " + strings.Join(exts, ", ") + ". An existing file is replaced.", Wrap: true}}}
	path.Action = func() {
		chooseFolder(func(dir string) {
			f.Update(func() { _ = f.Set(path, filepath.Join(dir, filepath.Base(path.Text))) })
		})
	}
	f.Submit = func() error {
		p := strings.TrimSpace(path.Text)
		if err := checkExportPath(p, exts); err != nil {
			return err
		}
		export(p)
		return nil
	}
	return f
}

// checkExportPath reports what keeps path from taking an export.
func checkExportPath(path string, exts []string) error {
	if path == "" {
		return fmt.Errorf("give a file name ending in %s", strings.Join(exts, " or "))
	}
	ext := strings.ToLower(filepath.Ext(path))
	ok := false
	for _, x := range exts {
		ok = ok || ext == x
	}
	if !ok {
		return fmt.Errorf("%s: the name must end in %s", filepath.Base(path), strings.Join(exts, " or "))
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: no such folder", filepath.Dir(path))
	}
	return nil
}

// ExportName suggests a file name for an export of what from the
// experiment shown: "profile-call-tree.csv".
func ExportName(doc *document.Doc, what, ext string) string {
	base := "cubeview"
	if doc != nil && doc.Name != "" {
		base = doc.Name
	}
	base = strings.TrimSuffix(base, filepath.Ext(base))
	clean := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		return strings.Map(func(r rune) rune {
			if r == ' ' || r == '/' || r == '\\' || r == ':' {
				return '-'
			}
			return r
		}, s)
	}
	return clean(base) + "-" + clean(what) + ext
}
