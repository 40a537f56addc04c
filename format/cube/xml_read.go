package cube

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/beevik/etree"

	"cubeview/model"
)

// xmlDoc is a decoded CUBE XML document.
type xmlDoc struct {
	// Exp has complete metadata: linked, locations numbered, Validate-clean.
	Exp *model.Experiment
	// Version is the version attribute of the root element: "2.0", "3.0", "4.4", …
	Version string
	// LocationColumn maps a location's file Id (the thread Id in CUBE 3,
	// the locid in CUBE 2) to its data column.
	LocationColumn map[int]int
	// HasSeverity is true for CUBE 2 and CUBE 3 documents, whose data are
	// installed in Exp with SetBlock (canonical storage; metrics without
	// values get an all-zero block).
	HasSeverity bool
}

// maxXMLDepth bounds element nesting; real call trees stay far below it,
// and it keeps hostile input from exhausting memory through recursion.
const maxXMLDepth = 100000

// decodeXML parses a CUBE XML document: CUBE 2.0, CUBE 3.0 (a whole .cube
// file, with severity) or a CUBE 4 anchor.xml (versions 4.x, or 3.0 inside
// a .cubex). The input may be gzip-compressed. name is the file (or
// "file.cubex:anchor.xml") for error messages.
func decodeXML(r io.Reader, name string) (*xmlDoc, error) {
	doc, err := readXMLDoc(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	doc.Exp.Source = name
	return doc, nil
}

func readXMLDoc(r io.Reader) (*xmlDoc, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err == nil || err == io.EOF {
			return nil, errors.New("empty file")
		}
		return nil, err
	}
	var src io.Reader = br
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		src = zr
	}
	p := &xmlParser{}
	p.dec = xml.NewDecoder(&bareAttrQuoter{r: &bareAmpEscaper{r: src}})
	p.dec.Strict = true
	p.dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return p.parse()
}

// xmlParser turns the token stream into an etree for the metadata and
// streams the severity section straight into data blocks.
type xmlParser struct {
	dec   *xml.Decoder
	stack []string // names of the open elements
	b     *builder
}

func (p *xmlParser) token() (xml.Token, error) {
	t, err := p.dec.RawToken()
	if err == io.EOF {
		if len(p.stack) > 0 {
			return nil, fmt.Errorf("unexpected end of file inside <%s> (truncated XML?)", p.stack[len(p.stack)-1])
		}
		return nil, io.EOF
	}
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			if strings.Contains(se.Msg, "unexpected EOF") {
				return nil, fmt.Errorf("unexpected end of file on line %d (truncated XML?)", se.Line)
			}
			return nil, fmt.Errorf("malformed XML: %w", err)
		}
		return nil, fmt.Errorf("reading: %w", err)
	}
	switch t := t.(type) {
	case xml.StartElement:
		if len(p.stack) >= maxXMLDepth {
			return nil, fmt.Errorf("line %d: elements nested deeper than %d", p.line(), maxXMLDepth)
		}
		p.stack = append(p.stack, t.Name.Local)
	case xml.EndElement:
		if len(p.stack) == 0 || p.stack[len(p.stack)-1] != t.Name.Local {
			if len(p.stack) == 0 {
				return nil, fmt.Errorf("malformed XML: line %d: unexpected </%s>", p.line(), t.Name.Local)
			}
			return nil, fmt.Errorf("malformed XML: line %d: </%s> closes <%s>", p.line(), t.Name.Local, p.stack[len(p.stack)-1])
		}
		p.stack = p.stack[:len(p.stack)-1]
	}
	return t, nil
}

func (p *xmlParser) line() int {
	l, _ := p.dec.InputPos()
	return l
}

