package algebra

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"cubeview/model"
)

// Arithmetic computes op on the integrated operands and returns the result:
// a new experiment with the metadata of ig.Result and all data in memory.
// A value missing in an operand counts as 0.
//
//   - OpDiff (two operands): a − b. Unsigned integer metrics become signed
//     (UINT64 becomes INT64, …) since differences may be negative.
//   - OpMerge: per metric, the values of the first operand that has the
//     metric, unchanged; with Options.PreferLast each operand's stored
//     rows replace the earlier operands' (CubeLib's rule).
//   - OpMean: (x1 + … + xn) / n, also where only some operands have the
//     value. Integer metrics become DOUBLE.
//
// Min and max metrics are computed element-wise like the others; for diff
// and mean the result metric is marked Approximate, since aggregating
// element-wise differences or means by min or max is not the difference or
// mean of the aggregates. A derived metric with a formula stays derived:
// through merge and mean its formula applies to the result's values (a
// ratio of the merged or mean values); through diff it becomes the
// difference of the operands' values of the formula (see
// derivedDifferences). Other metrics without values keep their
// definitions and get no data. Every stored metric is canonical
// EXCLUSIVE data. Metrics are computed one at a time; each operand block
// is read once. Operands' call graphs (model.CallGraph) are combined as
// described at Integration.callGraph.
func Arithmetic(ig *Integration, op Op) (*model.Experiment, error) {
	n := len(ig.Operands)
	switch op {
	case OpDiff:
		if n != 2 {
			return nil, fmt.Errorf("diff needs 2 operands, got %d", n)
		}
	case OpMerge, OpMean:
	default:
		return nil, fmt.Errorf("%s is not an arithmetic operator", op)
	}
	// The values first, then the provenance: the operands' checksums,
	// computed in the background since they were opened, are then ready.
	blocks := make([]*model.Block, len(ig.Result.Metrics))
	for m := range ig.Result.Metrics {
		if !hasData(&ig.Result.Metrics[m]) {
			continue
		}
		var b *model.Block
		var err error
		switch op {
		case OpDiff:
			b, err = ig.linear(m, []float64{1, -1}, 1)
		case OpMean:
			w := make([]float64, n)
			for i := range w {
				w[i] = 1
			}
			b, err = ig.linear(m, w, float64(n))
		case OpMerge:
			if ig.Options.PreferLast {
				b, err = ig.last(m)
			} else {
				b, err = ig.first(m)
			}
		}
		if err != nil {
			return nil, err
		}
		blocks[m] = b
	}
	// Operands whose readers hash their files while reading them are
	// recorded with their checksums once the result's data were read
	// (FinishAttrs, as the writers write the attributes): a block read
	// row by row while the result is written has not been read yet.
	later := slices.ContainsFunc(ig.Operands, model.HashesContent)
	prov, err := ig.provenanceWith(op.String(), nil, later)
	if err != nil {
		return nil, err
	}
	res := ig.newResult(prov)
	if later {
		n := len(prov.attrs())
		model.SetAttrsLater(res, func() error {
			full, err := ig.provenance(op.String(), nil)
			if err != nil {
				return err
			}
			res.Attrs = append(full.attrs(), res.Attrs[n:]...)
			return nil
		})
	}
	// Derived metrics of a difference add hidden metrics: before any
	// block is installed, which fixes the number of metrics.
	nstored := len(res.Metrics)
	var copies []operandCopy
	if op == OpDiff {
		copies = derivedDifferences(ig, res)
	}
	for m := range res.Metrics[:nstored] {
		rm := &res.Metrics[m]
		if rm.IsDerived() {
			continue
		}
		if !hasData(rm) {
			if rm.Unavailable == "" {
				rm.Unavailable = "derived metric: the definition is kept, its values are not computed by the algebra"
			}
			continue
		}
		rm.Type = "EXCLUSIVE"
		switch op {
		case OpDiff:
			rm.DataType = signedType(rm.DataType)
		case OpMean:
			if rm.IsInteger() {
				rm.DataType = "DOUBLE"
			}
		}
		if op != OpMerge && rm.Aggregation != model.Sum {
			rm.Approximate = true
		}
		res.SetBlock(m, blocks[m])
	}
	for _, c := range copies {
		b, err := ig.fromOperand(c.of, c.op)
		if err != nil {
			return nil, err
		}
		res.SetBlock(c.metric, b)
	}
	res.BindFormulas()
	if res.CallGraph, err = ig.callGraph(op); err != nil {
		return nil, err
	}
	if err := res.Validate(); err != nil {
		return nil, fmt.Errorf("%s: result is invalid: %w", prov.Expression, err)
	}
	return res, nil
}

