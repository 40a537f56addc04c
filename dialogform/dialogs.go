package dialogform

import (
	"path/filepath"
	"strings"

	"cubeview/document"
	"cubeview/form"
	"cubeview/format"
	"cubeview/model"
)

// ReferenceForm is View › Choose external reference… of doc: the
// reference of External percent among the other open experiments (ref
// is the one in use, nil for none) and whether the call pane switches to
// External percent (offered on unless a pane shows it already). Apply
// hands apply the reference chosen (nil for none) and whether to switch.
// It returns nil when no other experiment is open.
func ReferenceForm(doc *document.Doc, open []*document.Doc, ref *model.Experiment, shown bool, apply func(ref *document.Doc, switchPane bool)) *form.Form {
	var others []*document.Doc
	for _, d := range open {
		if d != doc {
			others = append(others, d)
		}
	}
	if len(others) == 0 {
		return nil
	}
	labels := document.Labels(others)
	choice := &form.Field{Kind: form.ChoiceField, Label: "Reference", Options: append([]string{"None"}, labels...), Text: "None"}
	for i, d := range others {
		if d.Exp == ref {
			choice.Text = labels[i]
		}
	}
	show := &form.Field{Kind: form.CheckField, Label: "Show the call tree in External percent", On: !shown}
	text := &form.Field{Kind: form.NoteField, Wrap: true, Plain: true, Width: 620,
		Text: "External percent shows each value in percent of the same metric's total in the reference experiment — " +
			"for a difference, the old run's total shows the effect of a change relative to where it started."}
	f := &form.Form{Title: "External reference of " + doc.Name, Confirm: "Apply", Fields: []*form.Field{text, choice, show}}
	f.Submit = func() error {
		var chosen *document.Doc
		if i := choice.Index(); i > 0 {
			chosen = others[i-1]
		}
		apply(chosen, chosen != nil && show.On)
		return nil
	}
	return f
}

// SaveForm is File › Save as… of doc: the path to write, proposed by
// defaultSavePath (folder is where a document without a file goes), with
// a button that picks its folder through chooseFolder. Save hands the
// path to save, which asks before replacing a file (SaveQuestion).
func SaveForm(doc *document.Doc, folder string, chooseFolder func(then func(dir string)), save func(path string)) *form.Form {
	path := &form.Field{Kind: form.TextField, Text: defaultSavePath(doc, folder), Width: 720, Button: "Folder…"}
	f := &form.Form{Title: "Save " + doc.Name + " as", Confirm: "Save", Focus: path,
		Fields: []*form.Field{path, {Kind: form.NoteField, Text: saveHelp(), Wrap: true}}}
	path.Action = func() {
		chooseFolder(func(dir string) {
			f.Update(func() { _ = f.Set(path, filepath.Join(dir, filepath.Base(path.Text))) })
		})
	}
	f.Submit = func() error {
		save(path.Text)
		return nil
	}
	return f
}

// OpenForm is File › Open…: a path typed or pasted (relative to the
// current directory, ~ for the home folder), starting in folder start,
// with a Browse… button. A path that is neither a file nor a folder is
// the field's problem (until the path changes); a file or an experiment
// folder is handed to open, made absolute; another folder is browsed.
// browse shows the file picker in a folder (see browseFolder) and hands
// the file picked to picked, which opens it and closes the dialog.
func OpenForm(start string, open func(path string), browse func(dir string, picked func(path string))) *form.Form {
	path := &form.Field{Kind: form.TextField, Text: start + string(filepath.Separator), Width: 720, Button: "Browse…",
		Placeholder: "path of an experiment file or folder (" + strings.Join(format.Tools(), ", ") + ")",
		Validate: func(text string) error {
			_, err := checkOpenPath(expandPath(text))
			return err
		}}
	f := &form.Form{Title: "Open experiment", Confirm: "Open", Fields: []*form.Field{path}, Focus: path}
	f.Changed = func(x *form.Field) { x.Problem = "" } // shown once Open is pressed
	picked := func(p string) {
		_ = f.Set(path, p)
		f.Done()
		open(expandPath(p))
	}
	path.Action = func() { browse(browseFolder(expandPath(path.Text), start), picked) }
	f.Submit = func() error {
		p := expandPath(path.Text)
		if folder, _ := checkOpenPath(p); folder {
			browse(p, picked)
			return nil
		}
		open(p)
		return nil
	}
	return f
}
