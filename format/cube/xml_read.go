package cube

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"cubeview/format/importer"
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
	// Trailing is true when non-blank bytes follow the root element
	// (within what was read ahead; they are ignored).
	Trailing bool
}

// maxXMLDepth bounds element nesting; real call trees stay far below it,
// and it keeps hostile input from exhausting memory through recursion.
const maxXMLDepth = 100000

// maxFieldText bounds the text of one element read into a string (a name,
// a description, a CubePL expression).
const maxFieldText = 64 << 20

// decodeXML parses a CUBE XML document: CUBE 2.0, CUBE 3.0 (a whole .cube
// file, with severity) or a CUBE 4 anchor.xml (versions 4.x, or 3.0 inside
// a .cubex). The input may be gzip-compressed. name is the file (or
// "file.cubex:anchor.xml") for error messages. Reading stops at the end of
// the root element; whatever follows it is ignored.
func decodeXML(r io.Reader, name string) (*xmlDoc, error) {
	doc, err := readXMLDoc(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	doc.Exp.Source = name
	if doc.Trailing {
		doc.Exp.Warnings = append(doc.Exp.Warnings, "the bytes after </cube> are ignored")
	}
	return doc, nil
}

func readXMLDoc(r io.Reader) (*xmlDoc, error) {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err == nil || err == io.EOF {
			return nil, errors.New("empty file")
		}
		return nil, err
	}
	var src io.Reader = br // a *bufio.Reader
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		src = bufio.NewReaderSize(&inflateGuard{r: zr, in: cr}, 64<<10)
	}
	// A UTF-8 byte-order mark, which some editors and Windows tools
	// write, says nothing more than the XML declaration does.
	if bom, _ := src.(*bufio.Reader).Peek(3); string(bom) == "\xef\xbb\xbf" {
		src.(*bufio.Reader).Discard(3)
	}
	p := &xmlParser{s: newXMLScanner(src)}
	return p.parse()
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Compressed CUBE XML inflates 5 to 50-fold; gzip cannot exceed about
// 1,030-fold. Input that inflates beyond maxInflateRatio once it has
// passed bombCheckBytes is rejected, so that a small file cannot keep the
// reader busy with gigabytes of nothing.
const (
	maxInflateRatio = 500
	bombCheckBytes  = 256 << 20
)

// inflateGuard passes decompressed data on and stops a decompression bomb.
type inflateGuard struct {
	r   io.Reader
	in  *countingReader // the compressed input
	out int64
}

func (g *inflateGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.out += int64(n)
	if g.out > bombCheckBytes && g.out > maxInflateRatio*g.in.n {
		return n, fmt.Errorf("gzip: %d MB inflated from %d KB of compressed data (more than %d-fold): not CUBE data, or a decompression bomb",
			g.out>>20, g.in.n>>10, maxInflateRatio)
	}
	return n, err
}

// xmlParser reads a CUBE document from the scanner: metadata straight into
// the builder's experiment, the severity section into data blocks.
type xmlParser struct {
	s    *xmlScanner
	b    *builder
	tbuf []byte // text being collected

	// seen records which of metrics, program and system were read.
	seen   [3]bool
	titles [3]*string
	// refs holds per cnode the region (calleeId) or, in CUBE 2, the call
	// site (csiteId) it names; they are resolved at the end of <program>,
	// which may declare regions after the cnodes.
	refs  []int
	carts []rawCart
	strs  map[string]string // interned strings
}

func (p *xmlParser) line() int { return p.s.line() }

func (p *xmlParser) parse() (*xmlDoc, error) {
	s := p.s
	// Prolog: everything up to the root element.
	for {
		k, err := s.next()
		if err != nil {
			return nil, fmt.Errorf("not a CUBE XML document: %w", err)
		}
		if k == tokEOF {
			return nil, errors.New("not a CUBE document: no root element")
		}
		if k == tokStart {
			break
		}
		if k == tokEnd {
			return nil, errors.New("not a CUBE XML document: end tag before the root element")
		}
	}
	if string(s.name) != "cube" {
		return nil, fmt.Errorf("not a CUBE document: root element is <%s>, want <cube>", s.name)
	}
	v, _ := s.attr("version")
	version := strings.TrimSpace(string(v))
	if !supportedVersion(version) {
		return nil, fmt.Errorf("unsupported CUBE version %s (want 2.0, 3.0 or 4.x)", importer.Quote(version))
	}
	p.b = newBuilder(version)
	built := false
	for {
		k, err := s.next()
		if err != nil {
			return nil, err
		}
		switch k {
		case tokEnd: // </cube>: stop, whatever follows
			if !built {
				if err := p.complete(); err != nil {
					return nil, err
				}
			}
			doc, err := p.b.finish()
			if err != nil {
				return nil, err
			}
			doc.Trailing = s.trailing()
			return doc, nil
		case tokText:
			if !s.blank() {
				t, err := s.textBytes()
				if err != nil {
					return nil, err
				}
				if len(strings.TrimSpace(string(t))) > 0 {
					return nil, fmt.Errorf("line %d: unexpected text %s", p.line(), clip(string(t)))
				}
			}
		case tokStart:
			if built { // after the severity section: only well-formedness
				if err := s.skip(); err != nil {
					return nil, err
				}
				continue
			}
			if string(s.name) == "severity" {
				if err := p.complete(); err != nil {
					return nil, err
				}
				built = true
				if err := p.severity(); err != nil {
					return nil, err
				}
				continue
			}
			if err := p.rootChild(); err != nil {
				return nil, err
			}
		}
	}
}

