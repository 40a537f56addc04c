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
	// Progress, if set, is called as the import advances: done of total
	// steps (each metric is summarised, then stored).
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
	// sum, when set, computes SHA256 and Size from the experiment's
	// reader (model.Experiment.ContentSum) as the import publishes the
	// trial; SHA256 is empty until then.
	sum func() (sha256 string, size int64, ok bool, err error)
}

// Import reads the experiment at path (any format format.Open reads) and
// stores it as a new trial. It returns the trial's id.
func (r *Repo) Import(ctx context.Context, path string, opt ImportOptions) (int64, error) {
	if err := r.writable("import " + path); err != nil {
		return 0, err
	}
	e, src, err := openSource(ctx, r, path, opt.Force)
	if err != nil {
		return 0, err
	}
	if opt.Name == "" {
		opt.Name = defaultName(path)
	}
	return r.ImportExperiment(ctx, e, src, opt)
}

// openSource opens the experiment at path and describes its source. A
// file of a size no stored trial has cannot be stored already: its
// reader computes the checksum from the bytes it reads (the import takes
// it when it publishes the trial, after reading every metric), so the
// file is not read for it in a pass of its own. Other inputs are hashed
// first, so that content already stored is refused (unless force)
// before it is read.
func openSource(ctx context.Context, r *Repo, path string, force bool) (*model.Experiment, Source, error) {
	var e *model.Experiment // opened already
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		if known, err := sizeStored(ctx, r, st.Size()); err != nil {
			return nil, Source{}, err
		} else if !known || force {
			if e, err = format.OpenWith(path, format.Options{HashContent: true}); err != nil {
				return nil, Source{}, err
			}
			if model.HashesContent(e) {
				abs, err := filepath.Abs(path)
				if err != nil {
					abs = path
				}
				return e, Source{Path: abs, Size: st.Size(), sum: func() (string, int64, bool, error) { return model.ContentSum(e) }}, nil
			}
		}
	}
	src, err := hashSource(path)
	if err != nil {
		return nil, src, err
	}
	if !force {
		if id, ok, err := trialBySHA(ctx, r, r.db, src.SHA256); err != nil {
			return nil, src, err
		} else if ok {
			return nil, src, &DuplicateError{Path: path, Trial: id}
		}
	}
	if e == nil {
		e, err = format.Open(path)
	}
	return e, src, err
}

// sizeStored reports whether a stored trial was imported from a file of
// size bytes.
func sizeStored(ctx context.Context, r *Repo, size int64) (bool, error) {
	var n int
	err := r.db.QueryRowContext(ctx, r.d.q(`SELECT COUNT(*) FROM (SELECT 1 FROM trial t WHERE t.size = ? AND `+r.visible("t")+` LIMIT 1) x`), size).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return n > 0, nil
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

// trialBySHA returns the first stored trial of r with that content, as q
// (the database or a transaction) sees it.
func trialBySHA(ctx context.Context, r *Repo, q querier, sum string) (int64, bool, error) {
	var id int64
	err := q.QueryRowContext(ctx, r.d.q(`SELECT MIN(t.id) FROM trial t WHERE t.sha256 = ? AND `+r.visible("t")+` HAVING COUNT(*) > 0`),
		r.d.text(sum)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return id, true, nil
}

// visible is the condition on a trial alias that hides trials being
// imported.
func (r *Repo) visible(alias string) string {
	if r.legacySchema() {
		return "1=1"
	}
	return alias + ".state = 0"
}

// summarise computes metric m's vectors over all locations: from its
// rows for a stored metric, evaluated after aggregation for a derived one
// (which stores no data). Rows are streamed, not loaded, where the
// experiment's loader can.
func summarise(e *model.Experiment, m int) (vectors, error) {
	v, err := experimentVectors(e, m, nil, 0)
	if err != nil {
		return v, fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err)
	}
	return v, nil
}

// definedOrZero is v, or 0 for an undefined derived total: a search by
// share of the total never matches a total of 0.
func definedOrZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// ImportExperiment stores e as a new trial from src. The trial appears
// whole or not at all: it is written in several short transactions while
// invisible, then made visible in one, so that an import never holds the
// repository for long and a killed one leaves nothing readers can see
// (and what it left is removed by the next import).
func (r *Repo) ImportExperiment(ctx context.Context, e *model.Experiment, src Source, opt ImportOptions) (int64, error) {
	return importTrial(ctx, r, e, src, opt, nil)
}

// restored is what an upgrade keeps of a trial: its id, import time and
// attributes.
type restored struct {
	id       int64
	imported string
	attrs    []Attribute
}

// importer writes one trial into a repository over a connection of its
// own: it stages the trial invisibly, stores its metrics in short
// transactions and publishes it in one, or discards what it staged.
type importer struct {
	r    *Repo
	conn *sql.Conn
	e    *model.Experiment
	src  Source
	opt  ImportOptions
	op   string // "import PATH", as messages name the change
	id   int64  // the staged trial
}

// importTrial stores e in r as a new trial, or, with rest, as the trial
// an older repository held.
func importTrial(ctx context.Context, r *Repo, e *model.Experiment, src Source, opt ImportOptions, rest *restored) (int64, error) {
	op := "import " + src.Path
	if err := r.writable(op); err != nil {
		return 0, err
	}
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
	n := len(e.Metrics)
	progress := func(done int) {
		if opt.Progress != nil {
			opt.Progress(done, 2*n)
		}
	}
	sums, err := summariseAll(ctx, e, progress)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", src.Path, err)
	}
	conn, err := r.db.Conn(ctx)
	if err != nil {
		return 0, r.writeError(op, err)
	}
	defer conn.Close()
	im := &importer{r: r, conn: conn, e: e, src: src, opt: opt, op: op}
	act := newActivity("import of " + filepath.Base(src.Path))
	ctx, done := r.lock.announce(ctx, conn, act)
	defer done()
	if err := im.stage(ctx, sums, act, rest); err != nil {
		return 0, im.failed(err)
	}
	defer im.unlock(im.id)
	if testHookStaged != nil {
		testHookStaged()
	}
	fail := func(err error) (int64, error) {
		im.discard()
		return 0, im.failed(err)
	}
	for m := range e.Metrics {
		if err := im.storeMetric(ctx, m, sums[m]); err != nil {
			return fail(fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err))
		}
		progress(n + m + 1)
	}
	imported := nowText()
	if rest != nil {
		imported = rest.imported
	}
	if err := im.publish(ctx, imported); err != nil {
		return fail(err)
	}
	return im.id, nil
}

