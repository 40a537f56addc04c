package repo

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"cubeview/format"
	"cubeview/model"
)

// Origin says where a trial attribute came from. When keys collide, a
// user's attribute hides an automatic one, which hides the file's.
type Origin int

const (
	// FromFile marks the experiment's own attributes, as the file holds them.
	FromFile Origin = iota
	// Automatic marks attributes the repository derives: procs, threads, locations.
	Automatic
	// FromUser marks attributes given at import or with SetAttrs.
	FromUser
)

// String returns "file", "auto" or "user".
func (o Origin) String() string {
	switch o {
	case Automatic:
		return "auto"
	case FromUser:
		return "user"
	}
	return "file"
}

// Attribute is a typed trial attribute: a number when the value reads as
// a finite number, text otherwise.
type Attribute struct {
	Key, Value string
	IsNumber   bool
	Number     float64
	Origin     Origin
}

// NewAttribute types value.
func NewAttribute(key, value string, origin Origin) Attribute {
	a := Attribute{Key: key, Value: value, Origin: origin}
	if f, ok := parseNumber(value); ok {
		a.IsNumber, a.Number = true, f
	}
	return a
}

// parseNumber reads a decimal number as a user would write it.
func parseNumber(s string) (float64, bool) {
	if s == "" || strings.ContainsAny(s, "xXpP_ \t\n") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// ImportOptions say where a trial goes and what to add to it.
type ImportOptions struct {
	// App and Experiment place the trial; empty means "default".
	App, Experiment string
	// Name names the trial; empty means the file's name.
	Name string
	// Attrs are the user's attributes (procs=64, compiler=gcc-13, …).
	Attrs []model.Attr
	// Force stores content that is already in the repository again.
	Force bool
	// Progress, if set, is called after each metric is summarised.
	Progress func(done, total int)
}

// DuplicateError reports content that is already stored.
type DuplicateError struct {
	Path  string
	Trial int64
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s: the same content is already stored as trial %d (use --force to store it again)", e.Path, e.Trial)
}

// Source describes the file a trial was imported from.
type Source struct {
	Path   string
	Size   int64
	SHA256 string // hex
}

// Import reads the experiment at path (any format format.Open reads) and
// stores it as a new trial in one transaction. It returns the trial's id.
func (r *Repo) Import(ctx context.Context, path string, opt ImportOptions) (int64, error) {
	src, err := hashSource(path)
	if err != nil {
		return 0, err
	}
	if !opt.Force {
		if id, ok, err := r.trialBySHA(ctx, r.db, src.SHA256); err != nil {
			return 0, err
		} else if ok {
			return 0, &DuplicateError{Path: path, Trial: id}
		}
	}
	e, err := format.Open(path)
	if err != nil {
		return 0, err
	}
	if opt.Name == "" {
		opt.Name = defaultName(path)
	}
	return r.ImportExperiment(ctx, e, src, opt)
}

// hashSource returns size and SHA-256 of a file, or of a directory's
// regular files (names and contents, in name order).
func hashSource(path string) (Source, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	src := Source{Path: abs}
	st, err := os.Stat(path)
	if err != nil {
		return src, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	h := sha256.New()
	add := func(name string) error {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("%s: %w", name, unwrapPath(err))
		}
		defer f.Close()
		n, err := io.Copy(h, f)
		src.Size += n
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	if !st.IsDir() {
		if err := add(path); err != nil {
			return src, err
		}
	} else {
		var files []string
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return src, fmt.Errorf("%s: %w", path, err)
		}
		sort.Strings(files)
		for _, f := range files {
			rel, _ := filepath.Rel(path, f)
			io.WriteString(h, rel+"\x00")
			if err := add(f); err != nil {
				return src, err
			}
		}
	}
	src.SHA256 = hex.EncodeToString(h.Sum(nil))
	return src, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type querier interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

func (r *Repo) trialBySHA(ctx context.Context, q querier, sum string) (int64, bool, error) {
	var id int64
	err := q.QueryRowContext(ctx, r.d.q(`SELECT MIN(id) FROM trial WHERE sha256 = ? HAVING COUNT(*) > 0`), r.d.text(sum)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return id, true, nil
}

// metricSummary is what the repository keeps of one metric besides the
// definitions: per cnode and per region values, per location totals and
// the encoded data.
type metricSummary struct {
	total            float64
	excl, incl       []float64 // per cnode, aggregated over locations by the metric's kind
	exclSt, inclSt   []stats   // per cnode, across locations
	regExcl, regIncl []float64
	locTotal         []float64
	data             []byte // nil: no stored values
}

type stats struct{ min, max, mean, sd float64 }

// summarise computes metric m's summary: from its block for a stored
// metric, evaluated after aggregation for a derived one (which stores no
// data).
func summarise(e *model.Experiment, m int) (*metricSummary, error) {
	met := &e.Metrics[m]
	fail := func(err error) (*metricSummary, error) { return nil, fmt.Errorf("metric %q: %w", met.UniqName, err) }
	v, err := experimentVectors(e, m, nil, 0)
	if err != nil {
		return fail(err)
	}
	s := &metricSummary{total: v.total, excl: v.excl, incl: v.incl, regExcl: v.regExcl, regIncl: v.regIncl}
	ms := model.MetricSel{Metric: m, Inclusive: true}
	sys, err := e.SystemTreeValues(ms, e.CnodeOrder())
	if err != nil {
		return fail(err)
	}
	s.locTotal = e.LocationsOf(sys)
	nc, nl := len(e.Cnodes), e.NumLocations()
	s.exclSt = make([]stats, nc)
	s.inclSt = make([]stats, nc)
	own, err := e.PointValues(ms, false)
	if err != nil {
		return fail(err)
	}
	if own.StoredRows() == 0 {
		return s, nil
	}
	withCallees, err := e.PointValues(ms, true)
	if err != nil {
		return fail(err)
	}
	for c := 0; c < nc; c++ {
		s.exclSt[c] = rowStats(own.Row(c), nl)
		s.inclSt[c] = rowStats(withCallees.Row(c), nl)
	}
	if met.HasStoredValues() {
		s.data = encodeBlock(own)
	}
	return s, nil
}

// defined reports whether none of vs is NaN (undefined).
func defined(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) {
			return false
		}
	}
	return true
}

// definedOrZero is v, or 0 for an undefined derived total: a search by
// share of the total never matches a total of 0.
func definedOrZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// rowStats returns min, max, mean and population standard deviation of a
// row of n values (nil: all zero).
func rowStats(r []float64, n int) stats {
	if r == nil || n == 0 {
		return stats{}
	}
	st := stats{min: r[0], max: r[0]}
	sum := 0.0
	for _, v := range r {
		if v < st.min {
			st.min = v
		}
		if v > st.max {
			st.max = v
		}
		sum += v
	}
	st.mean = sum / float64(n)
	ss := 0.0
	for _, v := range r {
		d := v - st.mean
		ss += d * d
	}
	st.sd = math.Sqrt(ss / float64(n))
	return st
}

// ImportExperiment stores e as a new trial from src in one transaction.
func (r *Repo) ImportExperiment(ctx context.Context, e *model.Experiment, src Source, opt ImportOptions) (int64, error) {
	if opt.App == "" {
		opt.App = "default"
	}
	if opt.Experiment == "" {
		opt.Experiment = "default"
	}
	if opt.Name == "" {
		opt.Name = defaultName(src.Path)
	}
	for _, a := range opt.Attrs {
		if err := checkAttrKey(a.Key); err != nil {
			return 0, err
		}
	}
	sums, err := summariseAll(ctx, e, opt.Progress)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", src.Path, err)
	}
	id, err := r.store(ctx, e, src, opt, sums)
	if err != nil {
		var dup *DuplicateError
		if errors.As(err, &dup) {
			return 0, err
		}
		return 0, r.writeError("import "+src.Path, err)
	}
	return id, nil
}

