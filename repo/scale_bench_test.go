package repo

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cubeview/model"
)

// The scale benchmark builds repositories of many generated trials — by
// default 10,000; CUBEVIEW_BENCH_TRIALS=10000,100000 for more — in SQLite
// (under $TMPDIR/cubeview-bench) and in PostgreSQL (databases on the
// server $CUBEVIEW_TEST_POSTGRES names, kept between runs), and times the
// searches a team runs. Up to 10,000 trials are imported one by one;
// a larger repository starts as a copy of the 10,000-trial one (file
// copy, PostgreSQL template) whose trials are then copied in SQL under new
// ids until it holds n (so 100,000 trials are 10,000 distinct ones ten
// times). The copies hold only what searches and listings read (trial,
// attributes, metrics, summaries, bounds), to spare the disk some 15 GB
// and the machine hours: the size per trial is that of the imported ones.
// Building takes tens of minutes:
//
//	CUBEVIEW_TEST_POSTGRES=postgres://… CUBEVIEW_BENCH_TRIALS=10000,100000 \
//	  go test -run '^$' -bench BenchmarkScale -benchtime 20x ./repo
//
// Trials are like real Score-P profiles of MPI (+OpenMP) programs: five
// applications, 150–800 call paths (a main loop over solver phases with
// kernels, OpenMP regions and MPI calls at the leaves), 8 locations,
// metrics time, visits, bytes_sent, PAPI_TOT_INS and PAPI_TOT_CYC, and
// attributes procs, size, compiler and run.

var scaleApps = []string{"lulesh", "amg", "kripke", "hpcg", "minife"}

var (
	scaleUser = []string{"main", "init", "read_input", "setup_mesh", "solve", "timestep", "compute_forces", "update_positions",
		"apply_bc", "assemble", "precondition", "smooth", "restrict", "prolong", "dot", "axpy", "spmv", "reduce_norm",
		"write_output", "checkpoint", "halo_pack", "halo_unpack", "eos", "material", "hourglass", "stress", "volume"}
	scaleMPI = []string{"MPI_Init", "MPI_Finalize", "MPI_Allreduce", "MPI_Reduce", "MPI_Bcast", "MPI_Isend", "MPI_Irecv",
		"MPI_Waitall", "MPI_Wait", "MPI_Barrier", "MPI_Alltoall", "MPI_Gather", "MPI_Comm_rank", "MPI_Comm_size"}
	scaleOMP = []string{"!$omp parallel @kernel.c:40", "!$omp for @kernel.c:42", "!$omp barrier @kernel.c:60",
		"!$omp parallel @solve.c:120", "!$omp for @solve.c:124", "!$omp implicit barrier @solve.c:130"}
)

