package format

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"cubeview/format/cube"
	"cubeview/format/importer"
	"cubeview/internal/atomicfile"
	"cubeview/internal/printable"
	"cubeview/model"
)

// Open reads the experiment in the file or folder at path, recognising
// its format by content with the readers of the registry (Formats). The
// metric data of .cubex files are loaded lazily on first use. The
// experiment is validated. An error is an *Error naming the file and the
// problem; for input no reader recognises it wraps ErrUnknownFormat and
// says what the input looks like when that can be told. A name with a
// registered reference prefix (see RegisterReference) is read through
// its opener.
func Open(path string) (*model.Experiment, error) {
	return OpenWith(path, Options{})
}

// Options are the readers' options (importer.Options).
type Options = importer.Options

// OpenWith is Open with options for the reader.
func OpenWith(path string, opts Options) (*model.Experiment, error) {
	e, err := open(path, opts)
	if err != nil {
		return nil, pathError(path, err)
	}
	return e, nil
}

func open(path string, opts Options) (*model.Experiment, error) {
	if open, ok := referenceOpener(path); ok {
		e, err := open(path)
		if err != nil {
			return nil, err
		}
		return finish(path, e)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	var head []byte
	compressed := false
	if !st.IsDir() {
		if st.Size() == 0 {
			return nil, unknownFormat(path + ": empty file")
		}
		head, compressed, err = importer.Head(path, importer.HeadSize)
		if err != nil {
			return nil, fileError(path, err)
		}
	}
	f, conf := detect(head, path)
	if conf == importer.No || conf == importer.Weak && isLookalike(path, st.IsDir(), head) {
		return nil, notRead(path, st.IsDir(), compressed, head)
	}
	e, err := f.Read(path, opts)
	if err != nil {
		return nil, err
	}
	return finish(path, e)
}

// finish names the experiment after its file and validates it.
func finish(path string, e *model.Experiment) (*model.Experiment, error) {
	e.Source = path
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("%s: invalid experiment: %w", path, err)
	}
	return e, nil
}

// IsExperimentFolder reports whether a reader recognises the folder at
// path as an experiment (a TAU profile directory, an HPCToolkit
// database), as opposed to a folder that merely holds experiments.
func IsExperimentFolder(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return false
	}
	_, conf := detect(nil, path)
	return conf > importer.No
}

// notRead is the error for input no reader reads: what it looks like
// when that can be told.
func notRead(path string, dir, compressed bool, head []byte) error {
	switch {
	case dir:
		return unknownFormat(lookalikeMessage(path, dir, head, "is a directory, not a profile this program reads"))
	case compressed:
		return unknownFormat(lookalikeMessage(path, dir, head, "gzip-compressed, but not a CUBE file nor a profile of another tool this program reads"))
	}
	return unknownFormat(lookalikeMessage(path, dir, head, "not a CUBE file (neither CUBE XML, gzip-compressed CUBE XML nor a .cubex tar archive) nor a profile of another tool this program reads"))
}

// ErrUnknownFormat is wrapped by the error of Open for a file or folder
// that no reader recognises (as opposed to one a reader recognised but
// found broken), so that a caller going through a folder can pass over
// files that are not experiments.
var ErrUnknownFormat = errors.New("not a format this program reads")

// unknownFormat is an error that is ErrUnknownFormat, with its own message.
type unknownFormat string

func (e unknownFormat) Error() string        { return string(e) }
func (e unknownFormat) Is(target error) bool { return target == ErrUnknownFormat }

// fileError names path and the underlying problem of a file-system error.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return notExist{path, err}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// notExist says once that a file is missing ("a.cubex: no such file or
// folder", not "…: no such file: no such file or directory") and is
// still fs.ErrNotExist.
type notExist struct {
	path string
	err  error
}

func (e notExist) Error() string { return e.path + ": no such file or folder" }
func (e notExist) Unwrap() error { return e.err }

// Write writes e to path; the extension chooses the format: ".cubex" for
// CUBE 4, ".cube" for CUBE 3 XML, ".cube.gz" for compressed CUBE 3 XML.
// The file is written under a temporary name in the same directory and
// renamed when complete (package atomicfile), so a failed or interrupted
// write leaves no partial file and writing over the file e was read from
// is safe. An error is an *Error.
func Write(path string, e *model.Experiment) error {
	return pathError(path, write(path, e))
}

func write(path string, e *model.Experiment) error {
	lower := strings.ToLower(path)
	var write func(io.Writer) error
	switch {
	case strings.HasSuffix(lower, ".cubex"):
		write = func(w io.Writer) error { return cube.WriteCubex(w, e) }
	case strings.HasSuffix(lower, ".cube.gz"):
		write = func(w io.Writer) error {
			zw := gzip.NewWriter(w)
			if err := cube.WriteXML(zw, e); err != nil {
				return err
			}
			return zw.Close()
		}
	case strings.HasSuffix(lower, ".cube"):
		write = func(w io.Writer) error { return cube.WriteXML(w, e) }
	default:
		return fmt.Errorf("%s: unknown output format; the name must end in .cubex, .cube or .cube.gz", path)
	}
	if err := atomicfile.Write(path, write); err != nil {
		return fileError(path, err)
	}
	return nil
}

// Error is the error of Open and Write: what went wrong with the file at
// Path. Its message names the file once.
type Error struct {
	Path string
	Err  error
	// named is set when Err's message already names Path, as the messages
	// of this package's readers and writers do.
	named bool
}

// Error names the file and the problem; bytes of the file that are not
// printable text are escaped (package printable).
func (e *Error) Error() string {
	if e.named {
		return printable.String(e.Err.Error())
	}
	return printable.String(e.Path + ": " + e.Err.Error())
}

func (e *Error) Unwrap() error { return e.Err }

// pathError wraps err, if any, into an *Error for path.
func pathError(path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *Error
	if errors.As(err, &fe) && fe.Path == path {
		return err
	}
	return &Error{Path: path, Err: err, named: strings.Contains(err.Error(), path)}
}
