package algebra

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"cubeview/model"
)

// Attribute keys of a derived experiment. Operand records of a derived
// operand are kept below its own key, e.g. "cubeview::operand::0::1" is
// operand 1 of operand 0, so a saved result names every file it came from.
const (
	AttrExpression = "cubeview::expression"
	AttrOptions    = "cubeview::options"
	AttrSystem     = "cubeview::system"
	AttrRoots      = "cubeview::roots"
	AttrMatching   = "cubeview::matching"  // MatchReport.Sentences, one a line
	AttrOperand    = "cubeview::operand::" // followed by the operand index
)

// Operand identifies one operand of a derived experiment: a file by path,
// size and SHA-256 checksum; a trial of an experiment repository by its
// reference (repo:ID as Path), the repository's identity and the size and
// checksum of the file the trial was imported from; a directory (a TAU
// profile directory, an HPCToolkit database) by its path alone; or an
// experiment without a file (a result not saved yet) by its expression.
type Operand struct {
	Path       string
	Size       int64
	SHA256     string // lowercase hex
	Repository string // the repository's identity, for a trial
	Directory  bool   // Path is a directory: no size or checksum
	Expression string // set instead of the file fields
}

// String renders the operand as stored in the attribute:
// "size=N;sha256=HEX;path=PATH" for a file (the path comes last, so it
// may contain any character), "size=N;sha256=HEX;repository=ID;path=REF"
// for a repository's trial, "directory;path=PATH" for a directory, or
// "expression=EXPR".
func (o Operand) String() string {
	if o.Path == "" {
		return "expression=" + o.Expression
	}
	if o.Directory {
		return "directory;path=" + o.Path
	}
	if o.Repository != "" {
		return fmt.Sprintf("size=%d;sha256=%s;repository=%s;path=%s", o.Size, o.SHA256, o.Repository, o.Path)
	}
	return fmt.Sprintf("size=%d;sha256=%s;path=%s", o.Size, o.SHA256, o.Path)
}

// parseOperand decodes Operand.String.
func parseOperand(s string) (Operand, error) {
	if expr, ok := strings.CutPrefix(s, "expression="); ok {
		return Operand{Expression: expr}, nil
	}
	var o Operand
	rest := s
	for rest != "" {
		if p, ok := strings.CutPrefix(rest, "path="); ok {
			o.Path = p
			break
		}
		field, tail, _ := strings.Cut(rest, ";")
		rest = tail
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "size":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return Operand{}, fmt.Errorf("operand record %q: bad size %q", s, v)
			}
			o.Size = n
		case "sha256":
			o.SHA256 = v
		case "repository":
			o.Repository = v
		case "directory":
			o.Directory = true
		default:
			return Operand{}, fmt.Errorf("operand record %q: unknown field %q", s, k)
		}
	}
	if o.Path == "" {
		return Operand{}, fmt.Errorf("operand record %q has neither a path nor an expression", s)
	}
	return o, nil
}

// Provenance says how a derived experiment was made.
type Provenance struct {
	Expression string // e.g. "diff(a.cubex, b.cubex)"
	// Expr is Expression parsed by ReadProvenance; nil when it does not
	// parse (a file written by another program).
	Expr    *Expr
	Options string // Options.String of the operation
	// Opts is Options parsed by ReadProvenance (the zero Options when absent).
	Opts   Options
	System string // SystemOutcome.String, empty for operators that keep the system tree
	Roots  string // Integration.RootsMatched, empty when no roots of different regions were matched
	// Matching holds Integration.Report's sentences: what was matched
	// other than by equal names, and what was not compared.
	Matching []string
	Operands []Operand
	nested   []model.Attr // operand records of derived operands
}

func (p Provenance) attrs() []model.Attr {
	as := []model.Attr{{Key: AttrExpression, Value: p.Expression}}
	if p.Options != "" {
		as = append(as, model.Attr{Key: AttrOptions, Value: p.Options})
	}
	if p.System != "" {
		as = append(as, model.Attr{Key: AttrSystem, Value: p.System})
	}
	if p.Roots != "" {
		as = append(as, model.Attr{Key: AttrRoots, Value: p.Roots})
	}
	if len(p.Matching) > 0 {
		as = append(as, model.Attr{Key: AttrMatching, Value: strings.Join(p.Matching, "\n")})
	}
	for i, o := range p.Operands {
		as = append(as, model.Attr{Key: AttrOperand + strconv.Itoa(i), Value: o.String()})
	}
	return append(as, p.nested...)
}