// summariseAll summarises every metric, as many at a time as there are CPUs.
func summariseAll(ctx context.Context, e *model.Experiment, progress func(done, total int)) ([]*metricSummary, error) {
	n := len(e.Metrics)
	sums := make([]*metricSummary, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < min(runtime.GOMAXPROCS(0), n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range next {
				sums[m], errs[m] = summarise(e, m)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, n)
					mu.Unlock()
				}
			}
		}()
	}
	for m := 0; m < n && ctx.Err() == nil; m++ {
		next <- m
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return sums, errors.Join(errs...)
}

// autoAttrs derives the process and thread counts.
func autoAttrs(e *model.Experiment) []Attribute {
	procs, maxThreads := 0, 0
	for i := range e.System {
		n := &e.System[i]
		if n.Kind != model.Group {
			continue
		}
		procs++
		t := 0
		for _, ch := range n.Children {
			if e.System[ch].Kind == model.Leaf {
				t++
			}
		}
		maxThreads = max(maxThreads, t)
	}
	if procs == 0 && e.NumLocations() > 0 {
		procs, maxThreads = e.NumLocations(), 1
	}
	return []Attribute{
		NewAttribute("procs", strconv.Itoa(procs), Automatic),
		NewAttribute("threads", strconv.Itoa(maxThreads), Automatic),
		NewAttribute("locations", strconv.Itoa(e.NumLocations()), Automatic),
	}
}

