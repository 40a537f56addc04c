package cube

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"cubeview/format/importer"
	"cubeview/model"
)

// anchorName is the member of a .cubex archive that holds the metadata.
const anchorName = "anchor.xml"

// cubexArchive is an indexed .cubex tar archive.
type cubexArchive struct {
	name    string // file name for messages
	r       io.ReaderAt
	closer  io.Closer // closed once every metric's data are loaded; may be nil
	closed  bool      // closer was closed
	members map[string]tarMember
	// unterminated is where the archive ends without tar's end-of-archive
	// blocks, -1 when it has them: it may have been cut after a member.
	unterminated int64
}

// indexArchive lists the members of the .cubex archive in r.
func indexArchive(r io.ReaderAt, size int64, name string, closer io.Closer) (*cubexArchive, error) {
	if size == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	members, unterminated, err := readTarArchive(r, size)
	if err != nil {
		if errors.Is(err, errNotTar) {
			return nil, fmt.Errorf("%s: not a .cubex file: %w", name, err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &cubexArchive{name: name, r: r, closer: closer, members: members, unterminated: unterminated}, nil
}

// anchor returns a reader of anchor.xml, decompressing it within the
// decompression budget of every compressed input (importer.Budget) when
// the member is gzip-compressed, and the member's size.
func (a *cubexArchive) anchor() (io.Reader, int64, error) {
	m, ok := a.members[anchorName]
	if !ok {
		return nil, 0, fmt.Errorf("%s: the .cubex archive has no %s member (%d other members)", a.name, anchorName, len(a.members))
	}
	br := bufio.NewReaderSize(io.NewSectionReader(a.r, m.offset, m.size), 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %s: %w", a.name, anchorName, err)
		}
		return importer.Limit(zr, importer.Budget(m.size)), m.size, nil
	}
	return br, m.size, nil
}

// metricData locates one metric's stored values.
type metricData struct {
	index, data tarMember
	layout      dataLayout
}

// cubexLoader reads metric blocks from a .cubex archive on first use; it
// implements model.Loader.
type cubexLoader struct {
	arch    *cubexArchive
	e       *model.Experiment
	cols    []int         // file column → data column; nil when they agree
	metrics []*metricData // per metric, nil when nothing is stored

	enumOnce   sync.Once
	deep, wide []int

	mu       sync.Mutex
	pending  int  // metrics whose data are not loaded yet
	keepOpen bool // an on-demand block reads from the file
}

// attachData checks the data members of every metric of e against the
// archive (sizes only, no values are read) and installs a loader that
// reads each metric's values on first use. locationColumn maps a
// location's file Id to its data column, as decoded from anchor.xml.
//
// A metric whose data type is not a single number is marked Unavailable
// and its members are ignored.
func (a *cubexArchive) attachData(e *model.Experiment, locationColumn map[int]int) error {
	ld := &cubexLoader{arch: a, e: e, metrics: make([]*metricData, len(e.Metrics))}
	var err error
	if ld.cols, err = fileColumns(e, locationColumn); err != nil {
		return fmt.Errorf("%s: %w", a.name, err)
	}
	nc, nl := len(e.Cnodes), len(e.Locations)
	var missing []string // metrics without members in an archive that may be cut
	for m := range e.Metrics {
		met := &e.Metrics[m]
		if !met.HasStoredValues() {
			continue
		}
		kind, ok := scalarTypeOf(met.DataType)
		if !ok {
			met.Unavailable = fmt.Sprintf("data type %s is not a single number", met.DataType)
			continue
		}
		id := strconv.Itoa(met.ID)
		index, hasIndex := a.members[id+".index"]
		data, hasData := a.members[id+".data"]
		switch {
		case !hasIndex && !hasData:
			if a.unterminated >= 0 {
				missing = append(missing, strconv.Quote(met.UniqName))
			}
			continue // nothing stored: all zero
		case !hasIndex:
			return fmt.Errorf("%s: %smetric %s has %s.data but no %s.index", a.name, a.cut(), importer.Quote(met.UniqName), id, id)
		case !hasData:
			return fmt.Errorf("%s: %smetric %s has %s.index but no %s.data", a.name, a.cut(), importer.Quote(met.UniqName), id, id)
		}
		head := make([]byte, min(index.size, int64(indexHeaderSize+4)))
		if _, err := a.r.ReadAt(head, index.offset); err != nil {
			return fmt.Errorf("%s: reading %s.index: %w", a.name, id, err)
		}
		order, count, err := parseIndexHeader(head, index.size)
		if err != nil {
			return fmt.Errorf("%s: metric %s: %s.index: %w", a.name, importer.Quote(met.UniqName), id, err)
		}
		if count > int64(nc) {
			return fmt.Errorf("%s: metric %s: %s.index lists %d rows for %d cnodes", a.name, importer.Quote(met.UniqName), id, count, nc)
		}
		rows := int(count)
		if count < 0 {
			rows = nc
		}
		md := &metricData{index: index, data: data, layout: dataLayout{kind: kind, order: order, rows: rows, columns: nl}}
		surplus, err := checkDataMember(a.r, data, md.layout)
		if err != nil {
			return fmt.Errorf("%s: metric %s: %s.data: %w", a.name, importer.Quote(met.UniqName), id, err)
		}
		if surplus > 0 {
			e.Warnings = append(e.Warnings, fmt.Sprintf("metric %s: %s", importer.Quote(met.UniqName), surplusWarning(id+".data", surplus, md.layout)))
		}
		ld.metrics[m] = md
		ld.pending++
	}
	if a.unterminated >= 0 {
		// Writers end an archive with zero blocks; one that ends without
		// them after the last member may have been cut there, and metrics
		// without members may be the ones cut off.
		if len(missing) > 0 {
			names := missing
			if len(names) > 5 {
				names = append(names[:5:5], "…")
			}
			return fmt.Errorf("%s: %s%d metrics have no data members (ID.index, ID.data): %s",
				a.name, a.cut(), len(missing), strings.Join(names, ", "))
		}
		e.Warnings = append(e.Warnings, fmt.Sprintf("the archive ends at byte %d without tar's end-of-archive blocks; every metric's data are there, but the file may have been cut", a.unterminated))
	}
	if ld.pending == 0 {
		a.close()
	}
	e.SetLoader(ld)
	return nil
}

// cut says, for a message, that the archive may have been cut.
func (a *cubexArchive) cut() string {
	if a.unterminated < 0 {
		return ""
	}
	return fmt.Sprintf("truncated (the archive ends at byte %d without tar's end-of-archive blocks): ", a.unterminated)
}

func (a *cubexArchive) close() {
	if a.closer != nil {
		a.closer.Close()
		a.closer = nil
		a.closed = true
	}
}

// fileColumns maps the value positions of a .data row to data columns.
// Value j of a row belongs to the location whose Id is j, so the Ids must
// be 0…L−1 in any order; any other Id is an error naming it, since its
// values cannot be told apart from another location's. It returns nil
// when positions and columns agree.
func fileColumns(e *model.Experiment, locationColumn map[int]int) ([]int, error) {
	nl := len(e.Locations)
	if len(locationColumn) != nl {
		return nil, fmt.Errorf("anchor.xml maps %d location ids for %d locations", len(locationColumn), nl)
	}
	cols := make([]int, nl)
	identity := true
	for j := range cols {
		col, ok := locationColumn[j]
		if !ok {
			return nil, fmt.Errorf("no location has Id %d: %s; a .data row holds the values of the locations with Ids 0 to %d in order",
				j, outsideIDs(locationColumn, nl), nl-1)
		}
		if col < 0 || col >= nl {
			return nil, fmt.Errorf("location id %d has data column %d of %d", j, col, nl)
		}
		cols[j] = col
		identity = identity && col == j
	}
	if identity {
		return nil, nil
	}
	return cols, nil
}

// outsideIDs names the location Ids outside 0…n−1.
func outsideIDs(locationColumn map[int]int, n int) string {
	var out []int
	for id := range locationColumn {
		if id < 0 || id >= n {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	words := make([]string, 0, 3)
	for i, id := range out {
		if i == 3 {
			words = append(words, fmt.Sprintf("and %d more", len(out)-3))
			break
		}
		words = append(words, strconv.Itoa(id))
	}
	return "location Id " + strings.Join(words, ", ") + " is outside that range"
}

// enumerations returns the two cnode orders of CUBE 4 data rows: "deep" is
// depth-first pre-order; "wide" emits a root, then for each node first all
// its children and then, child by child, what lies below them. Several
// roots follow each other.
func (ld *cubexLoader) enumerations() (deep, wide []int) {
	ld.enumOnce.Do(func() {
		e := ld.e
		ld.deep = e.CnodeOrder()
		ld.wide = make([]int, 0, len(e.Cnodes))
		stack := make([]int, 0, 64)
		for _, root := range e.CnodeRoots {
			ld.wide = append(ld.wide, root)
			stack = append(stack[:0], root)
			for len(stack) > 0 {
				c := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				ch := e.Cnodes[c].Children
				ld.wide = append(ld.wide, ch...)
				for i := len(ch) - 1; i >= 0; i-- {
					stack = append(stack, ch[i])
				}
			}
		}
	})
	return ld.deep, ld.wide
}

// LoadBlock reads metric m's values and converts them to canonical
// storage (exclusive along the call tree). It returns nil for a metric
// with nothing stored. A metric whose block would exceed
// model.MemoryBudget stays in the file: the block returned reads its rows
// on demand, and the file stays open.
func (ld *cubexLoader) LoadBlock(m int) (*model.Block, error) {
	md := ld.metrics[m]
	if md == nil {
		return nil, nil
	}
	defer ld.done()
	met := &ld.e.Metrics[m]
	if int64(md.layout.rows)*int64(md.layout.columns)*8 > model.MemoryBudget() {
		r, err := ld.rows(m)
		if err != nil {
			return nil, err
		}
		if r.bytes() > model.MemoryBudget() {
			ld.mu.Lock()
			ld.keepOpen = true
			ld.mu.Unlock()
			return model.NewSourceBlock(len(ld.e.Cnodes), len(ld.e.Locations), r), nil
		}
	}
	b, err := ld.load(met, md)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %s: %w", ld.arch.name, importer.Quote(met.UniqName), err)
	}
	return b, nil
}

// done counts a finished load and closes the file after the last one,
// unless an on-demand block still reads from it.
func (ld *cubexLoader) done() {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	if ld.pending--; ld.pending == 0 && !ld.keepOpen {
		ld.arch.close()
	}
}

// StreamRows implements model.RowStreamer: metric m's rows in canonical
// meaning, read from the file in one pass without building the block.
func (ld *cubexLoader) StreamRows(m int, fn func(c int, row []float64) error) error {
	return ld.StreamRowBatches(m, func(cs []int, rows [][]float64) error {
		for i, c := range cs {
			if err := fn(c, rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// OpenRows implements model.RowOpener: metric m's rows read one at a
// time from the file, the file kept open until release.
func (ld *cubexLoader) OpenRows(m int) (model.RowSource, func(), error) {
	ld.mu.Lock()
	if ld.arch.closed {
		ld.mu.Unlock()
		return nil, nil, nil
	}
	ld.pending++ // keeps the file open while reading
	ld.mu.Unlock()
	r, err := ld.rows(m)
	if err != nil || r == nil {
		ld.done()
		return nil, nil, err
	}
	var once sync.Once
	return r, func() { once.Do(ld.done) }, nil
}

// StreamRowBatches implements model.RowBatchStreamer: StreamRows several
// rows at a time.
func (ld *cubexLoader) StreamRowBatches(m int, fn func(cs []int, rows [][]float64) error) error {
	ld.mu.Lock()
	if ld.arch.closed {
		// Every block was loaded and the file closed: scan the block.
		ld.mu.Unlock()
		b, err := ld.e.Block(m)
		if err != nil {
			return err
		}
		var c1 [1]int
		var r1 [1][]float64
		return b.Scan(func(c int, row []float64) error {
			c1[0], r1[0] = c, row
			return fn(c1[:], r1[:])
		})
	}
	ld.pending++ // keeps the file open while streaming
	ld.mu.Unlock()
	defer ld.done()
	r, err := ld.rows(m)
	if err != nil || r == nil {
		return err
	}
	return r.scanBatches(fn)
}

func (ld *cubexLoader) load(met *model.Metric, md *metricData) (*model.Block, error) {
	e := ld.e
	id := strconv.Itoa(met.ID)
	buf := make([]byte, md.index.size)
	if _, err := ld.arch.r.ReadAt(buf, md.index.offset); err != nil {
		return nil, fmt.Errorf("reading %s.index: %w", id, err)
	}
	x, err := parseIndex(buf, len(e.Cnodes))
	if err != nil {
		return nil, fmt.Errorf("%s.index: %w", id, err)
	}
	if x.rows(len(e.Cnodes)) != md.layout.rows {
		return nil, fmt.Errorf("%s.index changed while open", id)
	}
	inclusive := strings.EqualFold(strings.TrimSpace(string(met.Type)), string(model.Inclusive))
	deep, wide := ld.enumerations()
	enum := deep
	if inclusive {
		enum = wide
	}
	rowCnode := enum
	if !x.dense {
		rowCnode = make([]int, len(x.positions))
		for k, p := range x.positions {
			rowCnode[k] = enum[p]
		}
	}
	// Call-tree inclusive sums become own values by subtracting the
	// children's stored values, so a parent of a stored row needs a row
	// too. A min or max metric stored inclusive keeps its values as own
	// values: the min (max) over a subtree of these equals the stored
	// inclusive value, so every aggregate stays right.
	convert := inclusive && met.Aggregation == model.Sum
	alloc := rowCnode
	if convert {
		alloc = withParents(e, rowCnode)
	}
	b := model.NewBlock(len(e.Cnodes), len(e.Locations))
	b.AllocRows(alloc)
	dst := make([][]float64, len(rowCnode))
	for k, c := range rowCnode {
		dst[k] = b.MutableRow(c)
	}
	if err := readData(ld.arch.r, md.data, md.layout, dst, ld.cols); err != nil {
		return nil, fmt.Errorf("%s.data: %w", id, err)
	}
	if convert {
		// Parents precede children in depth-first order, so the
		// children's rows still hold stored values when a parent is done.
		for _, c := range deep {
			own := b.Row(c)
			if own == nil {
				continue
			}
			for _, ch := range e.Cnodes[c].Children {
				for l, v := range b.Row(ch) {
					own[l] -= v
				}
			}
		}
	}
	return b, nil
}

// withParents returns cnodes plus the parents of all of them, each once.
func withParents(e *model.Experiment, cnodes []int) []int {
	in := make([]bool, len(e.Cnodes))
	for _, c := range cnodes {
		in[c] = true
	}
	out := slices.Clone(cnodes)
	for _, c := range cnodes {
		if p := e.Cnodes[c].Parent; p >= 0 && !in[p] {
			in[p] = true
			out = append(out, p)
		}
	}
	return out
}