// scaleTrial generates trial i: its experiment and where it goes.
func scaleTrial(i int) (*model.Experiment, ImportOptions) {
	rng := rand.New(rand.NewPCG(uint64(i), 0xbe9c4))
	app := scaleApps[i%len(scaleApps)]
	procs := 1 << (i / len(scaleApps) % 11)
	e := &model.Experiment{Source: "generated", Format: "generated"}
	e.Attrs = []model.Attr{{Key: "Creator", Value: "cubeview scale benchmark"}}
	for k, m := range []struct{ name, dtype, unit string }{
		{"time", "DOUBLE", "sec"}, {"visits", "UINT64", "occ"}, {"bytes_sent", "UINT64", "bytes"},
		{"PAPI_TOT_INS", "UINT64", "occ"}, {"PAPI_TOT_CYC", "UINT64", "occ"},
	} {
		e.Metrics = append(e.Metrics, model.Metric{ID: k, Parent: -1, UniqName: m.name, DispName: m.name, DataType: model.DataType(m.dtype),
			Unit: m.unit, Type: "EXCLUSIVE", Aggregation: model.AggregationOf(model.DataType(m.dtype)), Identity: model.CanonicalIdentity(m.name)})
	}
	region := map[string]int{}
	reg := func(name, paradigm string) int {
		if g, ok := region[name]; ok {
			return g
		}
		region[name] = len(e.Regions)
		e.Regions = append(e.Regions, model.Region{ID: len(e.Regions), Name: name, Paradigm: paradigm, Role: "function",
			Module: app + "/src/" + name + ".c", Begin: 10, End: 90})
		return region[name]
	}
	add := func(parent int, g int) int {
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: len(e.Cnodes), Parent: parent, Region: g, CallLine: 10 + len(e.Cnodes)%300,
			CallFile: app + ".c"})
		return len(e.Cnodes) - 1
	}
	size := 150 + rng.IntN(650)
	root := add(-1, reg("main", "user"))
	add(root, reg("MPI_Init", "mpi"))
	add(root, reg("MPI_Comm_rank", "mpi"))
	for len(e.Cnodes) < size {
		// Pick a parent among the user and OpenMP call paths, preferring
		// recent ones for deep trees.
		p := len(e.Cnodes) - 1 - rng.IntN(min(len(e.Cnodes), 12))
		for e.Regions[e.Cnodes[p].Region].Paradigm == "mpi" {
			p = e.Cnodes[p].Parent
		}
		switch x := rng.IntN(10); {
		case x < 6:
			add(p, reg(scaleUser[rng.IntN(len(scaleUser))], "user"))
		case x < 8:
			add(p, reg(scaleMPI[2+rng.IntN(len(scaleMPI)-2)], "mpi"))
		default:
			add(p, reg(scaleOMP[rng.IntN(len(scaleOMP))], "openmp"))
		}
	}
	add(root, reg("MPI_Finalize", "mpi"))
	threads := 1 + rng.IntN(2)
	nl := 8
	e.System = append(e.System, model.SystemNode{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "cluster", Parent: -1, Location: -1})
	nodes := 2
	for n := 0; n < nodes; n++ {
		e.System = append(e.System, model.SystemNode{ID: 1 + n, Kind: model.TreeNode, Class: "node", Name: fmt.Sprintf("node%03d", n+4*(i%50)), Parent: 0, Location: -1})
	}
	for p := 0; p < nl/threads; p++ {
		g := len(e.System)
		e.System = append(e.System, model.SystemNode{ID: p, Kind: model.Group, Class: "process", Name: fmt.Sprintf("MPI Rank %d", p), Rank: p,
			Parent: 1 + p*nodes/(nl/threads), Location: -1})
		for t := 0; t < threads; t++ {
			e.System = append(e.System, model.SystemNode{ID: p*threads + t, Kind: model.Leaf, Class: "thread", Name: fmt.Sprintf("Thread %d", t),
				Rank: t, Parent: g, Location: -1})
		}
	}
	e.Link()
	e.NumberLocations()
	nl = e.NumLocations()
	nc := len(e.Cnodes)
	// Heavy-tailed times: a few hot call paths; MPI waits grow with
	// imbalance, which some runs have much of.
	imbalance := math.Exp(rng.NormFloat64()) * 0.05
	scale := math.Exp(rng.NormFloat64()) * float64(procs) / 8
	blocks := make([]*model.Block, len(e.Metrics))
	for m := range blocks {
		blocks[m] = model.NewBlock(nc, nl)
	}
	for c := 0; c < nc; c++ {
		kind := e.Regions[e.Cnodes[c].Region].Paradigm
		base := math.Exp(rng.NormFloat64()*2) * scale * 1e-3
		calls := float64(1 + rng.IntN(1000))
		if kind == "mpi" {
			base *= 1 + imbalance*20
		}
		ipc := 0.3 + 2.5*rng.Float64()
		for m, b := range blocks {
			if m == 2 && kind != "mpi" {
				continue // bytes are sent by MPI calls only
			}
			row := b.MutableRow(c)
			for l := range row {
				t := base * (1 + 0.2*rng.Float64())
				switch m {
				case 0:
					row[l] = t
				case 1:
					row[l] = calls
				case 2:
					row[l] = math.Round(calls * 1024 * (1 + rng.Float64()))
				case 3:
					row[l] = math.Round(t * 2.4e9 * ipc)
				case 4:
					row[l] = math.Round(t * 2.4e9)
				}
			}
		}
	}
	for m, b := range blocks {
		e.SetBlock(m, b)
	}
	opt := ImportOptions{App: app, Experiment: fmt.Sprintf("%s-%d", app, i/1000), Name: fmt.Sprintf("run%06d", i),
		Attrs: []model.Attr{
			{Key: "procs", Value: strconv.Itoa(procs)},
			{Key: "size", Value: strconv.Itoa(10 + i%40)},
			{Key: "compiler", Value: []string{"gcc-13", "gcc-14", "clang-18", "icx-2024"}[i%4]},
			{Key: "run", Value: strconv.Itoa(i)},
		}, Force: true}
	return e, opt
}

