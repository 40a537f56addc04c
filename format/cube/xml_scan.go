package cube

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cubeview/format/importer"
)

// xmlScanner is a streaming tokenizer made for CUBE documents: it reads
// elements, attributes and text from a buffered window of the input
// without building a tree and without allocating per token. Tokens refer
// to the scanner's buffer and are valid until the next call of next.
//
// It accepts what CUBE writers produce, including two things that are not
// well-formed XML but that CubeLib writes and reads: a bare '&' that does
// not start one of the five predefined entities or a character reference
// is a literal '&', and the attributes rowwise, cubeplaggrtype and
// locationwise may have an unquoted value of letters. Everything else that
// is not well-formed (mismatched or unclosed tags, '<' in a value, control
// characters, invalid UTF-8, a second root element) is an error.
type xmlScanner struct {
	r    io.Reader
	buf  []byte
	pos  int   // next byte to scan
	end  int   // buf[:end] holds input
	rerr error // error of the last read (io.EOF at the end)

	lines  int // newlines in the input before buf[lineAt]
	lineAt int
	start  int // offset in buf of the current token

	kind  tokKind
	name  []byte    // element name (local part) of tokStart and tokEnd
	attrs []xmlAttr // attributes of tokStart
	raw   []byte    // tokText: the text as in the input, at most maxTextPiece bytes
	cdata bool      // raw is the content of a CDATA section
	text  []byte    // raw decoded, once textBytes was called
	dirty bool      // text is not yet decoded from raw
	// endPending: the last start tag was self-closing, its end follows
	endPending bool
	pendName   []byte

	// rawText passes text without references as it is, unchecked (the
	// values of severity rows, which are parsed as numbers anyway).
	rawText bool

	openBuf []byte // names of the open elements, one after the other
	openAt  []int  // start of each open element's name in openBuf
	done    bool   // the root element is closed
	dec     []byte // decoding scratch of text
	adec    []byte // decoding scratch of attribute values
}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokStart
	tokEnd
	tokText
)

// xmlAttr is one attribute of a start tag; key is the local name.
type xmlAttr struct {
	key, val []byte
}

const (
	scanChunk = 64 << 10
	// maxTextPiece bounds one text token; longer text comes in pieces.
	maxTextPiece = 1 << 20
	// maxTagBytes bounds a start tag with its attributes.
	maxTagBytes = 16 << 20
)

func newXMLScanner(r io.Reader) *xmlScanner {
	return &xmlScanner{r: r, buf: make([]byte, 2*scanChunk)}
}

// syntaxError is malformed input at a line.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("malformed XML: line %d: %s", e.line, e.msg)
}

// truncatedError reports input that ends inside a token or element.
type truncatedError struct {
	line   int
	inside string
}

func (e *truncatedError) Error() string {
	if e.inside != "" {
		return fmt.Sprintf("unexpected end of file inside <%s> (truncated XML?)", e.inside)
	}
	return fmt.Sprintf("unexpected end of file on line %d (truncated XML?)", e.line)
}

func (s *xmlScanner) errorf(format string, args ...any) error {
	return &syntaxError{line: s.line(), msg: fmt.Sprintf(format, args...)}
}

// line returns the line number of the current token's start.
func (s *xmlScanner) line() int {
	if s.start < s.lineAt {
		return s.lines + 1
	}
	return s.lines + 1 + bytes.Count(s.buf[s.lineAt:s.start], []byte{'\n'})
}

