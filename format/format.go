package format

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"cubeview/format/cube"
	"cubeview/internal/atomicfile"
	"cubeview/internal/printable"
	"cubeview/model"
)

// Open reads the experiment in the file at path, recognising its format by
// content (CUBE 2/3 XML, possibly gzip-compressed, or CUBE 4 .cubex). Metric
// data of .cubex files are loaded lazily on first use. The experiment is
// validated. An error is an *Error naming the file and the problem. A
// name with a registered reference prefix (see RegisterReference) is read
// through its opener.
func Open(path string) (*model.Experiment, error) {
	e, err := open(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	return e, nil
}

func open(path string) (*model.Experiment, error) {
	if open, ok := referenceOpener(path); ok {
		e, err := open(path)
		if err != nil {
			return nil, err
		}
		return finish(path, e)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fileError(path, err)
	}
	if st.IsDir() {
		f.Close()
		return openForeign(path, true, nil)
	}
	if st.Size() == 0 {
		f.Close()
		return nil, unknownFormat(path + ": empty file")
	}
	head := make([]byte, 1024)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, fileError(path, err)
	}
	head = head[:n]

	var e *model.Experiment
	kind := sniff(head)
	if kind == kindXML && !bytes.Contains(head, []byte("<cube")) {
		// An XML file that is not CUBE may be another tool's (HPCToolkit's
		// experiment.xml); CUBE's reader explains the failure otherwise.
		if im := detectForeign(path, false, head); im != nil {
			f.Close()
			return openWith(im, path)
		}
	}
	switch kind {
	case kindTar:
		e, err = cube.OpenCubex(path) // keeps its own handle for lazy loading
		f.Close()
	case kindXML:
		e, err = cube.ReadXML(bufio.NewReaderSize(f, 1<<16), path)
		f.Close()
	case kindGzip:
		e, err = openGzip(f, path)
		f.Close()
		if errors.Is(err, errNotCube) {
			return openForeign(path, false, head)
		}
	default:
		f.Close()
		return openForeign(path, false, head)
	}
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

// detectForeign returns the first importer that recognises path, or nil.
func detectForeign(path string, dir bool, head []byte) *importer {
	for i := range importers {
		if importers[i].detect(path, dir, head) {
			return &importers[i]
		}
	}
	return nil
}

// IsExperimentFolder reports whether a reader recognises the folder at
// path as an experiment (a TAU profile directory, an HPCToolkit
// database), as opposed to a folder that merely holds experiments.
func IsExperimentFolder(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return false
	}
	return detectForeign(path, true, nil) != nil
}

// openWith reads path with importer im.
func openWith(im *importer, path string) (*model.Experiment, error) {
	e, err := im.open(path)
	if err != nil {
		return nil, err
	}
	return finish(path, e)
}

// openForeign reads path with the first importer that recognises it.
func openForeign(path string, dir bool, head []byte) (*model.Experiment, error) {
	if im := detectForeign(path, dir, head); im != nil {
		return openWith(im, path)
	}
	if dir {
		return nil, unknownFormat(lookalikeMessage(path, dir, head, "is a directory, not a profile this program reads"))
	}
	if sniff(head) == kindGzip {
		return nil, unknownFormat(lookalikeMessage(path, dir, head, "gzip-compressed, but not a CUBE file nor a profile of another tool this program reads"))
	}
	return nil, unknownFormat(lookalikeMessage(path, dir, head, "not a CUBE file (neither CUBE XML, gzip-compressed CUBE XML nor a .cubex tar archive) nor a profile of another tool this program reads"))
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

// openGzip reads a gzip-compressed file: CUBE XML (.cube.gz) or, rarely, a
// compressed .cubex archive, streamed (cube.ReadCubexStream). Either is
// read within the decompression budget.
func openGzip(f *os.File, path string) (*model.Experiment, error) {
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", path, err)
	}
	var compressed int64
	if st, err := f.Stat(); err == nil {
		compressed = st.Size()
	}
	br := bufio.NewReaderSize(&budgetReader{r: zr, left: DecompressBudget(compressed)}, 1<<16)
	head, err := br.Peek(1024)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: bad gzip data: %w", path, err)
	}
	var e *model.Experiment
	switch sniff(head) {
	case kindXML:
		e, err = cube.ReadXML(br, path)
	case kindTar:
		e, err = cube.ReadCubexStream(br, path)
	default:
		return nil, errNotCube
	}
	if err != nil {
		var be *BudgetError
		if errors.As(err, &be) {
			return nil, fmt.Errorf("%s: %w", path, be)
		}
		return nil, err
	}
	e.Format += " (gzip)"
	return e, nil
}

// DecompressBudget returns how many bytes a compressed file of the given
// size may inflate to: 1 GiB plus 100 times its size. Real CUBE files
// compress 5 to 50 times; a file that inflates further is a decompression
// bomb, and reading it would only cost time.
var DecompressBudget = func(compressed int64) int64 { return 1<<30 + 100*compressed }

// BudgetError reports a compressed file that inflates beyond its budget.
type BudgetError struct {
	Budget int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("decompresses to more than %s, the budget for its size; not a plausible CUBE file", byteSize(e.Budget))
}

// budgetReader passes on at most left bytes of r, then fails with a
// *BudgetError if r holds more.
type budgetReader struct {
	r     io.Reader
	left  int64
	limit int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.limit == 0 {
		b.limit = b.left
	}
	if b.left <= 0 {
		// One byte more tells a stream that ends exactly here.
		var one [1]byte
		if n, _ := b.r.Read(one[:]); n > 0 {
			return 0, &BudgetError{Budget: b.limit}
		}
		return b.r.Read(p)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// byteSize renders a size in the largest binary unit that keeps it ≥ 1.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// errNotCube says that a gzip-compressed file holds something other than
// CUBE, for the importers of other formats to try.
var errNotCube = errors.New("gzip-compressed, but the content is not a CUBE file")

type fileKind int

const (
	kindUnknown fileKind = iota
	kindTar
	kindXML
	kindGzip
)

// sniff recognises a file by its first bytes.
func sniff(head []byte) fileKind {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		return kindGzip
	}
	if len(head) >= 263 && (string(head[257:263]) == "ustar\x00" || string(head[257:263]) == "ustar ") {
		return kindTar
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(text, []byte("<?xml")) || bytes.HasPrefix(text, []byte("<cube")) {
		return kindXML
	}
	if len(head) >= 512 && plausibleTarHeader(head[:512]) {
		return kindTar
	}
	return kindUnknown
}

// plausibleTarHeader accepts an old-style tar header without the ustar
// magic when its checksum is right (or 32 too low, the CubeWriter 4.8
// deviation).
func plausibleTarHeader(h []byte) bool {
	var sum int64
	for i, c := range h {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	field := strings.Trim(string(h[148:156]), " \x00")
	var stored int64
	if _, err := fmt.Sscanf(field, "%o", &stored); err != nil {
		return false
	}
	return h[0] != 0 && (stored == sum || stored == sum-32)
}

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
