package prefs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"cubeview/internal/atomicfile"
)

// Store is a preferences file. Its methods are safe for concurrent use.
type Store struct {
	path string
	mu   sync.Mutex
	vals map[string]json.RawMessage
	err  error // of the last read or write
}

// DefaultPath returns where the preferences of cubeview live:
// $XDG_CONFIG_HOME/cubeview/preferences.json (or the system's equivalent).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("preferences: %w", err)
	}
	return filepath.Join(dir, "cubeview", "preferences.json"), nil
}

// Open reads the preferences at path; a missing file is no preferences.
func Open(path string) *Store {
	s := &Store{path: path}
	s.vals, s.err = read(path)
	return s
}

// Path returns the file's path.
func (s *Store) Path() string { return s.path }

// Err returns the error of the last read or write, or nil.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Exists reports whether the file existed when read or has been written.
func (s *Store) Exists() bool {
	_, err := os.Stat(s.path)
	return err == nil
}

func read(path string) (map[string]json.RawMessage, error) {
	vals := map[string]json.RawMessage{}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return vals, nil
	}
	if err != nil {
		return vals, fmt.Errorf("preferences %s: %w", path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return vals, fmt.Errorf("preferences %s: empty file", path)
	}
	if err := json.Unmarshal(b, &vals); err != nil {
		return map[string]json.RawMessage{}, fmt.Errorf("preferences %s: %w", path, err)
	}
	return vals, nil
}

func (s *Store) get(key string, into any) bool {
	s.mu.Lock()
	raw, ok := s.vals[key]
	s.mu.Unlock()
	return ok && json.Unmarshal(raw, into) == nil
}

// StringList returns the list stored under key, or nil.
func (s *Store) StringList(key string) []string {
	var l []string
	s.get(key, &l)
	return l
}

// Float returns the number stored under key, or def.
func (s *Store) Float(key string, def float64) float64 {
	x := def
	if !s.get(key, &x) {
		return def
	}
	return x
}

// String returns the text stored under key, or "".
func (s *Store) String(key string) string {
	var x string
	s.get(key, &x)
	return x
}

// SetStringList stores l under key.
func (s *Store) SetStringList(key string, l []string) error { return s.set(key, l) }

// SetFloat stores x under key.
func (s *Store) SetFloat(key string, x float64) error { return s.set(key, x) }

// SetString stores x under key.
func (s *Store) SetString(key string, x string) error { return s.set(key, x) }

// UpdateStringList replaces the list under key by f of the list in the
// file as it is now (another instance may have changed it) and returns
// the new list.
func (s *Store) UpdateStringList(key string, f func([]string) []string) ([]string, error) {
	var out []string
	err := s.update(key, func(old json.RawMessage) any {
		var l []string
		if old != nil {
			_ = json.Unmarshal(old, &l)
		}
		out = f(l)
		return out
	})
	return out, err
}

func (s *Store) set(key string, x any) error {
	return s.update(key, func(json.RawMessage) any { return x })
}

// update re-reads the file, replaces key by f of its current value and
// writes the file atomically.
func (s *Store) update(key string, f func(old json.RawMessage) any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	vals, err := read(s.path)
	if err != nil {
		if _, statErr := os.Stat(s.path); statErr == nil {
			// Keep what cannot be read for the user instead of overwriting it.
			_ = os.Rename(s.path, s.path+".broken")
		}
		// Start from what this process knew.
		vals = maps.Clone(s.vals)
	}
	raw, err := json.Marshal(f(vals[key]))
	if err != nil {
		s.err = fmt.Errorf("preferences %s: %s: %w", s.path, key, err)
		return s.err
	}
	vals[key] = raw
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		s.err = fmt.Errorf("preferences: %w", err)
		return s.err
	}
	err = atomicfile.Write(s.path, func(w io.Writer) error {
		keys := slices.Sorted(maps.Keys(vals))
		var buf bytes.Buffer
		buf.WriteString("{\n")
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			fmt.Fprintf(&buf, "  %s: %s", kb, vals[k])
			if i < len(keys)-1 {
				buf.WriteString(",")
			}
			buf.WriteString("\n")
		}
		buf.WriteString("}\n")
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		s.err = fmt.Errorf("preferences %s: %w", s.path, err)
		return s.err
	}
	s.vals, s.err = vals, nil
	return nil
}