// scaleRepo returns a repository of n generated trials in engine,
// building it on first use.
func scaleRepo(b *testing.B, engine string, n int) (*Repo, int64) {
	ctx := context.Background()
	var loc string
	var size func() int64
	if engine == "sqlite" {
		os.MkdirAll(benchDir, 0o755)
		loc = filepath.Join(benchDir, fmt.Sprintf("scale-%d-v%d.db", n, SchemaVersion))
		size = func() int64 { return fileSize(b, loc, loc+"-wal") }
		// A repository of an older schema is upgraded (a copy of it),
		// which is quicker than building anew and times the upgrade.
		if _, err := os.Stat(loc); err != nil {
			for v := SchemaVersion - 1; v >= schemaChunks; v-- {
				old := filepath.Join(benchDir, fmt.Sprintf("scale-%d-v%d.db", n, v))
				if _, err := os.Stat(old); err == nil {
					if err := copyFile(old, loc); err != nil {
						b.Fatal(err)
					}
					upgradeScale(b, loc, n)
					break
				}
			}
		}
	} else {
		admin := os.Getenv(envPostgres)
		if admin == "" {
			b.Skipf("no PostgreSQL server: set %s", envPostgres)
		}
		name := fmt.Sprintf("cvbench_%d_v%d", n, SchemaVersion)
		db, err := sql.Open("pgx", admin)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		var exists, upgradable int
		db.QueryRow(`SELECT COUNT(*) FROM pg_database WHERE datname = $1`, name).Scan(&exists)
		var old string
		for v := SchemaVersion - 1; v >= schemaChunks && upgradable == 0; v-- {
			old = fmt.Sprintf("cvbench_%d_v%d", n, v)
			db.QueryRow(`SELECT COUNT(*) FROM pg_database WHERE datname = $1`, old).Scan(&upgradable)
		}
		create := "CREATE DATABASE " + name
		if upgradable > 0 {
			create += " TEMPLATE " + old
		}
		if exists == 0 {
			if _, err := db.Exec(create); err != nil {
				b.Fatal(err)
			}
		}
		u, _ := url.Parse(admin)
		u.Path = "/" + name
		loc = u.String()
		if exists == 0 && upgradable > 0 {
			upgradeScale(b, loc, n)
		}
		size = func() int64 {
			var s int64
			db, _ := sql.Open("pgx", admin)
			defer db.Close()
			db.QueryRow(`SELECT pg_database_size($1)`, name).Scan(&s)
			return s
		}
	}
	if n > scaleDistinct {
		if n%scaleDistinct != 0 {
			b.Fatalf("%d trials: give a multiple of %d", n, scaleDistinct)
		}
		r := replicatedRepo(b, engine, n, loc)
		base, bytes := scaleRepo(b, engine, scaleDistinct)
		base.Close()
		return r, bytes * int64(n) / int64(scaleDistinct)
	}
	r, err := OpenWith(ctx, loc, Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	var have int
	r.db.QueryRow(`SELECT COUNT(*) FROM trial WHERE state = 0`).Scan(&have)
	if have < n {
		start := time.Now()
		var next atomic.Int64
		next.Store(int64(have))
		var wg sync.WaitGroup
		var failed atomic.Value
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1) - 1)
					if i >= n || failed.Load() != nil {
						return
					}
					e, opt := scaleTrial(i)
					if _, err := r.ImportExperiment(ctx, e, Source{Path: opt.Name, Size: 1, SHA256: fmt.Sprint(i)}, opt); err != nil {
						failed.Store(err)
						return
					}
					if i%5000 == 0 {
						fmt.Fprintf(os.Stderr, "scale %s: %d of %d trials after %v\n", engine, i, n, time.Since(start).Round(time.Second))
					}
				}
			}()
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			b.Fatal(err)
		}
		if engine == "sqlite" {
			r.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
		} else {
			r.db.Exec(`VACUUM ANALYZE`)
		}
		fmt.Fprintf(os.Stderr, "scale %s: built %d trials in %v (%.1f ms per trial)\n", engine, n-have, time.Since(start).Round(time.Second),
			float64(time.Since(start).Milliseconds())/float64(n-have))
	}
	if engine == "sqlite" && have < n {
		r.db.Exec(`ANALYZE`)
	}
	return r, size()
}

// cpuTime returns the user and system CPU time this process used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// upgradeScale upgrades the copy at loc of a repository of an older schema.
func upgradeScale(b *testing.B, loc string, n int) {
	start := time.Now()
	res, err := Upgrade(context.Background(), loc, UpgradeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "scale: upgraded %d trials from schema %d to %d in %v\n", n, res.From, res.To, time.Since(start).Round(time.Millisecond))
}