// fill reads more input, keeping buf[s.start:]; it reports false at the
// end of the input or on a read error (kept in s.rerr).
func (s *xmlScanner) fill() bool {
	if s.rerr != nil {
		return false
	}
	if s.start > 0 && (s.end == len(s.buf) || s.start > len(s.buf)/2) {
		if s.lineAt < s.start {
			s.lines += bytes.Count(s.buf[s.lineAt:s.start], []byte{'\n'})
			s.lineAt = s.start
		}
		n := copy(s.buf, s.buf[s.start:s.end])
		s.pos -= s.start
		s.lineAt -= s.start
		s.end = n
		s.start = 0
	}
	if len(s.buf)-s.end < scanChunk {
		nb := make([]byte, 2*len(s.buf)+scanChunk)
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.rerr = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// readErr turns the end of input inside a token into an error.
func (s *xmlScanner) readErr() error {
	if s.rerr != nil && s.rerr != io.EOF {
		return fmt.Errorf("reading: %w", s.rerr)
	}
	return &truncatedError{line: s.line()}
}

// next reads the next token. At the end of the input it returns tokEOF,
// or an error when elements are still open.
func (s *xmlScanner) next() (tokKind, error) {
	if s.endPending {
		s.endPending = false
		s.kind, s.name = tokEnd, s.pendName
		s.pop()
		return tokEnd, nil
	}
	for {
		s.start = s.pos
		if s.pos >= s.end && !s.fill() {
			if s.rerr != nil && s.rerr != io.EOF {
				return 0, fmt.Errorf("reading: %w", s.rerr)
			}
			if s.depth() > 0 {
				return 0, &truncatedError{inside: string(s.openName(s.depth() - 1))}
			}
			s.kind = tokEOF
			return tokEOF, nil
		}
		if s.buf[s.pos] != '<' {
			return s.scanText()
		}
		k, err := s.scanMarkup()
		if err != nil || k != tokEOF {
			return k, err
		}
		// A comment, processing instruction or declaration: go on.
	}
}

// depth returns the number of open elements.
func (s *xmlScanner) depth() int { return len(s.openAt) }

// openName returns the name of the i-th open element (0: the root).
func (s *xmlScanner) openName(i int) []byte {
	end := len(s.openBuf)
	if i+1 < len(s.openAt) {
		end = s.openAt[i+1]
	}
	return s.openBuf[s.openAt[i]:end]
}

func (s *xmlScanner) push(name []byte) {
	s.openAt = append(s.openAt, len(s.openBuf))
	s.openBuf = append(s.openBuf, name...)
}

func (s *xmlScanner) pop() {
	n := len(s.openAt) - 1
	s.openBuf = s.openBuf[:s.openAt[n]]
	s.openAt = s.openAt[:n]
	if n == 0 {
		s.done = true
	}
}

// need makes sure buf[s.pos:s.pos+n] is available; false at the end of input.
func (s *xmlScanner) need(n int) bool {
	for s.end-s.pos < n {
		if !s.fill() {
			return false
		}
	}
	return true
}

// scanMarkup reads the markup starting at '<'. It returns tokEOF for
// markup that yields no token (comments, declarations, processing
// instructions).
func (s *xmlScanner) scanMarkup() (tokKind, error) {
	if !s.need(2) {
		return 0, s.readErr()
	}
	switch s.buf[s.pos+1] {
	case '/':
		return s.scanEnd()
	case '?':
		if !s.need(3) {
			return 0, s.readErr()
		}
		if !isNameStart(s.buf[s.pos+2]) {
			return 0, s.errorf("expected target name after <?")
		}
		if err := s.skipUntil("?>", 2); err != nil {
			return 0, err
		}
		pi := s.buf[s.start+2 : s.pos-2]
		t := 0 // the target is the name at the start, as encoding/xml reads it
		for t < len(pi) && isNameByte(pi[t]) {
			t++
		}
		if target := pi[:t]; len(target) == 0 || !isNameStart(target[0]) || !asciiName(target) && !unicodeName(target) {
			return 0, s.errorf("invalid processing instruction target %s", importer.Quote(string(target)))
		}
		if t == 3 && string(pi[:3]) == "xml" {
			if v := procInstParam("version", string(pi[3:])); v != "" && v != "1.0" {
				return 0, s.errorf("unsupported XML version %s; only version 1.0 is supported", importer.Quote(v))
			}
		}
		return tokEOF, nil
	case '!':
		return s.scanBang()
	}
	return s.scanStart()
}

// skipUntil skips from s.pos past the next occurrence of term, searching
// from s.pos+from.
func (s *xmlScanner) skipUntil(term string, from int) error {
	at := s.pos + from
	for {
		if i := bytes.Index(s.buf[at:s.end], []byte(term)); i >= 0 {
			s.pos = at + i + len(term)
			return nil
		}
		at = max(s.end-len(term)+1, at)
		off := at - s.pos
		if s.end-s.start > maxTagBytes {
			return s.errorf("markup longer than %d bytes", maxTagBytes)
		}
		if !s.fill() {
			return s.readErr()
		}
		at = s.pos + off
	}
}

func (s *xmlScanner) scanBang() (tokKind, error) {
	if !s.need(4) {
		return 0, s.readErr()
	}
	if string(s.buf[s.pos:s.pos+4]) == "<!--" {
		if err := s.skipUntil("-->", 4); err != nil {
			return 0, err
		}
		if c := s.buf[s.start+4 : s.pos-3]; bytes.Contains(c, []byte("--")) || len(c) > 0 && c[len(c)-1] == '-' {
			return 0, s.errorf(`"--" inside a comment`)
		}
		return tokEOF, nil
	}
	if s.need(9) && string(s.buf[s.pos:s.pos+9]) == "<![CDATA[" {
		if s.depth() == 0 {
			return 0, s.errorf("CDATA section outside the root element")
		}
		if err := s.skipUntil("]]>", 9); err != nil {
			return 0, err
		}
		s.setText(s.buf[s.start+9:s.pos-3], true)
		return tokText, nil
	}
	if s.buf[s.pos+2] == '[' {
		return 0, s.errorf("invalid <![ (only <![CDATA[ sections are allowed)")
	}
	if s.buf[s.pos+2] == '-' {
		return 0, s.errorf("invalid sequence <!- not part of <!--")
	}
	// A declaration such as <!DOCTYPE …>: up to the '>' that balances
	// the '<'s inside, outside quotes and comments; the first byte after
	// "<!" belongs to it whatever it is (as encoding/xml reads it).
	depth, quote := 0, byte(0)
	for i := s.pos + 3; ; i++ {
		if i+4 > s.end {
			off := i - s.pos
			if s.end-s.start > maxTagBytes {
				return 0, s.errorf("declaration longer than %d bytes", maxTagBytes)
			}
			if !s.fill() && i >= s.end {
				return 0, s.readErr()
			}
			i = s.pos + off
		}
		c := s.buf[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			if depth == 0 {
				s.pos = i + 1
				return tokEOF, nil
			}
			depth--
		case c == '<':
			if i+4 <= s.end && string(s.buf[i:i+4]) == "<!--" {
				// s.pos is the declaration's start (s.start), which a
				// refill keeps.
				s.pos = i
				if err := s.skipUntil("-->", 4); err != nil {
					return 0, err
				}
				i = s.pos - 1
				s.pos = s.start
				continue
			}
			depth++
		}
	}
}

// procInstParam returns the value of param in the content of a processing
// instruction, found the way encoding/xml finds it.
func procInstParam(param, s string) string {
	param += "="
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || len(param)+k >= len(sub) {
			return ""
		}
		i += len(param) + k + 1
		if c := sub[len(param)+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// asciiName reports whether b is made of ASCII name characters only.
func asciiName(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 || !isNameByte(c) {
			return false
		}
	}
	return true
}

// unicodeName checks a name with non-ASCII characters: letters, and
// after the first also digits and combining marks (close to the name
// characters of XML 1.0 that encoding/xml checks).
func unicodeName(b []byte) bool {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		ok := r == '_' || r == ':' || unicode.IsLetter(r)
		if i > 0 {
			ok = ok || r == '-' || r == '.' || r == 0xB7 || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc)
		}
		if !ok || r == utf8.RuneError && n == 1 {
			return false
		}
		i += n
	}
	return true
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == ':' || c == '-' || c == '.' || c >= 0x80
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// scanName reads a name at s.pos; the buffer must already hold the whole
// tag. It returns the local part (after a prefix) and the whole name.
func (s *xmlScanner) scanName(tagEnd int) (local, full []byte, err error) {
	i := s.pos
	if i >= tagEnd || !isNameStart(s.buf[i]) {
		return nil, nil, s.errorf("expected a name")
	}
	for i < tagEnd && isNameByte(s.buf[i]) {
		i++
	}
	full = s.buf[s.pos:i]
	if !asciiName(full) && !unicodeName(full) {
		return nil, nil, s.errorf("invalid name %s", importer.Quote(string(full)))
	}
	s.pos = i
	local = full
	if c := bytes.IndexByte(full, ':'); c >= 1 && c <= len(full)-2 {
		local = full[c+1:]
	}
	return local, full, nil
}

// tagEnd returns the offset of the '>' closing the tag at s.start,
// skipping quoted attribute values.
func (s *xmlScanner) tagEnd() (int, error) {
	quote := byte(0)
	for i := s.pos; ; i++ {
		if i >= s.end {
			off := i - s.pos
			if s.end-s.start > maxTagBytes {
				return 0, s.errorf("tag longer than %d bytes", maxTagBytes)
			}
			if !s.fill() {
				return 0, s.readErr()
			}
			i = s.pos + off
		}
		c := s.buf[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i, nil
		}
	}
}

func (s *xmlScanner) scanEnd() (tokKind, error) {
	// The common case: the name of the open element and '>'.
	if d := s.depth(); d > 0 {
		top := s.openName(d - 1)
		at := s.pos + 2
		if at+len(top) < s.end && s.buf[at+len(top)] == '>' && string(s.buf[at:at+len(top)]) == string(top) {
			s.pos = at + len(top) + 1
			s.kind, s.name = tokEnd, s.buf[at:at+len(top)]
			s.pop()
			return tokEnd, nil
		}
	}
	s.pos += 2
	end, err := s.tagEnd()
	if err != nil {
		return 0, err
	}
	local, _, err := s.scanName(end)
	if err != nil {
		return 0, err
	}
	for s.pos < end && isXMLSpace(s.buf[s.pos]) {
		s.pos++
	}
	if s.pos != end {
		return 0, s.errorf("invalid characters in </%s>", msgName(local))
	}
	s.pos = end + 1
	if s.depth() == 0 {
		return 0, s.errorf("unexpected </%s>", msgName(local))
	}
	if top := s.openName(s.depth() - 1); !bytes.Equal(top, local) {
		return 0, s.errorf("</%s> closes <%s>", msgName(local), msgName(top))
	}
	s.kind, s.name = tokEnd, local
	s.pop()
	return tokEnd, nil
}

// bareValueKeys may carry an unquoted value of letters (CubeLib writes
// <cubepl rowwise=false> and <cubeplaggr cubeplaggrtype=plus>).
func isBareValueKey(k []byte) bool {
	switch string(k) {
	case "rowwise", "cubeplaggrtype", "locationwise":
		return true
	}
	return false
}

const bareValueMax = 16 // longest unquoted value accepted

func (s *xmlScanner) scanStart() (tokKind, error) {
	if s.scanStartFast() {
		return tokStart, nil
	}
	if s.done {
		return 0, s.errorf("a second root element after the end of the first")
	}
	if s.depth() >= maxXMLDepth {
		return 0, s.errorf("elements nested deeper than %d", maxXMLDepth)
	}
	s.pos++
	end, err := s.tagEnd()
	if err != nil {
		return 0, err
	}
	local, _, err := s.scanName(end)
	if err != nil {
		return 0, err
	}
	s.attrs = s.attrs[:0]
	s.adec = s.adec[:0]
	type span struct {
		k, v0, v1 int    // value in s.adec[v0:v1] …
		raw       []byte // … or here, in the buffer
	}
	var spans [16]span
	sp := spans[:0]
	selfClose := false
	for {
		sawSpace := false
		for s.pos < end && isXMLSpace(s.buf[s.pos]) {
			s.pos++
			sawSpace = true
		}
		if s.pos == end {
			break
		}
		if s.buf[s.pos] == '/' {
			if s.pos+1 != end {
				return 0, s.errorf("expected /> in <%s>", msgName(local))
			}
			selfClose = true
			break
		}
		if !sawSpace {
			return 0, s.errorf("expected space before an attribute in <%s>", msgName(local))
		}
		key, full, err := s.scanName(end)
		if err != nil {
			return 0, err
		}
		for s.pos < end && isXMLSpace(s.buf[s.pos]) {
			s.pos++
		}
		if s.pos >= end || s.buf[s.pos] != '=' {
			return 0, s.errorf("attribute %s without value in <%s>", msgName(full), msgName(local))
		}
		s.pos++
		for s.pos < end && isXMLSpace(s.buf[s.pos]) {
			s.pos++
		}
		if s.pos < end && (s.buf[s.pos] == '"' || s.buf[s.pos] == '\'') {
			q := s.buf[s.pos]
			j := bytes.IndexByte(s.buf[s.pos+1:end], q)
			if j < 0 {
				return 0, s.errorf("unterminated value of %s in <%s>", msgName(full), msgName(local))
			}
			raw := s.buf[s.pos+1 : s.pos+1+j]
			s.pos += j + 2
			if bytes.IndexByte(raw, '<') >= 0 {
				return 0, s.errorf("unescaped < in the value of %s", msgName(full))
			}
			if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, ']') < 0 {
				if err := s.checkChars(raw); err != nil {
					return 0, err
				}
				sp = append(sp, span{k: len(s.attrs), raw: raw})
			} else {
				v0 := len(s.adec)
				if s.adec, err = s.decode(s.adec, raw); err != nil {
					return 0, err
				}
				sp = append(sp, span{k: len(s.attrs), v0: v0, v1: len(s.adec)})
			}
		} else {
			j := s.pos
			for j < end && j-s.pos <= bareValueMax && isLetter(s.buf[j]) {
				j++
			}
			if !isBareValueKey(full) || j == s.pos || j-s.pos > bareValueMax ||
				(j < end && !isXMLSpace(s.buf[j]) && s.buf[j] != '/') {
				return 0, s.errorf("unquoted value of %s in <%s>", msgName(full), msgName(local))
			}
			v0 := len(s.adec)
			s.adec = append(s.adec, s.buf[s.pos:j]...)
			sp = append(sp, span{k: len(s.attrs), v0: v0, v1: len(s.adec)})
			s.pos = j
		}
		if len(full) != len(key) { // a prefixed name: xmlns:x, x:attr
			sp = sp[:len(sp)-1]
			continue
		}
		// A repeated attribute keeps its first position and takes the
		// last value.
		dup := -1
		for i := range s.attrs {
			if bytes.Equal(s.attrs[i].key, key) {
				dup = i
			}
		}
		if dup >= 0 {
			sp[len(sp)-1].k = dup
			continue
		}
		s.attrs = append(s.attrs, xmlAttr{key: key})
	}
	// Values live in s.adec, which may have moved while growing.
	for _, x := range sp {
		if x.raw != nil {
			s.attrs[x.k].val = x.raw[:len(x.raw):len(x.raw)]
		} else {
			s.attrs[x.k].val = s.adec[x.v0:x.v1:x.v1]
		}
	}
	s.pos = end + 1
	s.push(local)
	s.kind, s.name = tokStart, local
	if selfClose {
		s.endPending, s.pendName = true, local
	}
	return tokStart, nil
}

// attr returns the value of the attribute key (the last one when repeated).
func (s *xmlScanner) attr(key string) ([]byte, bool) {
	for i := len(s.attrs) - 1; i >= 0; i-- {
		if string(s.attrs[i].key) == key {
			return s.attrs[i].val, true
		}
	}
	return nil, false
}

// scanText reads character data up to the next '<' (or a piece of at most
// maxTextPiece bytes of it).
func (s *xmlScanner) scanText() (tokKind, error) {
	i := s.pos
	for {
		if j := bytes.IndexByte(s.buf[i:s.end], '<'); j >= 0 {
			i += j
			break
		}
		i = s.end
		if i-s.start >= maxTextPiece {
			// Cut before a possibly incomplete entity reference.
			if a := bytes.LastIndexByte(s.buf[max(s.start, i-ampHold):i], '&'); a >= 0 {
				i = max(s.start, i-ampHold) + a
				if i == s.start {
					i = s.end
				}
			}
			break
		}
		off := i - s.pos
		if !s.fill() {
			if s.rerr != nil && s.rerr != io.EOF {
				return 0, fmt.Errorf("reading: %w", s.rerr)
			}
			i = s.end
			break
		}
		i = s.pos + off
	}
	raw := s.buf[s.pos:i]
	s.pos = i
	if s.depth() == 0 && !isBlank(raw) {
		if !s.done {
			return 0, s.errorf("text outside the root element")
		}
		raw = raw[:0] // trailing bytes after the root element are ignored
	}
	s.setText(raw, false)
	return tokText, nil
}

func (s *xmlScanner) setText(raw []byte, cdata bool) {
	s.kind, s.raw, s.cdata, s.text, s.dirty = tokText, raw, cdata, nil, true
}

// blank reports whether the current text token is only white space.
func (s *xmlScanner) blank() bool { return isBlank(s.raw) }

// textBytes returns the current text token with references resolved and
// line ends normalised, or an error for characters XML does not allow.
// The result is valid until the next token.
func (s *xmlScanner) textBytes() ([]byte, error) {
	if !s.dirty {
		return s.text, nil
	}
	var err error
	switch {
	case s.rawText && !s.cdata && bytes.IndexByte(s.raw, '&') < 0:
		s.text = s.raw
	case s.cdata:
		if err = s.checkChars(s.raw); err == nil {
			s.dec = normalizeNewlines(s.dec[:0], s.raw)
			s.text = s.dec
		}
	default:
		if s.dec, err = s.decode(s.dec[:0], s.raw); err == nil {
			s.text = s.dec
		}
	}
	if err != nil {
		return nil, err
	}
	s.dirty = false
	return s.text, nil
}

// checkText checks the characters of the current text token.
func (s *xmlScanner) checkText() error {
	if !s.dirty || isBlank(s.raw) {
		return nil
	}
	if s.rawText && !s.cdata {
		if err := s.checkChars(s.raw); err != nil {
			return err
		}
		if bytes.Contains(s.raw, []byte("]]>")) {
			return s.errorf("unescaped ]]> not in CDATA section")
		}
	}
	_, err := s.textBytes()
	return err
}

// decode appends raw with entity and character references resolved and
// line ends normalised to '\n', checking the characters.
func (s *xmlScanner) decode(dst, raw []byte) ([]byte, error) {
	if err := s.checkChars(raw); err != nil {
		return nil, err
	}
	if bytes.Contains(raw, []byte("]]>")) {
		return nil, s.errorf("unescaped ]]> not in CDATA section")
	}
	amp := bytes.IndexByte(raw, '&')
	cr := bytes.IndexByte(raw, '\r')
	if amp < 0 && cr < 0 {
		return append(dst, raw...), nil
	}
	for len(raw) > 0 {
		amp = bytes.IndexByte(raw, '&')
		if amp < 0 {
			return normalizeNewlines(dst, raw), nil
		}
		dst = normalizeNewlines(dst, raw[:amp])
		raw = raw[amp:]
		if !knownReference(raw) { // a bare '&' is a literal, as CubeLib reads it
			dst = append(dst, '&')
			raw = raw[1:]
			continue
		}
		r, n := entity(raw)
		if n == 0 {
			return nil, s.errorf("character reference %s names no character XML allows", clip(string(raw[:bytes.IndexByte(raw, ';')+1])))
		}
		dst = utf8.AppendRune(dst, r)
		raw = raw[n:]
	}
	return dst, nil
}

// entity decodes the reference at the start of b ("&amp;", "&#38;",
// "&#x26;"), returning its character and length, or 0 when b does not
// start with a reference to a character XML allows.
func entity(b []byte) (rune, int) {
	semi := bytes.IndexByte(b[:min(len(b), ampHold)], ';')
	if semi < 2 {
		return 0, 0
	}
	name := b[1:semi]
	switch string(name) {
	case "amp":
		return '&', semi + 1
	case "lt":
		return '<', semi + 1
	case "gt":
		return '>', semi + 1
	case "quot":
		return '"', semi + 1
	case "apos":
		return '\'', semi + 1
	}
	if name[0] != '#' || len(name) < 2 {
		return 0, 0
	}
	var v uint64
	var err error
	if name[1] == 'x' {
		if len(name) < 3 {
			return 0, 0
		}
		v, err = strconv.ParseUint(string(name[2:]), 16, 32)
	} else {
		v, err = strconv.ParseUint(string(name[1:]), 10, 32)
	}
	if err != nil || !isXMLChar(rune(v)) {
		return 0, 0
	}
	return rune(v), semi + 1
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// checkChars rejects control characters and invalid UTF-8.
func (s *xmlScanner) checkChars(raw []byte) error {
	// Eight bytes at a time while all are printable ASCII: no byte below
	// 0x20 (no borrow in the subtraction) and none from 0x80.
	for len(raw) >= 8 {
		w := binary.LittleEndian.Uint64(raw)
		if (w|(w-0x2020202020202020))&0x8080808080808080 != 0 {
			break
		}
		raw = raw[8:]
	}
	ascii := true
	for _, c := range raw {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
			return s.errorf("illegal character code U+%04X", c)
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return nil
	}
	for len(raw) > 0 {
		r, n := utf8.DecodeRune(raw)
		if r == utf8.RuneError && n == 1 {
			return s.errorf("invalid UTF-8")
		}
		if !isXMLChar(r) {
			return s.errorf("illegal character code U+%04X", r)
		}
		raw = raw[n:]
	}
	return nil
}

// normalizeNewlines appends raw with "\r\n" and lone "\r" turned into "\n".
func normalizeNewlines(dst, raw []byte) []byte {
	for {
		i := bytes.IndexByte(raw, '\r')
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i]...)
		dst = append(dst, '\n')
		raw = raw[i+1:]
		if len(raw) > 0 && raw[0] == '\n' {
			raw = raw[1:]
		}
	}
}