// failed explains a failed import; a duplicate says so itself.
func (im *importer) failed(err error) error {
	var dup *DuplicateError
	if errors.As(err, &dup) {
		return err
	}
	return im.r.writeError(im.op, err)
}

// summariseAll summarises every metric, as many at a time as there are
// CPUs, calling progress after each.
func summariseAll(ctx context.Context, e *model.Experiment, progress func(done int)) ([]vectors, error) {
	n := len(e.Metrics)
	sums := make([]vectors, n)
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
				mu.Lock()
				done++
				progress(done)
				mu.Unlock()
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

// stage writes the trial's definitions and attributes as an invisible
// trial, whose id it keeps. It first removes what dead imports left.
func (im *importer) stage(ctx context.Context, sums []vectors, act activity, rest *restored) error {
	r, e, src, opt := im.r, im.e, im.src, im.opt
	if err := im.cleanDeadImports(ctx); err != nil {
		return err
	}
	tx, err := r.beginWrite(ctx, im.conn, im.op)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if !opt.Force && src.SHA256 != "" {
		if id, ok, err := trialBySHA(ctx, r, tx, src.SHA256); err != nil {
			return err
		} else if ok {
			return &DuplicateError{Path: src.Path, Trial: id}
		}
	}
	expID, err := ensureExperiment(ctx, r, tx, opt.App, opt.Experiment)
	if err != nil {
		return err
	}
	t := r.d.text
	var id int64
	cols, ph, args := "", "", []any{}
	attrs := mergeAttrs(e, opt.Attrs)
	if rest != nil {
		cols, ph, args, attrs = "id, ", "?, ", []any{rest.id}, rest.attrs
	}
	err = tx.QueryRowContext(ctx, r.d.q(`INSERT INTO trial (`+cols+`experiment, name, source, size, sha256, format, imported, state, importer,
		cnodes, regions, locations, header, tree) VALUES (`+ph+`?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?) RETURNING id`),
		append(args, expID, t(opt.Name), t(src.Path), src.Size, t(src.SHA256), t(e.Format), t(nowText()), t(act.encode()),
			len(e.Cnodes), len(e.Regions), e.NumLocations(), seal(encodeHeader(e)), encodeTree(e))...).Scan(&id)
	if err != nil {
		return err
	}
	ins := &inserter{ctx: ctx, tx: tx, d: r.d}
	for _, a := range attrs {
		ins.add("trial_attr", []string{"trial", "key", "key_hash", "value", "value_hash", "num", "origin"},
			id, t(a.Key), textHash(a.Key), t(a.Value), textHash(a.Value), nullNumber(a), int(a.Origin))
	}
	if err := recordAttrs(ctx, tx, r.d, attrs); err != nil {
		return err
	}
	ordOf := siblingOrder(len(e.Metrics), e.MetricRoots, func(i int) []int { return e.Metrics[i].Children })
	for i := range e.Metrics {
		m := &e.Metrics[i]
		ins.add("metric", []string{"trial", "idx", "id", "parent", "ord", "uniq", "uniq_hash", "disp", "dtype", "unit", "descr", "url", "val",
			"type", "expression", "init_expression", "formula", "viztype", "aggregation", "unavailable", "approximate", "present", "extra", "total", "canonical"},
			id, i, m.ID, m.Parent, ordOf[i], t(m.UniqName), textHash(m.UniqName), t(m.DispName), t(string(m.DataType)), t(m.Unit), t(m.Descr), t(m.URL), t(m.Val),
			t(string(m.Type)), t(m.Expression), t(m.InitExpression), t(formulaText(m)), t(m.VizType), int(m.Aggregation), t(m.Unavailable), boolInt(m.Approximate),
			int64(m.Present), extra(attrList(m.AggrExpressions), attrList(m.Attrs)), definedOrZero(sums[i].total), t(metricIdentity(m)))
	}
	for i := range e.Regions {
		g := &e.Regions[i]
		ins.add("region", []string{"trial", "idx", "id", "name", "mangled", "module", "begin_line", "end_line", "paradigm", "role", "url", "descr", "kind", "extra"},
			id, i, g.ID, t(g.Name), t(g.MangledName), t(g.Module), g.Begin, g.End, t(g.Paradigm), t(g.Role), t(g.URL), t(g.Descr),
			t(RegionKind(g)), extra(attrList(g.Attrs)))
	}
	ordOf = siblingOrder(len(e.Cnodes), e.CnodeRoots, func(i int) []int { return e.Cnodes[i].Children })
	for i := range e.Cnodes {
		c := &e.Cnodes[i]
		ins.add("cnode", []string{"trial", "idx", "id", "parent", "ord", "region", "call_file", "call_line", "present", "extra"},
			id, i, c.ID, c.Parent, ordOf[i], c.Region, t(c.CallFile), c.CallLine, int64(c.Present),
			extra(paramList(c.Params), attrList(c.Attrs)))
	}
	ordOf = siblingOrder(len(e.System), e.SystemRoots, func(i int) []int { return e.System[i].Children })
	for i := range e.System {
		n := &e.System[i]
		ins.add("sysnode", []string{"trial", "idx", "id", "kind", "class", "name", "descr", "rank", "location", "present", "parent", "ord", "extra"},
			id, i, n.ID, int(n.Kind), t(n.Class), t(n.Name), t(n.Descr), n.Rank, n.Location, int64(n.Present), n.Parent, ordOf[i],
			extra(attrList(n.Attrs)))
	}
	if err := ins.flushAll(); err != nil {
		return err
	}
	if err := recordNames(ctx, tx, r.d, e); err != nil {
		return err
	}
	if r.d.name == "postgres" {
		// Held by this connection until the import ends, so that others
		// can tell it from an import that died.
		if _, err := im.conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, lockImport+id); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		im.unlock(id)
		return err
	}
	im.id = id
	return nil
}