// ReadProvenance decodes the provenance attributes of a derived
// experiment, parsing its expression and options; ok is false when e
// carries none.
func ReadProvenance(e *model.Experiment) (p Provenance, ok bool, err error) {
	if err := model.FinishAttrs(e); err != nil {
		return p, false, err
	}
	p.Expression, ok = e.Attr(AttrExpression)
	if !ok {
		return Provenance{}, false, nil
	}
	if x, perr := Parse(p.Expression); perr == nil {
		p.Expr = x
	}
	p.Options, _ = e.Attr(AttrOptions)
	if p.Options != "" {
		if p.Opts, err = ParseOptions(p.Options); err != nil {
			return p, true, err
		}
	}
	p.System, _ = e.Attr(AttrSystem)
	p.Roots, _ = e.Attr(AttrRoots)
	if m, ok := e.Attr(AttrMatching); ok && m != "" {
		p.Matching = strings.Split(m, "\n")
	}
	for i := 0; ; i++ {
		v, found := e.Attr(AttrOperand + strconv.Itoa(i))
		if !found {
			break
		}
		o, err := parseOperand(v)
		if err != nil {
			return p, true, err
		}
		p.Operands = append(p.Operands, o)
	}
	return p, true, nil
}

// describe identifies an operand for the provenance of a result: by file
// when e.Source names a regular file, by path when it names a directory
// (one a reader accepts, as a TAU profile directory), otherwise by e.Source as an
// expression. It returns the operand's text in the result's expression.
//
// With later set, an operand whose reader hashes its file (ContentSum)
// is recorded without its checksum: the caller completes the record
// after the data were read.
func describe(e *model.Experiment, index int, later bool) (name string, o Operand, nested []model.Attr, err error) {
	if err := model.FinishAttrs(e); err != nil { // a result's own operand records
		return "", Operand{}, nil, err
	}
	if org, ok := e.Origin(); ok && e.Source != "" {
		// Read from a store (a repository's trial): what it holds is known
		// by the checksum of the file it was made from.
		o = Operand{Path: e.Source, Size: org.Size, SHA256: org.SHA256, Repository: org.Store}
		name = quoteFileName(e.Source)
	} else if later && model.HashesContent(e) && e.Source != "" {
		o = Operand{Path: e.Source}
		name = quoteFileName(e.Source)
	} else if sum, size, ok, err := model.ContentSum(e); ok && err == nil && e.Source != "" {
		// Its reader hashed the file while reading it. (A file that
		// changed since is hashed again below, as it is now.)
		o = Operand{Path: e.Source, Size: size, SHA256: sum}
		name = quoteFileName(e.Source)
	} else if fi, statErr := os.Stat(e.Source); e.Source != "" && statErr == nil && fi.IsDir() {
		o = Operand{Path: e.Source, Directory: true}
		name = quoteFileName(e.Source)
	} else if e.Source != "" && statErr == nil && fi.Mode().IsRegular() {
		sum, err := fileSHA256(e.Source, fi)
		if err != nil {
			return "", Operand{}, nil, fmt.Errorf("checksum of operand %s: %w", e.Source, err)
		}
		o = Operand{Path: e.Source, Size: fi.Size(), SHA256: sum}
		name = quoteFileName(e.Source)
	} else {
		name = e.Source
		if name == "" {
			name = "unnamed"
		}
		o = Operand{Expression: name}
	}
	prefix := AttrOperand + strconv.Itoa(index) + "::"
	for _, a := range e.Attrs {
		if rest, ok := strings.CutPrefix(a.Key, AttrOperand); ok {
			nested = append(nested, model.Attr{Key: prefix + rest, Value: a.Value})
		}
	}
	return name, o, nested, nil
}