// rootChild reads one child element of <cube> whose start tag was just read.
func (p *xmlParser) rootChild() error {
	s, b := p.s, p.b
	switch string(s.name) {
	case "attr":
		key, ok := s.attr("key")
		if !ok {
			return errors.New("<attr> without key")
		}
		value, _ := s.attr("value")
		b.e.Attrs = append(b.e.Attrs, model.Attr{Key: string(key), Value: string(value)})
	case "doc":
		return p.children(func() error {
			if string(s.name) != "mirrors" {
				return nil
			}
			return p.children(func() error {
				if string(s.name) != "murl" {
					return nil
				}
				u, err := p.text()
				b.e.Mirrors = append(b.e.Mirrors, u)
				return err
			})
		})
	case "metrics", "behavior":
		p.section(0)
		return p.children(func() error {
			if string(s.name) == "metric" {
				return p.metric(-1)
			}
			return nil
		})
	case "program":
		p.section(1)
		if err := p.children(p.programChild); err != nil {
			return err
		}
		return p.resolveCnodes()
	case "system", "locations":
		p.section(2)
		if err := p.children(p.systemChild); err != nil {
			return err
		}
		b.renumberTreeNodes()
		for i := range p.carts {
			if err := b.cart(&p.carts[i]); err != nil {
				return err
			}
		}
		p.carts = nil
		return nil
	}
	return s.skip()
}

// section starts reading metadata section i (metrics, program, system):
// a repeated section replaces the earlier one, as the last one wins.
func (p *xmlParser) section(i int) {
	b := p.b
	if t, ok := p.s.attr("title"); ok {
		title := string(t)
		p.titles[i] = &title
	} else {
		p.titles[i] = nil
	}
	if !p.seen[i] {
		p.seen[i] = true
		return
	}
	switch i {
	case 0:
		b.e.Metrics, b.metricByID = nil, map[int]int{}
	case 1:
		b.e.Regions, b.e.Cnodes, p.refs = nil, nil, nil
		b.regionByID, b.cnodeByID, b.modules, b.csites = map[int]int{}, map[int]int{}, map[int]string{}, map[int]csite{}
	case 2:
		b.e.System, b.fileID, b.leaves, p.carts = nil, nil, nil, nil
		b.locids = map[int]int{}
		for sp := range b.sysByID {
			b.sysByID[sp] = map[int]int{}
		}
	}
}

// complete checks that the metadata sections were read and completes the
// experiment's structure.
func (p *xmlParser) complete() error {
	b := p.b
	want := [3]string{"metrics", "program", "system"}
	if b.v2 {
		want = [3]string{"behavior", "program", "locations"}
	}
	for i := range want {
		if !p.seen[i] {
			return fmt.Errorf("missing <%s> section", want[i])
		}
	}
	for i, t := range p.titles {
		if t != nil {
			b.e.Attrs = append(b.e.Attrs, model.Attr{Key: titleKeyPrefix + want[i] + " title", Value: *t})
		}
	}
	return b.complete()
}

// children calls fn for every child element of the element whose start
// tag was just read, with the child's start tag current; whatever fn
// leaves of the child is skipped. Text between children is ignored.
func (p *xmlParser) children(fn func() error) error {
	s := p.s
	depth := s.depth()
	for {
		k, err := s.next()
		if err != nil {
			return err
		}
		switch k {
		case tokStart:
			d := s.depth()
			if err := fn(); err != nil {
				return err
			}
			for s.depth() >= d {
				if _, err := s.next(); err != nil {
					return err
				}
			}
		case tokText:
			if err := s.checkText(); err != nil {
				return err
			}
		case tokEnd:
			if s.depth() < depth {
				return nil
			}
		}
	}
}

// text reads the character data directly inside the element whose start
// tag was just read, up to its end; text of nested elements is skipped.
func (p *xmlParser) text() (string, error) {
	if err := p.readText(); err != nil {
		return "", err
	}
	return string(p.tbuf), nil
}

// readText reads what text returns into p.tbuf.
func (p *xmlParser) readText() error {
	s := p.s
	depth := s.depth()
	p.tbuf = p.tbuf[:0]
	for {
		k, err := s.next()
		if err != nil {
			return err
		}
		switch k {
		case tokText:
			if s.depth() != depth {
				continue
			}
			t, err := s.textBytes()
			if err != nil {
				return err
			}
			p.tbuf = append(p.tbuf, t...)
			if len(p.tbuf) > maxFieldText {
				return fmt.Errorf("line %d: <%s> holds more than %d MB of text", p.line(), s.openName(depth-1), maxFieldText>>20)
			}
		case tokStart:
			if err := s.skip(); err != nil {
				return err
			}
		case tokEnd:
			if s.depth() < depth {
				return nil
			}
		}
	}
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

// clip quotes s, trimmed, for an error message (importer.Quote: bounded).
func clip(s string) string { return importer.Quote(strings.TrimSpace(s)) }