// metricIdentity is the canonical identity stored with a metric.
func metricIdentity(m *model.Metric) string { return m.Identity }

// setIdentity restores a metric's canonical identity.
func setIdentity(m *model.Metric, identity string) { m.Identity = identity }

// recordAttrs adds the attributes' keys and values to the dictionaries
// of those ever stored (see attrDictionaries).
func recordAttrs(ctx context.Context, tx *sql.Tx, d *dialect, attrs []Attribute) error {
	keys := map[string]bool{}
	values := map[[2]string]bool{}
	for _, a := range attrs {
		if !keys[a.Key] {
			keys[a.Key] = true
			if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO attr_key (key_hash, key) SELECT CAST(? AS BIGINT), ?
				WHERE NOT EXISTS (SELECT 1 FROM attr_key WHERE key_hash = ? AND key = ?)`),
				textHash(a.Key), d.text(a.Key), textHash(a.Key), d.text(a.Key)); err != nil {
				return err
			}
		}
		if kv := [2]string{a.Key, a.Value}; !values[kv] {
			values[kv] = true
			if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO attr_value (key_hash, value_hash, value) SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), ?
				WHERE NOT EXISTS (SELECT 1 FROM attr_value WHERE key_hash = ? AND value_hash = ? AND value = ?)`),
				textHash(a.Key), textHash(a.Value), d.text(a.Value), textHash(a.Key), textHash(a.Value), d.text(a.Value)); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordNames adds the trial's metric names to the names ever stored.
func recordNames(ctx context.Context, tx *sql.Tx, d *dialect, e *model.Experiment) error {
	ignore := `INSERT OR IGNORE INTO metric_name (name, name_hash, canonical) VALUES (?, ?, ?)`
	if d.name == "postgres" {
		ignore = `INSERT INTO metric_name (name, name_hash, canonical) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`
	}
	seen := map[string]bool{}
	for i := range e.Metrics {
		m := &e.Metrics[i]
		if seen[m.UniqName] {
			continue
		}
		seen[m.UniqName] = true
		var n int
		if err := tx.QueryRowContext(ctx, d.q(`SELECT COUNT(*) FROM metric_name WHERE name_hash = ? AND name = ?`),
			textHash(m.UniqName), d.text(m.UniqName)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, d.q(ignore), d.text(m.UniqName), textHash(m.UniqName), d.text(metricIdentity(m))); err != nil {
			return err
		}
	}
	return nil
}

// storeMetric writes metric m's summary, bounds and data chunks, in
// transactions of bounded size.
func (im *importer) storeMetric(ctx context.Context, m int, v vectors) error {
	r, e, id := im.r, im.e, im.id
	tx, err := r.beginWrite(ctx, im.conn, "import")
	if err != nil {
		return err
	}
	defer func() {
		if tx != nil {
			tx.Rollback()
		}
	}()
	if err := r.insertSummary(ctx, tx, id, m, v, e.Metrics[m].UniqName, cnodeRegions(e), kindsOf(e)); err != nil {
		return err
	}
	met := &e.Metrics[m]
	if met.HasStoredValues() && met.Unavailable == "" {
		b, err := e.Block(m)
		if err != nil {
			return err
		}
		var pending int64
		w := newChunkWriter(im.chunkCodec(), e.NumLocations(), func(ch encodedChunk) error {
			if _, err := tx.ExecContext(ctx, r.d.q(`INSERT INTO chunk (trial, metric, seq, codec, nrows, checksum, rows, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
				id, m, ch.seq, ch.codec, ch.nrows, int64(ch.checksum), ch.rows, ch.data); err != nil {
				return err
			}
			if pending += int64(len(ch.data)); pending >= txBytes {
				if err := tx.Commit(); err != nil {
					return err
				}
				pending = 0
				if tx, err = r.beginWrite(ctx, im.conn, "import"); err != nil {
					return err
				}
			}
			return nil
		})
		if err := b.Scan(w.add); err != nil {
			return err
		}
		if err := w.flush(); err != nil {
			return err
		}
	}
	err = tx.Commit()
	tx = nil
	return err
}

// chunkCodec is the codec chunks are written in: PostgreSQL compresses
// stored values itself and its users read them with SQL.
func (im *importer) chunkCodec() int {
	if im.r.d.name == "postgres" {
		return codecRawPlanes
	}
	return codecPlanes
}

// txBytes bounds the data one import transaction writes.
const txBytes = 32 << 20

// publish makes the staged trial visible, recording imported as its
// import time: unless the import is forced, only when no trial of the
// same content became visible meanwhile.
func (im *importer) publish(ctx context.Context, imported string) error {
	r, id, src := im.r, im.id, im.src
	if src.sum != nil {
		// Every metric was read: the checksum reads at most what the
		// reader did not read in order.
		sum, size, _, err := src.sum()
		if err != nil {
			return fmt.Errorf("checksum of %s: %w", src.Path, err)
		}
		src.SHA256, src.Size = sum, size
	}
	tx, err := r.beginWrite(ctx, im.conn, im.op)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if r.d.name == "postgres" {
		if err := r.lock.lockPostgres(ctx, tx, im.op, lockCommit); err != nil {
			return err
		}
	}
	if !im.opt.Force {
		if dup, ok, err := trialBySHA(ctx, r, tx, src.SHA256); err != nil {
			return err
		} else if ok {
			return &DuplicateError{Path: src.Path, Trial: dup}
		}
	}
	if _, err := tx.ExecContext(ctx, r.d.q(`UPDATE trial SET state = 0, importer = ?, imported = ?, sha256 = ?, size = ? WHERE id = ?`),
		r.d.text(""), r.d.text(imported), r.d.text(src.SHA256), src.Size, id); err != nil {
		return err
	}
	if testHookBeforeCommit != nil {
		testHookBeforeCommit()
	}
	return tx.Commit()
}

// discard removes a staged trial after a failed import (best effort: a
// trial left behind is removed by the next import).
func (im *importer) discard() {
	ctx := context.Background()
	tx, err := im.r.beginWrite(ctx, im.conn, "discard")
	if err != nil {
		return
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, im.r.d.q(`DELETE FROM trial WHERE id = ? AND state = 1`), im.id); err == nil {
		tx.Commit()
	}
}

// unlock ends the claim on staged trial id that tells other programs
// the import is alive (PostgreSQL).
func (im *importer) unlock(id int64) {
	if im.r.d.name == "postgres" {
		im.conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, lockImport+id)
	}
}

// cleanDeadImports removes trials whose import died before they became
// visible: in PostgreSQL those whose importer no longer holds its lock, in
// SQLite those whose importing process on this machine no longer runs.
func (im *importer) cleanDeadImports(ctx context.Context) error {
	r, conn := im.r, im.conn
	type staged struct {
		id  int64
		who string
	}
	var list []staged
	rs, err := conn.QueryContext(ctx, `SELECT id, importer FROM trial WHERE state = 1`)
	if err != nil {
		return err
	}
	for rs.Next() {
		var s staged
		if err := rs.Scan(&s.id, r.d.str(&s.who)); err != nil {
			rs.Close()
			return err
		}
		list = append(list, s)
	}
	rs.Close()
	if err := rs.Err(); err != nil || len(list) == 0 {
		return err
	}
	var dead []int64
	for _, s := range list {
		if r.d.name == "postgres" {
			var free bool
			if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, lockImport+s.id).Scan(&free); err != nil {
				return err
			}
			if free {
				dead = append(dead, s.id)
			}
			continue
		}
		if a, ok := decodeActivity(s.who); !ok || !a.alive() {
			dead = append(dead, s.id)
		}
	}
	if len(dead) == 0 {
		return nil
	}
	tx, err := r.beginWrite(ctx, conn, "removing what a dead import left")
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range dead {
		if _, err := tx.ExecContext(ctx, r.d.q(`DELETE FROM trial WHERE id = ? AND state = 1`), id); err != nil {
			return err
		}
	}
	if err := pruneEmpty(ctx, tx); err != nil {
		return err
	}
	err = tx.Commit()
	for _, id := range dead {
		im.unlock(id)
	}
	return err
}

// testHookBeforeCommit, when set by a test, runs inside the transaction
// that makes an import visible, just before it commits.
var testHookBeforeCommit func()

// testHookStaged, when set by a test, runs when an import has written its
// definitions, between transactions.
var testHookStaged func()

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

// ensureExperiment returns the id of application app's experiment exp
// in r, creating both in tx as needed.
func ensureExperiment(ctx context.Context, r *Repo, tx *sql.Tx, app, exp string) (int64, error) {
	if r.d.name == "postgres" {
		// Serialise creation so that a name is created once.
		if err := r.lock.lockPostgres(ctx, tx, "creating "+app+"/"+exp, lockNames); err != nil {
			return 0, err
		}
	}
	appID, err := ensureRow(ctx, tx, r.d, `SELECT id FROM application WHERE name_hash = ? AND name = ?`,
		`INSERT INTO application (name, name_hash) VALUES (?, ?) RETURNING id`, []any{textHash(app), r.d.text(app)},
		[]any{r.d.text(app), textHash(app)})
	if err != nil {
		return 0, err
	}
	return ensureRow(ctx, tx, r.d, `SELECT id FROM experiment WHERE application = ? AND name_hash = ? AND name = ?`,
		`INSERT INTO experiment (application, name, name_hash) VALUES (?, ?, ?) RETURNING id`,
		[]any{appID, textHash(exp), r.d.text(exp)}, []any{appID, r.d.text(exp), textHash(exp)})
}

// ensureRow returns the id the query find gives, or, when it finds no
// row, the id of the row insert adds.
func ensureRow(ctx context.Context, tx *sql.Tx, d *dialect, find, insert string, findArgs, insertArgs []any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, d.q(find), findArgs...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRowContext(ctx, d.q(insert), insertArgs...).Scan(&id)
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