// hasData reports whether an algebra result stores values for m: derived
// metrics and metrics without values keep only their definition.
func hasData(m *model.Metric) bool {
	return m.Unavailable == "" && !m.Type.IsDerived()
}

// signedType returns the signed counterpart of an unsigned CUBE data type.
func signedType(t model.DataType) model.DataType {
	switch strings.ToUpper(strings.TrimSpace(string(t))) {
	case "UINT8":
		return "INT8"
	case "UINT16":
		return "INT16"
	case "UINT32":
		return "INT32"
	case "UINT64":
		return "INT64"
	case "UNSIGNED INTEGER":
		return "INTEGER"
	case "UNSIGNED INT":
		return "INT"
	case "UNSIGNED SHORT INT":
		return "SHORT INT"
	}
	return t
}

// newResult returns a new experiment with ig.Result's metadata (metrics
// copied so they can be adjusted, the rest shared, being immutable) and the
// provenance attributes.
func (ig *Integration) newResult(prov Provenance) *model.Experiment {
	sk := ig.Result
	metrics := slices.Clone(sk.Metrics)
	for m := range metrics {
		metrics[m].Attrs = slices.Clone(metrics[m].Attrs)
	}
	attrs := prov.attrs()
	if forestMax(ig.Operands) {
		attrs = append(attrs, model.Attr{Key: model.CallTreeAggrKey, Value: "MAX"})
	}
	return &model.Experiment{
		Source:      prov.Expression,
		Format:      "derived",
		Attrs:       attrs,
		Mirrors:     sk.Mirrors,
		Metrics:     metrics,
		MetricRoots: sk.MetricRoots,
		Regions:     sk.Regions,
		Cnodes:      sk.Cnodes,
		CnodeRoots:  sk.CnodeRoots,
		System:      sk.System,
		SystemRoots: sk.SystemRoots,
		Locations:   sk.Locations,
		Topologies:  sk.Topologies,
	}
}

// forestMax reports whether every operand declares CUBE_CT_AGGR MAX: their
// roots overlap, and so do the result's. A mix keeps the default, SUM.
func forestMax(operands []*model.Experiment) bool {
	for _, e := range operands {
		if !model.ForestMax(e) {
			return false
		}
	}
	return len(operands) > 0
}

// source is one operand's contribution to a result metric.
type source struct {
	op    int
	block *model.Block
	rows  []int // result cnode → operand cnode, -1 where the operand has none
	locs  []int // operand column → result column
	ident bool  // locs is the identity and both have equally many columns
}

// sources loads, for result metric m, the block of every operand that has
// the metric (all of them, or only the first when first is set; only
// operand only when it is not −1).
func (ig *Integration) sources(m int, first bool, only int) ([]source, error) {
	var out []source
	nl := len(ig.Result.Locations)
	for i, e := range ig.Operands {
		om := slices.Index(ig.Metrics[i], m)
		if om < 0 || only >= 0 && i != only {
			continue
		}
		b, err := e.Block(om)
		if err != nil {
			return nil, fmt.Errorf("%s: metric %q: %w", operandName(ig.Operands, i), e.Metrics[om].UniqName, err)
		}
		if b.NumCnodes() != len(e.Cnodes) || b.NumLocations() != len(e.Locations) {
			return nil, fmt.Errorf("%s: metric %q: data block is %d×%d, want %d×%d", operandName(ig.Operands, i),
				e.Metrics[om].UniqName, b.NumCnodes(), b.NumLocations(), len(e.Cnodes), len(e.Locations))
		}
		s := source{op: i, block: b, rows: ig.inverseCnodes(i), locs: ig.Locations[i], ident: len(e.Locations) == nl}
		for l, r := range s.locs {
			if r != l {
				s.ident = false
				break
			}
		}
		out = append(out, s)
		if first {
			break
		}
	}
	return out, nil
}

