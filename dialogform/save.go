package dialogform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/format"
	"cubeview/internal/atomicfile"
)

// File › Save as… takes a typed path (with a folder chooser) rather than
// a file save dialog that truncates an existing file as soon as it is
// chosen — before the program can ask, and possibly the very file the
// experiment still reads its data from. Nothing is written before the
// user agrees to replace a file, and a file that is one of the window's
// inputs gets a warning of its own (the command line refuses such an
// output unless given --force).

// defaultSavePath proposes where Save as writes doc: its name with the
// .cubex ending, beside the file it was read from or its first operand
// (in folder when it has neither); never an existing file (so not the
// input): name-copy.cubex, name-copy2.cubex, ….
func defaultSavePath(doc *document.Doc, folder string) string {
	name := document.ShortName(doc.Name)
	if name == "" || strings.ContainsAny(name, " /") {
		name = "result" // an expression is not a file name
	}
	dir := folder
	from := doc.Path
	if from == "" {
		if files := algebra.OperandFiles(doc.Exp); len(files) > 0 {
			from = files[0]
		}
	}
	if from != "" {
		dir = filepath.Dir(filepath.Clean(from))
	}
	path := filepath.Join(dir, name+".cubex")
	for i := 1; i < 100; i++ {
		if _, err := os.Lstat(path); err != nil {
			break
		}
		suffix := "-copy"
		if i > 1 {
			suffix = fmt.Sprintf("-copy%d", i)
		}
		path = filepath.Join(dir, name+suffix+".cubex")
	}
	return path
}

// CheckSavePath refuses what cannot be written: no name, an unknown
// ending, a folder that does not exist, a folder as the target.
func CheckSavePath(path string) error {
	switch {
	case path == "":
		return errors.New("save as: no file name")
	case !format.CanWrite(path):
		return fmt.Errorf("%s: unknown output format; the name must end in %s", path, strings.Join(format.OutputExtensions, ", "))
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: the folder %s does not exist", path, filepath.Dir(path))
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder; give a file name", path)
	}
	return nil
}

// SaveQuestion returns what to ask before saving doc to path, a file
// CheckSavePath accepts: the title, the text and the confirming button's
// text; an empty title when nothing would be replaced. A file that is one
// of doc's inputs (also through another path or a link, or a file inside
// an input folder) gets a warning of its own.
func SaveQuestion(doc *document.Doc, path string) (title, text, yes string) {
	inputs, roles := docInputs(doc)
	if in, ok := atomicfile.SameFile(path, inputs); ok {
		role := ""
		for i, p := range inputs {
			if p == in {
				role = roles[i]
				break
			}
		}
		what := fmt.Sprintf("%s is %s", path, role)
		if filepath.Clean(in) != filepath.Clean(path) {
			what = fmt.Sprintf("%s is %s (%s)", path, role, in)
		}
		return "Replace an input?", what + ".\nReplacing it loses that data: the experiment cannot be read from it again.\nReplace it with " + doc.Name + "?", "Replace the input"
	}
	if _, err := os.Stat(path); err == nil {
		return "Replace the file?", path + " exists. Replace it with " + doc.Name + "?", "Replace"
	}
	return "", "", ""
}

// saveHelp says how Save as chooses the format.
func saveHelp() string {
	return "The ending chooses the format: " + strings.Join(format.OutputExtensions, ", ") +
		" (CUBE 4 archive, CUBE 3 XML, compressed CUBE 3 XML)."
}

// docInputs returns the files the window's experiment comes from, each with
// what it is to the experiment: the file (or folder) it was read from and
// the files of its operands, as its provenance records them.
func docInputs(d *document.Doc) (paths, roles []string) {
	if d.Path != "" {
		paths = append(paths, d.Path)
		roles = append(roles, "the file this window's experiment was read from")
	}
	for _, p := range algebra.OperandFiles(d.Exp) {
		paths = append(paths, p)
		roles = append(roles, "an operand "+document.ShortName(p)+" of this window's experiment")
	}
	return paths, roles
}