// mergeAttrs keeps one attribute per key: the user's over the automatic
// ones over the file's (the first of duplicate file keys).
func mergeAttrs(e *model.Experiment, user []model.Attr) []Attribute {
	byKey := map[string]int{}
	var out []Attribute
	put := func(a Attribute) {
		if i, ok := byKey[a.Key]; ok {
			if a.Origin > out[i].Origin || a.Origin == FromUser {
				out[i] = a
			}
			return
		}
		byKey[a.Key] = len(out)
		out = append(out, a)
	}
	for _, a := range e.Attrs {
		put(NewAttribute(a.Key, a.Value, FromFile))
	}
	for _, a := range autoAttrs(e) {
		put(a)
	}
	for _, a := range user {
		put(NewAttribute(a.Key, a.Value, FromUser))
	}
	return out
}

// checkAttrKey refuses keys that the filter language could not name.
func checkAttrKey(k string) error {
	if k == "" {
		return errors.New("an attribute needs a key: give key=value")
	}
	if reservedField(k) {
		return fmt.Errorf("attribute %q: %q is a trial field, not an attribute", k, k)
	}
	return nil
}

func (r *Repo) store(ctx context.Context, e *model.Experiment, src Source, opt ImportOptions, sums []*metricSummary) (int64, error) {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if r.d.name == "postgres" {
		// Imports commit one at a time so that the duplicate check holds.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7212090518)`); err != nil {
			return 0, err
		}
	}
	if !opt.Force {
		if id, ok, err := r.trialBySHA(ctx, tx, src.SHA256); err != nil {
			return 0, err
		} else if ok {
			return 0, &DuplicateError{Path: src.Path, Trial: id}
		}
	}
	expID, err := r.ensureExperiment(ctx, tx, opt.App, opt.Experiment)
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.QueryRowContext(ctx, r.d.q(`INSERT INTO trial (experiment, name, source, size, sha256, format, imported, header)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		expID, r.d.text(opt.Name), r.d.text(src.Path), src.Size, r.d.text(src.SHA256), r.d.text(e.Format),
		r.d.text(time.Now().UTC().Format(time.RFC3339Nano)), encodeHeader(e)).Scan(&id)
	if err != nil {
		return 0, err
	}
	t := r.d.text
	ins := &inserter{ctx: ctx, tx: tx, d: r.d}
	for _, a := range mergeAttrs(e, opt.Attrs) {
		ins.add("trial_attr", []string{"trial", "key", "key_hash", "value", "num", "origin"},
			id, t(a.Key), textHash(a.Key), t(a.Value), nullNumber(a), int(a.Origin))
	}
	ordOf := siblingOrder(len(e.Metrics), e.MetricRoots, func(i int) []int { return e.Metrics[i].Children })
	metricCols := []string{"trial", "idx", "id", "parent", "ord", "uniq", "uniq_hash", "disp", "dtype", "unit", "descr", "url", "val",
		"type", "expression", "init_expression", "formula", "viztype", "aggregation", "unavailable", "approximate", "present", "extra", "total", "canonical"}
	if r.schema < schemaCanonical {
		metricCols = metricCols[:len(metricCols)-1]
	}
	for i := range e.Metrics {
		m := &e.Metrics[i]
		vals := []any{id, i, m.ID, m.Parent, ordOf[i], t(m.UniqName), textHash(m.UniqName), t(m.DispName), t(string(m.DataType)), t(m.Unit), t(m.Descr), t(m.URL), t(m.Val),
			t(string(m.Type)), t(m.Expression), t(m.InitExpression), t(formulaText(m)), t(m.VizType), int(m.Aggregation), t(m.Unavailable), boolInt(m.Approximate),
			int64(m.Present), extra(attrList(m.AggrExpressions), attrList(m.Attrs)), definedOrZero(sums[i].total), t(m.Identity)}
		ins.add("metric", metricCols, vals[:len(metricCols)]...)
	}
	for i := range e.Regions {
		g := &e.Regions[i]
		ins.add("region", []string{"trial", "idx", "id", "name", "mangled", "module", "begin_line", "end_line", "paradigm", "role", "url", "descr", "kind", "extra"},
			id, i, g.ID, t(g.Name), t(g.MangledName), t(g.Module), g.Begin, g.End, t(g.Paradigm), t(g.Role), t(g.URL), t(g.Descr),
			t(RegionKind(g)), extra(attrList(g.Attrs)))
	}
	ordOf = siblingOrder(len(e.Cnodes), e.CnodeRoots, func(i int) []int { return e.Cnodes[i].Children })
	paths := callPaths(e)
	for i := range e.Cnodes {
		c := &e.Cnodes[i]
		ins.add("cnode", []string{"trial", "idx", "id", "parent", "ord", "region", "call_file", "call_line", "present", "path", "extra"},
			id, i, c.ID, c.Parent, ordOf[i], c.Region, t(c.CallFile), c.CallLine, int64(c.Present), t(paths[i]),
			extra(paramList(c.Params), attrList(c.Attrs)))
	}
	ordOf = siblingOrder(len(e.System), e.SystemRoots, func(i int) []int { return e.System[i].Children })
	for i := range e.System {
		n := &e.System[i]
		ins.add("sysnode", []string{"trial", "idx", "id", "kind", "class", "name", "descr", "rank", "location", "present", "parent", "ord", "extra"},
			id, i, n.ID, int(n.Kind), t(n.Class), t(n.Name), t(n.Descr), n.Rank, n.Location, int64(n.Present), n.Parent, ordOf[i],
			extra(attrList(n.Attrs)))
	}
	// A derived metric's undefined values (a division by zero, NaN) have
	// no summary row: searches never match them, and the trial's values
	// are computed again from the formula when it is opened.
	for m, s := range sums {
		for c := range s.excl {
			x, y := s.exclSt[c], s.inclSt[c]
			if !defined(s.excl[c], s.incl[c], x.min, x.max, x.mean, x.sd, y.min, y.max, y.mean, y.sd) {
				continue
			}
			ins.add("cnode_stat", []string{"trial", "metric", "cnode", "excl", "incl", "excl_min", "excl_max", "excl_mean", "excl_sd",
				"incl_min", "incl_max", "incl_mean", "incl_sd"},
				id, m, c, s.excl[c], s.incl[c], x.min, x.max, x.mean, x.sd, y.min, y.max, y.mean, y.sd)
		}
		for g := range s.regExcl {
			if !defined(s.regExcl[g], s.regIncl[g]) {
				continue
			}
			ins.add("region_stat", []string{"trial", "metric", "region", "excl", "incl"}, id, m, g, s.regExcl[g], s.regIncl[g])
		}
		for l, v := range s.locTotal {
			if !defined(v) {
				continue
			}
			ins.add("location_total", []string{"trial", "metric", "location", "value"}, id, m, l, v)
		}
	}
	if err := ins.flushAll(); err != nil {
		return 0, err
	}
	for m, s := range sums {
		if s.data == nil {
			continue
		}
		if _, err := tx.ExecContext(ctx, r.d.q(`INSERT INTO metric_data (trial, metric, codec, data) VALUES (?, ?, ?, ?)`),
			id, m, codecShuffleFlate, s.data); err != nil {
			return 0, err
		}
	}
	if testHookBeforeCommit != nil {
		testHookBeforeCommit()
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return id, nil
}

// testHookBeforeCommit, when set by a test, runs inside the import
// transaction just before it commits.
var testHookBeforeCommit func()

// formulaText is the stored form of a derived metric's formula, "" for
// other metrics.
func formulaText(m *model.Metric) string {
	if m.Formula == nil {
		return ""
	}
	return m.Formula.String()
}

func nullNumber(a Attribute) any {
	if a.IsNumber {
		return a.Number
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// siblingOrder returns each node's position among its siblings (or among
// the roots), so that reopening restores the order of the forest.
func siblingOrder(n int, roots []int, children func(int) []int) []int {
	ord := make([]int, n)
	for i, r := range roots {
		ord[r] = i
	}
	for p := 0; p < n; p++ {
		for i, c := range children(p) {
			ord[c] = i
		}
	}
	return ord
}

// callPaths returns every cnode's call path, region names joined by "/".
func callPaths(e *model.Experiment) []string {
	paths := make([]string, len(e.Cnodes))
	for _, c := range e.CnodeOrder() {
		name := e.Regions[e.Cnodes[c].Region].Name
		if p := e.Cnodes[c].Parent; p >= 0 {
			paths[c] = paths[p] + "/" + name
		} else {
			paths[c] = name
		}
	}
	return paths
}

// ensureExperiment returns the id of application app's experiment exp,
// creating both as needed.
func (r *Repo) ensureExperiment(ctx context.Context, tx *sql.Tx, app, exp string) (int64, error) {
	if r.d.name == "postgres" {
		// Serialise creation so that a name is created once.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7212090519)`); err != nil {
			return 0, err
		}
	}
	appID, err := r.ensureRow(ctx, tx, `SELECT id FROM application WHERE name_hash = ? AND name = ?`,
		`INSERT INTO application (name, name_hash) VALUES (?, ?) RETURNING id`, []any{textHash(app), r.d.text(app)},
		[]any{r.d.text(app), textHash(app)})
	if err != nil {
		return 0, err
	}
	return r.ensureRow(ctx, tx, `SELECT id FROM experiment WHERE application = ? AND name_hash = ? AND name = ?`,
		`INSERT INTO experiment (application, name, name_hash) VALUES (?, ?, ?) RETURNING id`,
		[]any{appID, textHash(exp), r.d.text(exp)}, []any{appID, r.d.text(exp), textHash(exp)})
}