// inverseCnodes returns, per result cnode, operand i's cnode mapped onto
// it or -1. Integration maps each operand one-to-one.
func (ig *Integration) inverseCnodes(i int) []int {
	ig.invOnce.Do(func() {
		ig.inverse = make([][]int, len(ig.Operands))
		for j, cm := range ig.Cnodes {
			inv := newMap(len(ig.Result.Cnodes))
			for c, r := range cm {
				if r >= 0 {
					inv[r] = c
				}
			}
			ig.inverse[j] = inv
		}
	})
	return ig.inverse[i]
}

// allocRows returns a block for result metric data with a row for every
// result cnode that receives a stored row from one of the sources.
func (ig *Integration) allocRows(srcs []source) *model.Block {
	res := ig.Result
	b := model.NewBlock(len(res.Cnodes), len(res.Locations))
	var rows []int
	for rc := range res.Cnodes {
		for _, s := range srcs {
			if oc := s.rows[rc]; oc >= 0 && s.block.HasRow(oc) {
				rows = append(rows, rc)
				break
			}
		}
	}
	b.AllocRows(rows)
	return b
}

// parallelRows calls f on consecutive ranges of [0, n) from as many
// goroutines as there are processors.
func parallelRows(n int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n/64+1)
	if workers <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}

// linear returns (Σ weights[i]·xi) / div for result metric m, one result
// row at a time: the first stored source row is assigned, the others are
// added, and a row that ends up all zero is dropped.
func (ig *Integration) linear(m int, weights []float64, div float64) (*model.Block, error) {
	srcs, err := ig.sources(m, false, -1)
	if err != nil {
		return nil, err
	}
	if ig.onDemand(srcs) {
		return ig.lazyBlock(&lazyRows{srcs: srcs, weights: weights, div: div}), nil
	}
	out := ig.allocRows(srcs)
	parallelRows(out.NumCnodes(), func(lo, hi int) {
		for rc := lo; rc < hi; rc++ {
			dst := out.Row(rc)
			if dst == nil {
				continue
			}
			dst = dst[:len(dst):len(dst)]
			assign := true // dst still holds zeros
			for _, s := range srcs {
				oc := s.rows[rc]
				if oc < 0 {
					continue
				}
				row := s.block.Row(oc)
				if row == nil {
					continue
				}
				w := weights[s.op]
				if !s.ident {
					for l, v := range row {
						if r := s.locs[l]; r >= 0 {
							dst[r] += w * v
						}
					}
					assign = false
					continue
				}
				row = row[:len(dst)]
				switch {
				case assign && w == 1:
					copy(dst, row)
				case assign && w == -1:
					for l, v := range row {
						dst[l] = 0 - v // 0 − v keeps zeros positive
					}
				case w == 1:
					for l, v := range row {
						dst[l] += v
					}
				case w == -1:
					for l, v := range row {
						dst[l] -= v
					}
				default:
					for l, v := range row {
						dst[l] += w * v
					}
				}
				assign = false
			}
			if div != 1 {
				for l := range dst {
					dst[l] /= div
				}
			}
			if isZero(dst) {
				out.SetRow(rc, nil)
			}
		}
	})
	return out, nil
}

func isZero(row []float64) bool {
	for _, v := range row {
		if v != 0 {
			return false
		}
	}
	return true
}

// first returns result metric m's values from the first operand that has it.
func (ig *Integration) first(m int) (*model.Block, error) {
	srcs, err := ig.sources(m, true, -1)
	if err != nil {
		return nil, err
	}
	return ig.firstOf(srcs)
}

// last returns result metric m's values as CubeLib's merge gives them:
// each operand that has the metric, in order, replaces the rows it stores
// (on its own locations), so a value shared by several operands comes
// from the last of them.
func (ig *Integration) last(m int) (*model.Block, error) {
	srcs, err := ig.sources(m, false, -1)
	if err != nil {
		return nil, err
	}
	return ig.firstOf(srcs)
}

