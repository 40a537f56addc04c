package sourceview

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound reports that no candidate for a recorded source path is a
// readable file on this machine.
var ErrNotFound = errors.New("source file not found")

// Mapping rewrites recorded paths that start with From to start with To
// instead, e.g. from the build machine's checkout to the local one.
type Mapping struct {
	From, To string
}

// mappingArrow separates From and To in a mapping's text form.
const mappingArrow = " => "

// String returns the text form of m, "From => To", which ParseMapping
// reads back; a display can keep mappings in its preferences this way.
func (m Mapping) String() string { return m.From + mappingArrow + m.To }

// ParseMapping reads a mapping in the form String writes.
func ParseMapping(s string) (Mapping, error) {
	from, to, ok := strings.Cut(s, mappingArrow)
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	if !ok || from == "" || to == "" {
		return Mapping{}, fmt.Errorf("path mapping %q: want \"old prefix%snew prefix\"", s, mappingArrow)
	}
	return Mapping{From: from, To: to}, nil
}

// Resolver finds the file for a source path recorded in an experiment.
// The zero value only tries the path as recorded.
type Resolver struct {
	// Base, if set, is the directory a relative recorded path is taken
	// relative to "as recorded", typically the experiment file's
	// directory; otherwise it is the working directory.
	Base string
	// Mappings are tried in order; every mapping whose From is a prefix
	// of the recorded path (up to a path separator) yields a candidate.
	Mappings []Mapping
	// SearchDirs are directories in which the recorded path and its
	// shorter tails (dropping leading directories) are looked for, so
	// that a search directory /src finds /build/host/src/a/b.c as
	// /src/a/b.c or /src/b.c. A natural entry is the directory of the
	// experiment file.
	SearchDirs []string
}

// Candidates returns the paths Resolve tries for recorded, in order: the
// path as recorded (below Base when relative), the mapped paths, then
// the search-directory paths.
func (r *Resolver) Candidates(recorded string) []string {
	if recorded == "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if r.Base != "" && !filepath.IsAbs(recorded) && !windowsAbs(recorded) {
		add(filepath.Join(r.Base, recorded))
	} else {
		add(recorded)
	}
	norm := normalize(recorded)
	for _, m := range r.Mappings {
		if rest, ok := cutPathPrefix(norm, normalize(m.From)); ok {
			add(filepath.Join(m.To, filepath.FromSlash(rest)))
		}
	}
	parts := strings.Split(strings.TrimLeft(norm, "/"), "/")
	if len(parts) > 0 && strings.HasSuffix(parts[0], ":") {
		parts = parts[1:] // a Windows drive letter
	}
	for _, dir := range r.SearchDirs {
		for i := range parts {
			add(filepath.Join(dir, filepath.FromSlash(strings.Join(parts[i:], "/"))))
		}
	}
	return out
}

// Resolve returns the first candidate for recorded that is a regular
// file. When there is none, the error wraps ErrNotFound and lists what
// was tried.
func (r *Resolver) Resolve(recorded string) (string, error) {
	if recorded == "" {
		return "", fmt.Errorf("no source file recorded: %w", ErrNotFound)
	}
	cands := r.Candidates(recorded)
	for _, p := range cands {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w (tried %s)", recorded, ErrNotFound, strings.Join(cands, ", "))
}

// Learn records where the user found the file recorded as recorded:
// it adds the mapping of the differing leading directories, or, when
// located merely adds leading directories to a relative recorded path,
// those directories as a search directory. It reports whether it
// changed r; a file with a different base name cannot be learned from.
func (r *Resolver) Learn(recorded, located string) bool {
	rec := strings.Split(normalize(recorded), "/")
	loc := strings.Split(normalize(filepath.ToSlash(located)), "/")
	i, j := len(rec)-1, len(loc)-1
	for i >= 0 && j >= 0 && rec[i] == loc[j] && rec[i] != "" {
		i, j = i-1, j-1
	}
	if i == len(rec)-1 {
		return false // base names differ
	}
	to := filepath.FromSlash(strings.Join(loc[:j+1], "/"))
	if j == 0 && loc[0] == "" {
		to = string(filepath.Separator)
	}
	if i < 0 {
		if to == "" {
			return false
		}
		for _, d := range r.SearchDirs {
			if filepath.Clean(d) == filepath.Clean(to) {
				return false
			}
		}
		r.SearchDirs = append(r.SearchDirs, to)
		return true
	}
	from := strings.Join(rec[:i+1], "/")
	if i == 0 && rec[0] == "" {
		from = "/"
	}
	m := Mapping{From: from, To: to}
	for _, old := range r.Mappings {
		if old == m {
			return false
		}
	}
	r.Mappings = append(r.Mappings, m)
	return true
}

// normalize turns a recorded path into slash form: Windows separators
// become slashes and repeated or trailing slashes go away.
func normalize(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// cutPathPrefix returns p without prefix when prefix is p itself or a
// leading directory of p.
func cutPathPrefix(p, prefix string) (string, bool) {
	if prefix == "" {
		return "", false
	}
	if p == prefix {
		return "", true
	}
	if prefix == "/" {
		if strings.HasPrefix(p, "/") {
			return p[1:], true
		}
		return "", false
	}
	if strings.HasPrefix(p, prefix+"/") {
		return p[len(prefix)+1:], true
	}
	return "", false
}

// windowsAbs reports whether p is an absolute Windows path such as
// C:\src\a.c or \\host\share\a.c, which is absolute on any machine.
func windowsAbs(p string) bool {
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}