// scaleDistinct is how many distinct trials a scale repository holds at
// most; larger ones repeat them ($CUBEVIEW_BENCH_DISTINCT).
var scaleDistinct = 10000

func init() {
	if n, err := strconv.Atoi(os.Getenv("CUBEVIEW_BENCH_DISTINCT")); err == nil && n > 0 {
		scaleDistinct = n
	}
}

// copiedTables lists the tables that hold rows per trial, in a column
// named trial, that copies of trials take along: what searches and
// listings read (not the definitions and chunks that opening a trial
// reads).
var copiedTables = []string{"trial_attr", "metric", "summary", "bound", "hot"}

// replicatedRepo returns the repository of n trials at loc, building it
// from the one of scaleDistinct trials: a copy of it in which every trial
// is copied in SQL under new ids until there are n.
func replicatedRepo(b *testing.B, engine string, n int, loc string) *Repo {
	ctx := context.Background()
	if engine == "sqlite" {
		if _, err := os.Stat(loc); err != nil {
			base, _ := scaleRepo(b, engine, scaleDistinct)
			base.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
			base.Close()
			from := filepath.Join(benchDir, fmt.Sprintf("scale-%d-v%d.db", scaleDistinct, SchemaVersion))
			if err := copyFile(from, loc+".tmp"); err != nil {
				b.Fatal(err)
			}
			if err := os.Rename(loc+".tmp", loc); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		admin := os.Getenv(envPostgres)
		db, err := sql.Open("pgx", admin)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		name := fmt.Sprintf("cvbench_%d_v%d", n, SchemaVersion)
		var trials int
		if q, err := sql.Open("pgx", loc); err == nil {
			q.QueryRow(`SELECT COUNT(*) FROM trial`).Scan(&trials)
			q.Close()
		}
		if trials == 0 {
			base, _ := scaleRepo(b, engine, scaleDistinct)
			base.Close()
			if _, err := db.Exec("DROP DATABASE IF EXISTS " + name); err != nil {
				b.Fatal(err)
			}
			if _, err := db.Exec(fmt.Sprintf("CREATE DATABASE %s TEMPLATE cvbench_%d_v%d", name, scaleDistinct, SchemaVersion)); err != nil {
				b.Fatal(err)
			}
		}
	}
	r, err := OpenWith(ctx, loc, Options{})
	if err != nil {
		b.Fatal(err)
	}
	// The imported trials are those not named as copies (a build that was
	// stopped may have left gaps in their ids).
	var have, top int64
	if err := r.db.QueryRow(`SELECT COUNT(*), MAX(id) FROM trial WHERE state = 0 AND name NOT LIKE '%-copy%'`).Scan(&have, &top); err != nil {
		b.Fatal(err)
	}
	if have != int64(scaleDistinct) {
		b.Fatalf("the base repository holds %d of %d trials", have, scaleDistinct)
	}
	start := time.Now()
	copied := false
	for k := 1; k < n/scaleDistinct; k++ {
		off := int64(k) * top
		var done int
		r.db.QueryRow(r.d.q(`SELECT COUNT(*) FROM trial WHERE id > ? AND id <= ?`), off, off+top).Scan(&done)
		if done > 0 {
			continue
		}
		tx, err := r.db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		if engine == "sqlite" {
			// The bound indexes grow at random places: a page cache that
			// holds them (the default is 2 MB).
			if _, err := tx.Exec(`PRAGMA cache_size = -2000000`); err != nil {
				b.Fatal(err)
			}
		} else {
			// No per-row foreign-key triggers while copying.
			if _, err := tx.Exec(`SET LOCAL session_replication_role = replica`); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := tx.Exec(r.d.q(`INSERT INTO trial (id, experiment, name, source, size, sha256, format, imported, state, importer,
			cnodes, regions, locations, header, tree) SELECT id + ?, experiment, name || '-copy`+strconv.Itoa(k)+`', source, size,
			sha256 || '-`+strconv.Itoa(k)+`', format, imported, state, importer, cnodes, regions, locations, header, tree
			FROM trial WHERE id <= ? AND state = 0`), off, top); err != nil {
			b.Fatal(err)
		}
		for _, t := range copiedTables {
			cols := columns(b, r, t)
			sel := strings.Replace(strings.Join(cols, ", "), "trial", "trial + "+strconv.FormatInt(off, 10), 1)
			if cols[0] != "trial" {
				b.Fatalf("table %s: the trial is not the first column", t)
			}
			if _, err := tx.Exec(r.d.q(fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s FROM %s WHERE trial IN (SELECT id FROM trial WHERE id <= ? AND state = 0)`, t, strings.Join(cols, ", "), sel, t)), top); err != nil {
				b.Fatalf("copying %s: %v", t, err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		copied = true
		fmt.Fprintf(os.Stderr, "scale %s: %d of %d trials after %v\n", engine, (k+1)*scaleDistinct, n, time.Since(start).Round(time.Second))
	}
	if !copied {
		return r
	}
	if engine == "sqlite" {
		r.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
		r.db.Exec(`ANALYZE`)
	} else {
		r.db.Exec(`SELECT setval(pg_get_serial_sequence('trial', 'id'), (SELECT MAX(id) FROM trial))`)
		r.db.Exec(`VACUUM ANALYZE`)
	}
	return r
}

// columns returns the columns of table t in order.
func columns(b *testing.B, r *Repo, t string) []string {
	q := `SELECT name FROM pragma_table_info(?) ORDER BY cid`
	if r.d.name == "postgres" {
		q = `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position`
	}
	rows, err := r.db.Query(q, t)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		rows.Scan(&c)
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		b.Fatalf("table %s has no columns", t)
	}
	return cols
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// BenchmarkScale times ls --where, find with one constraint, the best 20
// call paths, and searches of a derived metric in repositories of many
// trials, reporting the size per trial.
func BenchmarkScale(b *testing.B) {
	sizes := []int{10000}
	if s := os.Getenv("CUBEVIEW_BENCH_TRIALS"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				b.Fatalf("CUBEVIEW_BENCH_TRIALS=%q", s)
			}
			sizes = append(sizes, n)
		}
	}
	engines := []string{"sqlite", "postgres"}
	if s := os.Getenv("CUBEVIEW_BENCH_ENGINES"); s != "" {
		engines = strings.Split(s, ",")
	}
	name, f, err := model.ParseDefinition("ipc = PAPI_TOT_INS / PAPI_TOT_CYC")
	if err != nil {
		b.Fatal(err)
	}
	ipc := []model.DerivedMetric{{UniqName: name, Formula: f}}
	for _, engine := range engines {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/%d", engine, n), func(b *testing.B) {
				w, bytes := scaleRepo(b, engine, n)
				loc := w.Location()
				w.Close()
				// Searches and listings open read-only, as the commands do.
				r, err := OpenReadOnly(context.Background(), loc)
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				ctx := context.Background()
				b.Logf("%s, %d trials: %.1f KB per trial", engine, n, float64(bytes)/float64(n)/1024)
				run := func(name string, f func() (int, error)) {
					b.Run(name, func(b *testing.B) {
						b.ReportAllocs()
						// One untimed run first: the figures are those of a
						// repository in use, not of the first read from disk.
						k, err := f()
						if err != nil {
							b.Fatal(err)
						}
						// CPU time of this process (all of SQLite's work, the
						// client's share of PostgreSQL's): steadier than wall
						// time on a loaded machine.
						cpu0 := cpuTime()
						for b.Loop() {
							if k, err = f(); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
						if k == 0 {
							b.Fatal("nothing found: the benchmark measures nothing")
						}
						b.ReportMetric(float64(k), "results")
						b.ReportMetric(float64(bytes)/float64(n)/1024, "KB/trial")
					})
				}
				run("ls-where", func() (int, error) {
					ts, err := r.Trials(ctx, "app = lulesh and procs >= 512 and compiler = 'gcc-13'", ListOptions{})
					return len(ts), err
				})
				run("find-one", func() (int, error) {
					h, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.5, Kind: "mpi"})
					return len(h), err
				})
				run("find-one-value", func() (int, error) {
					h, err := r.Find(ctx, Query{Metric: "bytes_sent", MinValue: 1.4e7})
					return len(h), err
				})
				run("top20", func() (int, error) {
					h, err := r.Find(ctx, Query{Metric: "time", MinValue: 0, Limit: 20})
					return len(h), err
				})
				run("top20-share-mpi", func() (int, error) {
					h, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0, Kind: "mpi", Limit: 20})
					return len(h), err
				})
				run("derived-top20", func() (int, error) {
					h, err := r.Find(ctx, Query{Constraint: "time >= 10% and ipc < 0.6", Derived: ipc, Limit: 20})
					return len(h), err
				})
			})
		}
	}
}