// fromOperand returns result metric m's values in operand op alone.
func (ig *Integration) fromOperand(m, op int) (*model.Block, error) {
	srcs, err := ig.sources(m, true, op)
	if err != nil {
		return nil, err
	}
	return ig.firstOf(srcs)
}

// firstOf returns the values of the first of srcs (an empty block for none).
func (ig *Integration) firstOf(srcs []source) (*model.Block, error) {
	if ig.onDemand(srcs) {
		return ig.lazyBlock(&lazyRows{srcs: srcs, first: true}), nil
	}
	out := ig.allocRows(srcs)
	for _, s := range srcs {
		parallelRows(out.NumCnodes(), func(lo, hi int) {
			for rc := lo; rc < hi; rc++ {
				oc := s.rows[rc]
				if oc < 0 || !s.block.HasRow(oc) {
					continue
				}
				row, dst := s.block.Row(oc), out.Row(rc)
				if s.ident {
					copy(dst, row)
					continue
				}
				for l, v := range row {
					if r := s.locs[l]; r >= 0 {
						dst[r] = v
					}
				}
			}
		})
	}
	return out, nil
}

// onDemand reports whether a result metric is computed row by row when
// read instead of in memory: when an operand's block is read on demand
// (it exceeds the memory budget) or the result would exceed the budget.
func (ig *Integration) onDemand(srcs []source) bool {
	rows := int64(0)
	for _, s := range srcs {
		if s.block.OnDemand() {
			return true
		}
		rows += int64(s.block.StoredRows())
	}
	return rows*int64(len(ig.Result.Locations))*8 > model.MemoryBudget()
}

func (ig *Integration) lazyBlock(z *lazyRows) *model.Block {
	z.nl = len(ig.Result.Locations)
	return model.NewSourceBlock(len(ig.Result.Cnodes), z.nl, z)
}

// lazyRows computes a result metric's rows from the operands' rows when
// they are read (model.RowSource), with the arithmetic of linear and
// first, so that operands larger than memory combine with bounded memory
// and a result can be written row by row.
type lazyRows struct {
	srcs    []source
	weights []float64 // linear: Σ weights[op]·x / div
	div     float64
	first   bool // merge: the first source's values
	nl      int
	bufs    sync.Pool
}

// HasRow implements model.RowSource.
func (z *lazyRows) HasRow(rc int) bool {
	for _, s := range z.srcs {
		if oc := s.rows[rc]; oc >= 0 && s.block.HasRow(oc) {
			return true
		}
	}
	return false
}

// ReadRow implements model.RowSource.
func (z *lazyRows) ReadRow(rc int, dst []float64) error {
	clear(dst)
	for _, s := range z.srcs {
		oc := s.rows[rc]
		if oc < 0 || !s.block.HasRow(oc) {
			continue
		}
		buf, _ := z.bufs.Get().(*[]float64)
		if buf == nil || len(*buf) < s.block.NumLocations() {
			b := make([]float64, s.block.NumLocations())
			buf = &b
		}
		row, ok, err := s.block.ReadRow(oc, *buf)
		if err != nil {
			return err
		}
		if ok {
			z.combine(s, row, dst)
		}
		z.bufs.Put(buf)
	}
	if !z.first && z.div != 1 {
		for l := range dst {
			dst[l] /= z.div
		}
	}
	return nil
}

func (z *lazyRows) combine(s source, row, dst []float64) {
	if z.first {
		if s.ident {
			copy(dst, row[:len(dst)])
			return
		}
		for l, v := range row {
			if r := s.locs[l]; r >= 0 {
				dst[r] = v
			}
		}
		return
	}
	w := z.weights[s.op]
	if !s.ident {
		for l, v := range row {
			if r := s.locs[l]; r >= 0 {
				dst[r] += w * v
			}
		}
		return
	}
	row = row[:len(dst)]
	switch w {
	case 1:
		for l, v := range row {
			dst[l] += v
		}
	case -1:
		for l, v := range row {
			dst[l] -= v
		}
	default:
		for l, v := range row {
			dst[l] += w * v
		}
	}
}