func (r *Repo) ensureRow(ctx context.Context, tx *sql.Tx, find, insert string, findArgs, insertArgs []any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, r.d.q(find), findArgs...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRowContext(ctx, r.d.q(insert), insertArgs...).Scan(&id)
	}
	return id, err
}

// inserter batches rows into multi-row INSERT statements, which both
// engines execute far faster than one statement per row.
type inserter struct {
	ctx     context.Context
	tx      *sql.Tx
	d       *dialect
	pending map[string]*batch
	order   []string
	err     error
}

type batch struct {
	cols []string
	args []any
	rows int
	stmt map[int]*sql.Stmt
}

const maxBatchParams = 30000

func (in *inserter) add(table string, cols []string, vals ...any) {
	if in.err != nil {
		return
	}
	if in.pending == nil {
		in.pending = map[string]*batch{}
	}
	b := in.pending[table]
	if b == nil {
		b = &batch{cols: cols, stmt: map[int]*sql.Stmt{}}
		in.pending[table] = b
		in.order = append(in.order, table)
	}
	b.args = append(b.args, vals...)
	b.rows++
	if (b.rows+1)*len(cols) > maxBatchParams || b.rows >= 1000 {
		in.err = in.flush(table, b)
	}
}

func (in *inserter) flush(table string, b *batch) error {
	if b.rows == 0 {
		return nil
	}
	st, ok := b.stmt[b.rows]
	if !ok {
		row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(b.cols)), ", ") + ")"
		q := "INSERT INTO " + table + " (" + strings.Join(b.cols, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(row+", ", b.rows), ", ")
		var err error
		if st, err = in.tx.PrepareContext(in.ctx, in.d.q(q)); err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
		b.stmt[b.rows] = st
	}
	if _, err := st.ExecContext(in.ctx, b.args...); err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	b.args, b.rows = b.args[:0], 0
	return nil
}

// flushAll writes what is pending, in the order tables were first used.
func (in *inserter) flushAll() error {
	if in.err != nil {
		return in.err
	}
	for _, t := range in.order {
		if err := in.flush(t, in.pending[t]); err != nil {
			return err
		}
	}
	return nil
}