// trailing reports whether anything but white space follows the root
// element, looking at one more chunk of input at most.
func (s *xmlScanner) trailing() bool {
	if !isBlank(s.buf[s.pos:s.end]) {
		return true
	}
	s.start, s.pos = s.end, s.end
	return s.fill() && !isBlank(s.buf[s.pos:s.end])
}

// skip consumes the rest of the element whose start tag was just read,
// checking that it is well-formed.
func (s *xmlScanner) skip() error {
	depth := s.depth()
	for s.depth() >= depth {
		k, err := s.next()
		if err != nil {
			return err
		}
		if k == tokText {
			if err := s.checkText(); err != nil {
				return err
			}
		}
	}
	return nil
}

// plainAttrByte marks the bytes an attribute value may hold and still be
// used as it is: printable ASCII but '<', '&' and ']', and tab and
// newline.
var plainAttrByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '<' && c != '&' && c != ']'
	}
	t['\t'], t['\n'] = true, true
	return t
}()

// simpleNameByte marks the bytes of names scanStartFast reads: ASCII
// name characters without ':'.
var simpleNameByte = func() (t [256]bool) {
	for c := 0; c < 0x80; c++ {
		t[c] = isNameByte(byte(c)) && c != ':'
	}
	return t
}()

// scanStartFast reads the start tag at s.pos when it lies in the buffer
// and is of the plain kind CUBE writers produce: ASCII names without
// prefixes, quoted values that need neither decoding nor checking beyond
// plainAttrByte, no repeated attribute, single spaces or other white
// space between attributes and none around '='. It reports false,
// changing nothing that scanStart relies on, for anything else, which
// scanStart then reads (and judges) the general way.
func (s *xmlScanner) scanStartFast() bool {
	if s.done || len(s.openAt) >= maxXMLDepth {
		return false
	}
	buf := s.buf[:s.end]
	i := s.pos + 1
	n0 := i
	for i < len(buf) && simpleNameByte[buf[i]] {
		i++
	}
	if i == n0 || !isNameStart(buf[n0]) {
		return false
	}
	name := buf[n0:i]
	attrs := s.attrs[:0]
	selfClose := false
	for {
		sp := i
		for i < len(buf) && isXMLSpace(buf[i]) {
			i++
		}
		if i >= len(buf) {
			return false
		}
		c := buf[i]
		if c == '>' {
			i++
			break
		}
		if c == '/' {
			if i+1 < len(buf) && buf[i+1] == '>' {
				selfClose = true
				i += 2
				break
			}
			return false
		}
		if i == sp || !isNameStart(c) {
			return false
		}
		k0 := i
		for i < len(buf) && simpleNameByte[buf[i]] {
			i++
		}
		key := buf[k0:i]
		if i+1 >= len(buf) || buf[i] != '=' {
			return false
		}
		q := buf[i+1]
		if q != '"' && q != '\'' {
			return false
		}
		v0 := i + 2
		j := bytes.IndexByte(buf[v0:], q)
		if j < 0 {
			return false
		}
		val := buf[v0 : v0+j : v0+j]
		for _, c := range val {
			if !plainAttrByte[c] {
				return false
			}
		}
		for _, a := range attrs {
			if string(a.key) == string(key) {
				return false
			}
		}
		attrs = append(attrs, xmlAttr{key: key, val: val})
		i = v0 + j + 1
	}
	s.attrs = attrs
	s.pos = i
	s.push(name)
	s.kind, s.name = tokStart, name
	if selfClose {
		s.endPending, s.pendName = true, name
	}
	return true
}

// msgName returns an element or attribute name for an error message: as
// it is, or quoted and cut (importer.Quote) when it is longer than a
// message should carry.
func msgName(b []byte) string {
	if len(b) <= importer.MaxQuote {
		return string(b)
	}
	return importer.Quote(string(b))
}