// quoteFileName quotes a file name that the expression parser would not
// read back as one operand.
func quoteFileName(s string) string {
	if s == "" || strings.ContainsAny(s, "(),=\"") || strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

type sumKey struct {
	path string
	size int64
	mod  time.Time
}

// sums caches file checksums, so an operand file used several times in one
// expression is read once; an entry is a *checksum, computed once.
var sums sync.Map // sumKey → *checksum

type checksum struct {
	once  sync.Once
	sum   string
	err   error
	ready atomic.Bool
}

// sumReady reports whether the checksum has been computed.
func (c *checksum) sumReady() bool { return c.ready.Load() }

func (c *checksum) compute(path string) {
	c.once.Do(func() {
		c.sum, c.err = hashFile(path)
		c.ready.Store(true)
	})
}

// startChecksum begins computing the checksum of the operand file at path
// in the background when it is opened, so that the checksum is ready, or
// nearly, when the result's provenance needs it: it overlaps with reading
// the operands and computing the result instead of following them.
func startChecksum(path string) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	go checksumOf(path, fi).compute(path)
}

func checksumOf(path string, fi os.FileInfo) *checksum {
	v, _ := sums.LoadOrStore(sumKey{path, fi.Size(), fi.ModTime()}, &checksum{})
	return v.(*checksum)
}

func fileSHA256(path string, fi os.FileInfo) (string, error) {
	c := checksumOf(path, fi)
	c.compute(path)
	return c.sum, c.err
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// provenance describes the result of op applied to ig's operands; args are
// extra arguments written after the operands in the expression.
func (ig *Integration) provenance(op string, args []string) (Provenance, error) {
	return ig.provenanceWith(op, args, false)
}

// provenanceWith is provenance, leaving out, with later, the checksums
// of operands whose readers hash their files (see describe).
func (ig *Integration) provenanceWith(op string, args []string, later bool) (Provenance, error) {
	p, err := provenanceOf(op, ig.Operands, args, later)
	if err != nil {
		return p, err
	}
	p.Options = ig.Options.String()
	p.System = ig.SystemOutcome.String()
	p.Roots = ig.RootsMatched
	p.Matching = ig.Report.Sentences()
	return p, nil
}

func provenanceOf(op string, operands []*model.Experiment, args []string, later bool) (Provenance, error) {
	var p Provenance
	names := make([]string, 0, len(operands)+len(args))
	// Each distinct operand (by checksum, or by expression for one not
	// saved) brings the records of its own operands once, however often
	// it is used, so a record's size is linear in the distinct operands.
	recorded := map[string]bool{}
	for i, e := range operands {
		name, o, nested, err := describe(e, i, later)
		if err != nil {
			return p, err
		}
		names = append(names, name)
		p.Operands = append(p.Operands, o)
		if recorded[o.identity()] {
			continue
		}
		recorded[o.identity()] = true
		p.nested = append(p.nested, distinctRecords(nested, recorded)...)
	}
	names = append(names, args...)
	p.Expression = op + "(" + strings.Join(names, ", ") + ")"
	return p, nil
}

// identity tells operands apart: by content for a file, by expression
// for a result not saved.
func (o Operand) identity() string {
	if o.Path == "" {
		return "expression=" + o.Expression
	}
	return fmt.Sprintf("size=%d;sha256=%s", o.Size, o.SHA256)
}

// distinctRecords drops, from nested operand records in attribute order
// (a record before the records below it), those of operands already
// recorded, together with everything below them.
func distinctRecords(nested []model.Attr, recorded map[string]bool) []model.Attr {
	var out []model.Attr
	var skip []string // key prefixes of dropped records
	for _, a := range nested {
		if slices.ContainsFunc(skip, func(pre string) bool { return strings.HasPrefix(a.Key, pre) }) {
			continue
		}
		o, err := parseOperand(a.Value)
		if err != nil {
			out = append(out, a) // not ours to judge; keep it
			continue
		}
		if recorded[o.identity()] {
			skip = append(skip, a.Key+"::")
			continue
		}
		recorded[o.identity()] = true
		out = append(out, a)
	}
	return out
}