func (p *xmlParser) parse() (*xmlDoc, error) {
	// Prolog: everything up to the root element.
	var root xml.StartElement
	for {
		t, err := p.token()
		if err == io.EOF {
			return nil, errors.New("not a CUBE document: no root element")
		}
		if err != nil {
			return nil, fmt.Errorf("not a CUBE XML document: %w", err)
		}
		if se, ok := t.(xml.StartElement); ok {
			root = se
			break
		}
		if cd, ok := t.(xml.CharData); ok && len(strings.TrimSpace(string(cd))) > 0 {
			return nil, errors.New("not a CUBE XML document: text before the root element")
		}
	}
	if root.Name.Local != "cube" {
		return nil, fmt.Errorf("not a CUBE document: root element is <%s>, want <cube>", root.Name.Local)
	}
	version := strings.TrimSpace(attrOf(root, "version"))
	if !supportedVersion(version) {
		return nil, fmt.Errorf("unsupported CUBE version %q (want 2.0, 3.0 or 4.x)", version)
	}
	p.b = newBuilder(version)
	rootEl := etree.NewElement("cube")
	cur := rootEl
	built := false
	for {
		t, err := p.token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			if cur == nil { // after the severity section: only check well-formedness
				continue
			}
			if cur == rootEl && t.Name.Local == "severity" {
				if err := p.b.build(rootEl); err != nil {
					return nil, err
				}
				built = true
				if err := p.severity(); err != nil {
					return nil, err
				}
				cur = nil
				continue
			}
			el := cur.CreateElement(t.Name.Local)
			for _, a := range t.Attr {
				if a.Name.Space == "" {
					el.CreateAttr(a.Name.Local, a.Value)
				}
			}
			cur = el
		case xml.EndElement:
			if cur != nil {
				cur = cur.Parent()
			}
		case xml.CharData:
			if cur != nil && cur != rootEl {
				cur.CreateText(string(t))
			} else if len(strings.TrimSpace(string(t))) > 0 {
				return nil, fmt.Errorf("line %d: unexpected text %q", p.line(), clip(string(t)))
			}
		}
	}
	if !built {
		if err := p.b.build(rootEl); err != nil {
			return nil, err
		}
	}
	return p.b.finish()
}

func supportedVersion(v string) bool {
	switch v {
	case "2.0", "3.0":
		return true
	}
	rest, ok := strings.CutPrefix(v, "4.")
	if !ok || rest == "" || len(rest) > 2 {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func attrOf(se xml.StartElement, key string) string {
	for _, a := range se.Attr {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}

// clip shortens s for an error message.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// bareAttrQuoter quotes the bare attribute values CubeLib writes in
// <cubepl rowwise=false> and <cubeplaggr cubeplaggrtype=plus> (CubeLib's
// own scanner accepts nothing else), which are not well-formed XML.
type bareAttrQuoter struct {
	r       io.Reader
	buf     []byte // input not yet passed on
	pending []byte // output not yet returned
	out     []byte
	err     error
}

var bareAttrKeys = [][]byte{[]byte("rowwise="), []byte("cubeplaggrtype="), []byte("locationwise=")}

const (
	bareValueMax = 16 // longest bare value quoted
	bareHold     = 64 // input held back so a key and its value are seen whole
)

func (q *bareAttrQuoter) Read(p []byte) (int, error) {
	for len(q.pending) == 0 {
		if q.err != nil && len(q.buf) == 0 {
			return 0, q.err
		}
		if q.err == nil {
			if cap(q.buf)-len(q.buf) < 32<<10 {
				nb := make([]byte, len(q.buf), len(q.buf)+64<<10)
				copy(nb, q.buf)
				q.buf = nb
			}
			n, err := q.r.Read(q.buf[len(q.buf):cap(q.buf)])
			q.buf = q.buf[:len(q.buf)+n]
			q.err = err
		}
		safe := len(q.buf)
		if q.err == nil {
			safe -= bareHold
		}
		if safe <= 0 {
			continue
		}
		used := q.quote(safe)
		q.pending = q.out
		q.buf = q.buf[:copy(q.buf, q.buf[used:])]
	}
	n := copy(p, q.pending)
	q.pending = q.pending[n:]
	return n, nil
}

// quote copies buf up to at least safe into out, quoting bare values of
// keys that start before safe, and returns how much of buf it consumed.
func (q *bareAttrQuoter) quote(safe int) int {
	q.out = q.out[:0]
	i := 0
	for {
		at, key := -1, 0
		for _, k := range bareAttrKeys {
			if j := indexBefore(q.buf[i:], k, safe-i); j >= 0 && (at < 0 || j < at) {
				at, key = j, len(k)
			}
		}
		if at < 0 {
			q.out = append(q.out, q.buf[i:safe]...)
			return safe
		}
		v := i + at + key // start of the value
		e := v
		for e < len(q.buf) && e-v <= bareValueMax && isLetter(q.buf[e]) {
			e++
		}
		if e > v && e-v <= bareValueMax && (e < len(q.buf) || q.err != nil) {
			q.out = append(q.out, q.buf[i:v]...)
			q.out = append(q.out, '"')
			q.out = append(q.out, q.buf[v:e]...)
			q.out = append(q.out, '"')
		} else {
			q.out = append(q.out, q.buf[i:e]...)
		}
		i = e
		if i >= safe {
			return i
		}
	}
}

// indexBefore returns the index of k in b if it starts before limit, else -1.
func indexBefore(b, k []byte, limit int) int {
	if limit <= 0 {
		return -1
	}
	j := bytes.Index(b, k)
	if j >= limit {
		return -1
	}
	return j
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
