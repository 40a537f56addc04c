package papi

import (
	"bufio"
	"cubeview/format/importer"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unsafe"
)

// scanner reads the JSON of a rank file piece by piece: PAPI writes
// large files of small objects, which encoding/json's reflection and
// token API read ten times slower. Errors name the file and the line.
type scanner struct {
	r     *bufio.Reader
	name  string
	line  int
	depth int
	buf   []byte
	keys  map[string]string
}

// maxDepth bounds the nesting of values the scanner skips.
const maxDepth = 200

func newScanner(r io.Reader, name string) *scanner {
	s := &scanner{r: bufio.NewReaderSize(r, 1<<16), name: name, line: 1}
	if b, err := s.r.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
		s.r.Discard(3)
	}
	return s
}

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", s.name, s.line, fmt.Sprintf(format, args...))
}

// readErr turns a read error into a message: the file ends early, or the
// read failed.
func (s *scanner) readErr(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s:%d: the JSON ends early: the file is truncated", s.name, s.line)
	}
	return fmt.Errorf("%s: %w", s.name, err)
}

// peek returns the next byte that is not white space, without reading it.
func (s *scanner) peek() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case '\n':
			s.line++
			continue
		case ' ', '\t', '\r':
			continue
		}
		s.r.UnreadByte()
		return c, nil
	}
}

// expect reads the byte want after white space.
func (s *scanner) expect(want byte, what string) error {
	c, err := s.peek()
	if err != nil {
		return s.readErr(err)
	}
	if c != want {
		return s.errorf("%s: want %q, found %q", what, want, c)
	}
	s.r.ReadByte()
	return nil
}

// end reports whether only white space is left.
func (s *scanner) end() error {
	if _, err := s.peek(); err == nil {
		return s.errorf("data after the end of the JSON object")
	} else if !errors.Is(err, io.EOF) {
		return s.readErr(err)
	}
	return nil
}

// object reads an object, calling fn for each key; fn reads the value.
func (s *scanner) object(what string, fn func(key string) error) error {
	if err := s.expect('{', what); err != nil {
		return err
	}
	c, err := s.peek()
	if err != nil {
		return s.readErr(err)
	}
	if c == '}' {
		s.r.ReadByte()
		return nil
	}
	for {
		key, err := s.key(what)
		if err != nil {
			return err
		}
		if err := s.expect(':', what); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return s.readErr(err)
		}
		s.r.ReadByte()
		switch c {
		case ',':
		case '}':
			return nil
		default:
			return s.errorf("%s: want ',' or '}', found %q", what, c)
		}
	}
}

// array reads an array, calling fn for each element; fn reads it.
func (s *scanner) array(what string, fn func(i int) error) error {
	if err := s.expect('[', what); err != nil {
		return err
	}
	c, err := s.peek()
	if err != nil {
		return s.readErr(err)
	}
	if c == ']' {
		s.r.ReadByte()
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return s.readErr(err)
		}
		s.r.ReadByte()
		switch c {
		case ',':
		case ']':
			return nil
		default:
			return s.errorf("%s: want ',' or ']', found %q", what, c)
		}
	}
}

// str reads a string.
func (s *scanner) str(what string) (string, error) {
	b, err := s.strBytes(what)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// key reads an object's key; keys repeat in every region, so each
// distinct one is allocated once.
func (s *scanner) key(what string) (string, error) {
	b, err := s.strBytes(what)
	if err != nil {
		return "", err
	}
	if k, ok := s.keys[string(b)]; ok {
		return k, nil
	}
	k := string(b)
	if len(s.keys) < 10000 {
		if s.keys == nil {
			s.keys = map[string]string{}
		}
		s.keys[k] = k
	}
	return k, nil
}

// strBytes reads a string into the scanner's buffer.
func (s *scanner) strBytes(what string) ([]byte, error) {
	if err := s.expect('"', what); err != nil {
		return nil, err
	}
	s.buf = append(s.buf[:0], '"')
	escaped := false
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return nil, s.readErr(err)
		}
		switch {
		case c == '\\':
			escaped = true
			s.buf = append(s.buf, c)
			if c, err = s.r.ReadByte(); err != nil {
				return nil, s.readErr(err)
			}
			s.buf = append(s.buf, c)
			continue
		case c == '"':
			if !escaped {
				return s.buf[1:], nil
			}
			s.buf = append(s.buf, c)
			var out string
			if err := json.Unmarshal(s.buf, &out); err != nil {
				return nil, s.errorf("%s: bad string: %v", what, err)
			}
			return []byte(out), nil
		case c < 0x20:
			return nil, s.errorf("%s: a control character in a string (the string is not closed?)", what)
		}
		s.buf = append(s.buf, c)
		if len(s.buf) > 1<<20 {
			return nil, s.errorf("%s: a string longer than 1 MB", what)
		}
	}
}

// skip reads and drops a value of any kind.
func (s *scanner) skip(what string) error {
	c, err := s.peek()
	if err != nil {
		return s.readErr(err)
	}
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxDepth {
		return s.errorf("%s: values nested more than %d deep", what, maxDepth)
	}
	switch {
	case c == '{':
		return s.object(what, func(string) error { return s.skip(what) })
	case c == '[':
		return s.array(what, func(int) error { return s.skip(what) })
	case c == '"':
		_, err := s.str(what)
		return err
	case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		n := 0
		for {
			c, err := s.r.ReadByte()
			if err != nil {
				if errors.Is(err, io.EOF) && n > 0 {
					return nil
				}
				return s.readErr(err)
			}
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\t' || c == '\r' {
				s.r.UnreadByte()
				return nil
			}
			if n++; n > 400 {
				return s.errorf("%s: a number or literal longer than 400 bytes", what)
			}
		}
	}
	return s.errorf("%s: unexpected %q", what, c)
}

// number reads PAPI's number in a string, "123"; the error says what
// the value was but not where (the caller knows).
func (s *scanner) number() (float64, error) {
	b, err := s.strBytes("a value")
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(transient(b), 64)
	if err != nil || v != v || v > 1e300 || v < -1e300 {
		return 0, s.errorf("value %s is not a number", importer.Quote(string(b)))
	}
	return v, nil
}

// transient returns b as a string without copying, for a parser that
// does not keep it: b must not change while the string is in use.
func transient(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
