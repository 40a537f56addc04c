package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode"

	"cubeview/format"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
)

const repoUsage = `usage: cubeview repo [--repo LOC] VERB …

The experiment repository stores runs organised as application →
experiment → trial, with typed attributes, and finds them again. LOC is an
SQLite file or a postgres://user@host/db URL; without --repo, $CUBEVIEW_REPO
or $XDG_DATA_HOME/cubeview/repository.db (~/.local/share/… when unset).
Only that last, personal location is created on first use; any other
repository is made with "repo init". Commands that only read (ls, show,
find, export, open, check) open the repository read-only: they work on a
file the user may only read, on a full disk and for a PostgreSQL role
with read rights only.

Verbs:
  init [LOC]          create a new, empty repository at LOC (or --repo LOC)
  import [--app A] [--experiment E] [--name N] [--attr k=v]… [--force] [--wait D] PATH…
        store each file (any format cubeview reads) as a new trial and print
        its id; the same content twice is refused unless --force
  ls [--where FILTER] [--csv] [--all]
        list trials: id, app, experiment, name, attributes (--all: also
        the files' own attributes); --csv: a header line, id first
  show TRIAL          every field of a trial, one "field: value" line each
  set TRIAL k=v… [--unset k]… [--wait D]
        set or remove attributes; app=, experiment= and name= move or
        rename the trial
  rm [--wait D] TRIAL…
        remove trials
  find [--metric UNIQ] [--excl|--incl] (--share FRACTION | --min VALUE | CONSTRAINT)
       [--kind mpi|omp|user|…] [--region PATTERN] [--ranks A-B] [--threads A-B]
       [--host PATTERN] [--flat] [--where FILTER] [--derive 'NAME = EXPR']…
       [--limit N] [--csv]
        call paths (--flat: regions) that meet a constraint, best first,
        with trial, value, share of the run and call path. The simple
        constraint is --metric with --min VALUE or --share FRACTION (the
        value is at least VALUE, or FRACTION of the run's total); a
        CONSTRAINT joins tests with and, or, not and parentheses, each test
        METRIC OP NUMBER[%] with OP one of >= > <= < and % meaning a share
        of the run's total; incl(METRIC) and excl(METRIC) choose values
        with or without callees (--excl, the default, or --incl for a bare
        METRIC); quote metric names with spaces or operators:
          cubeview repo find 'time >= 10% and incl(visits) < 1000'
        Hits are ranked by --metric, else by the first test's metric.
        --kind keeps call paths of regions of that kind; --region those
        whose region name matches PATTERN (* any text, ? one character; a
        PATTERN with / matches the whole call path, main/*/MPI_*);
        --ranks, --threads and --host (a machine or node name PATTERN)
        restrict the values to those processes, threads and hosts (and the
        run's total to the same locations); --derive defines a metric from
        others as "cubeview derive" does (ipc = PAPI_TOT_INS / PAPI_TOT_CYC),
        evaluated after aggregation in every trial that has its operands;
        derived metrics stored in trials are found like any other. A
        metric, kind or attribute that no trial has is an error (exit
        status 2) that suggests what was meant
  export TRIAL OUT    write a trial as .cubex, .cube or .cube.gz
  open TRIAL…         open trials in windows
  check               read every stored value and verify its checksum; exit
                      status 1 when something is damaged
  upgrade             convert a repository of an earlier cubeview to this
                      version's schema (until then this version only reads
                      it); the repository as it was is kept beside it, but
                      from schema 4 or 5 indexes and the hot call paths are
                      added in place, in one transaction

Changes wait up to --wait (default 60s) while another program writes and
say who it is where the engine can tell; readers never wait.

In the windows, File › Repository… (or "cubeview --repository [--repo LOC]")
browses the same repository: the trial tree with attribute columns, the
filter, Import…, attribute editing, Search… and marked trials as operands
of Difference, Merge and Mean.

TRIAL is an id (17, repo:17) or key=value conditions that exactly one
trial meets (repo:app=lulesh,procs=64). Anywhere a command or calc takes a
file, repo:ID and repo:key=value,… name a trial of $CUBEVIEW_REPO (quote
the second form in calc: diff("repo:app=lulesh,procs=64", repo:12)).

FILTER selects trials: comparisons name = value with = != < <= > >= and ~
(a pattern with * and ?, !~ its negation), joined by and, or, not and
parentheses; "has key" tests for an attribute. The names id, app,
experiment, name, source, filesize, sha256, format, imported are the trial's
fields, any other name an attribute (@name forces the attribute). An
unquoted number compares numerically; quote text with "…" or '…'.
  cubeview repo ls --where 'app = lulesh and procs >= 64 and compiler ~ "gcc*"'

Attributes procs (processes), threads (most threads of a process) and
locations are filled in at import; the file's own attributes are kept
too. A user's attribute hides an automatic one, which hides the file's.

SQL users find views (trials, trial_attributes, metrics, regions,
call_paths, locations; in PostgreSQL also call_path_values, region_values
and location_values, the values per location) described in the README.`

func init() {
	register(&Command{
		Name:    "repo",
		Summary: "experiment repository: import, ls, show, set, rm, find, export, open",
		Usage:   repoUsage,
		Run:     runRepo,
	})
	format.RegisterReference(repo.RefPrefix, openReference)
}

// refLocation is the repository that trial references read; set by
// "repo --repo LOC open" before the windows open.
var refLocation string

// ReferenceLocation returns the repository location "repo --repo LOC open"
// named, "" when it named none (references then read $CUBEVIEW_REPO or
// the default); the windows' repository browser opens the same one.
func ReferenceLocation() string { return refLocation }

var sharedRepos struct {
	sync.Mutex
	byLocation map[string]*repo.Repo
}

// sharedRepo returns an open repository that stays open for the life of
// the process: experiments read from it load their data lazily.
func sharedRepo(loc string) (*repo.Repo, error) {
	if loc == "" {
		var err error
		if loc, err = repo.DefaultLocation(); err != nil {
			return nil, err
		}
	}
	sharedRepos.Lock()
	defer sharedRepos.Unlock()
	if r, ok := sharedRepos.byLocation[loc]; ok {
		return r, nil
	}
	r, err := repo.OpenReadOnly(context.Background(), loc)
	if err != nil {
		return nil, err
	}
	if sharedRepos.byLocation == nil {
		sharedRepos.byLocation = map[string]*repo.Repo{}
	}
	sharedRepos.byLocation[loc] = r
	return r, nil
}

// openReference reads the trial a reference such as repo:17 names.
func openReference(ref string) (*model.Experiment, error) {
	r, err := sharedRepo(refLocation)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	ctx := context.Background()
	id, err := r.Resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	return r.Open(ctx, id)
}

// WindowRequest recognises "repo [--repo LOC] open TRIAL…", which the
// command line cannot serve: it returns the trial references to open in
// windows (ok true), or, when they do not resolve, the exit status after
// printing why. For any other arguments ok is false.
func WindowRequest(args []string, env Env) (refs []string, status int, ok bool) {
	if len(args) < 2 || args[0] != "repo" {
		return nil, 0, false
	}
	loc, rest, err := repoLocation(args[1:])
	if err != nil || len(rest) == 0 || rest[0] != "open" {
		return nil, 0, false
	}
	trials := rest[1:]
	if len(trials) == 0 {
		fmt.Fprintf(env.Stderr, "cubeview repo open: no trial given\n%s\n", repoUsage)
		return nil, 2, true
	}
	refLocation = loc
	r, err := sharedRepo(loc)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cubeview repo open: %v\n", err)
		return nil, 1, true
	}
	for _, t := range trials {
		id, err := r.Resolve(context.Background(), t)
		if err != nil {
			fmt.Fprintf(env.Stderr, "cubeview repo open: %v\n", err)
			return nil, 1, true
		}
		refs = append(refs, repo.RefPrefix+strconv.FormatInt(id, 10))
	}
	return refs, 0, true
}

// repoLocation takes a leading --repo LOC (or --repo=LOC) off args.
func repoLocation(args []string) (loc string, rest []string, err error) {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--repo" || a == "-repo":
			if len(args) < 2 {
				return "", nil, usagef("--repo needs a location")
			}
			loc, args = args[1], args[2:]
		case strings.HasPrefix(a, "--repo=") || strings.HasPrefix(a, "-repo="):
			loc, args = a[strings.Index(a, "=")+1:], args[1:]
		default:
			return loc, args, nil
		}
	}
	return loc, args, nil
}

// repoVerbs are the verbs of "repo" and whether each changes the repository.
var repoVerbs = map[string]struct {
	run    func(context.Context, Env, func() (*repo.Repo, error), []string) error
	writes bool
}{
	"import": {repoImport, true}, "ls": {repoList, false}, "show": {repoShow, false}, "set": {repoSet, true},
	"rm": {repoRemove, true}, "find": {repoFind, false}, "export": {repoExport, false}, "open": {repoOpen, false},
	"check": {repoCheck, false},
}

func runRepo(env Env, args []string) error {
	loc, rest, err := repoLocation(args)
	if err != nil {
		return err
	}
	const verbs = "init, import, ls, show, set, rm, find, export, open, check or upgrade"
	if len(rest) == 0 {
		return usagef("no verb: give " + verbs)
	}
	verb, vargs := rest[0], rest[1:]
	switch verb {
	case "-h", "--help", "help":
		return flag.ErrHelp
	case "init":
		return repoInit(env, loc, vargs)
	case "upgrade":
		return repoUpgrade(env, loc, vargs)
	}
	v, ok := repoVerbs[verb]
	if !ok {
		names := make([]string, 0, len(repoVerbs)+2)
		for n := range repoVerbs {
			names = append(names, n)
		}
		names = append(names, "init", "upgrade")
		sort.Strings(names)
		return usagef("unknown verb %q%s: give %s", verb, didYouMean(suggest(verb, names)), verbs)
	}
	var r *repo.Repo
	opt := repo.Options{Mode: repo.ReadOnly}
	if v.writes {
		opt = repo.Options{Mode: repo.ReadWrite, Waiting: waitingReporter(env, "repo "+verb)}
		if vargs, opt.Wait, err = waitFlag(vargs); err != nil {
			return err
		}
	}
	open := func() (*repo.Repo, error) {
		if r == nil {
			var err error
			if r, err = repo.OpenWith(context.Background(), loc, opt); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	return repoInputError(v.run(context.Background(), env, open, vargs))
}

// repoInputError marks mistyped names and malformed filters and
// constraints (exit status 2).
func repoInputError(err error) error {
	var une *repo.UnknownNameError
	var fe *repo.FilterError
	var ce *repo.ConstraintError
	if errors.As(err, &une) || errors.As(err, &fe) || errors.As(err, &ce) {
		return inputError{err}
	}
	return err
}

// waitFlag takes --wait D (or --wait=D) out of args.
func waitFlag(args []string) ([]string, time.Duration, error) {
	var out []string
	var wait time.Duration
	for i := 0; i < len(args); i++ {
		a := args[i]
		val, isWait := "", false
		switch {
		case a == "--wait" || a == "-wait":
			if i+1 >= len(args) {
				return nil, 0, usagef("--wait needs a duration (30s, 5m)")
			}
			val, isWait = args[i+1], true
			i++
		case strings.HasPrefix(a, "--wait=") || strings.HasPrefix(a, "-wait="):
			val, isWait = a[strings.Index(a, "=")+1:], true
		}
		if !isWait {
			out = append(out, a)
			continue
		}
		d, err := time.ParseDuration(val)
		if err != nil || d <= 0 {
			return nil, 0, usagef("--wait %q: want a positive duration such as 30s or 5m", val)
		}
		wait = d
	}
	return out, wait, nil
}

// waitingReporter says on stderr, every few seconds, that a change waits
// for a busy repository and for whom.
func waitingReporter(env Env, what string) func(repo.Busy) {
	var last time.Duration = -time.Hour
	return func(b repo.Busy) {
		if b.Waited-last < 5*time.Second {
			return
		}
		last = b.Waited
		who := "another program is changing it"
		if b.Holder != "" {
			who = b.Holder
		}
		fmt.Fprintf(env.Stderr, "cubeview %s: the repository is busy (%s); waiting (%s so far)\n", what, who, b.Waited.Round(time.Second))
	}
}

func repoInit(env Env, loc string, args []string) error {
	pos, err := parseArgs(repoFlags("init"), args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 1:
		return usagef("init takes one location, got %d", len(pos))
	case len(pos) == 1 && loc != "" && pos[0] != loc:
		return usagef("init: two locations, --repo %s and %s", loc, pos[0])
	case len(pos) == 1:
		loc = pos[0]
	}
	if loc == "" {
		if loc, err = repo.DefaultLocation(); err != nil {
			return err
		}
	}
	r, err := repo.Init(context.Background(), loc)
	if err != nil {
		return err
	}
	defer r.Close()
	fmt.Fprintf(env.Stdout, "created repository %s (%s, schema %d, identity %s)\n", r.Name(), r.Engine(), r.Schema(), r.Identity())
	return nil
}

func repoUpgrade(env Env, loc string, args []string) error {
	pos, err := parseArgs(repoFlags("upgrade"), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("upgrade takes no arguments (the repository is --repo LOC)")
	}
	fmt.Fprintf(env.Stderr, "cubeview repo upgrade: converting to schema %d\n", repo.SchemaVersion)
	res, err := repo.Upgrade(context.Background(), loc, repo.UpgradeOptions{Progress: func(done, total int) {
		if done == total || done%100 == 0 {
			fmt.Fprintf(env.Stderr, "cubeview repo upgrade: %d of %d trials\n", done, total)
		}
	}})
	if err != nil {
		return err
	}
	if res.Backup == "" {
		fmt.Fprintf(env.Stdout, "upgraded from schema %d to %d in place (indexes and hot call paths added in one transaction): %d trials; "+
			"cubeview versions of schema %d still read it, read-only\n", res.From, res.To, res.Trials, res.From)
		return nil
	}
	fmt.Fprintf(env.Stdout, "upgraded from schema %d to %d: %d trials; the repository as it was is kept as %s; "+
		"cubeview versions that only know the older schema cannot read it\n", res.From, res.To, res.Trials, res.Backup)
	return nil
}

func repoCheck(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	pos, err := parseArgs(repoFlags("check"), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("check takes no arguments")
	}
	r, err := open()
	if err != nil {
		return err
	}
	rep, err := r.Check(ctx, nil)
	if err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(env.Stdout, printable(p))
	}
	fmt.Fprintf(env.Stdout, "%d trials, %d summaries, %d data chunks checked", rep.Trials, rep.Summaries, rep.Chunks)
	if rep.Pending > 0 {
		fmt.Fprintf(env.Stdout, "; %d imports in progress (or left by imports that died)", rep.Pending)
	}
	fmt.Fprintln(env.Stdout)
	if len(rep.Problems) > 0 {
		return fmt.Errorf("repository %s: %d problems: the stored data were changed or damaged outside cubeview", r.Name(), len(rep.Problems))
	}
	return nil
}

// repoFlags returns the flag set of a verb.
func repoFlags(verb string) *flag.FlagSet {
	return newFlagSet("repo " + verb)
}

func repoImport(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	fs := repoFlags("import")
	var opt repo.ImportOptions
	fs.StringVar(&opt.App, "app", "", "application")
	fs.StringVar(&opt.Experiment, "experiment", "", "experiment")
	fs.StringVar(&opt.Name, "name", "", "trial name")
	fs.BoolVar(&opt.Force, "force", false, "store content that is already stored")
	var attrs stringList
	fs.Var(&attrs, "attr", "attribute key=value")
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("no PATH to import")
	}
	for _, kv := range attrs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("--attr %q: want key=value", kv)
		}
		opt.Attrs = append(opt.Attrs, model.Attr{Key: k, Value: v})
	}
	r, err := open()
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range paths {
		id, err := r.Import(ctx, p, opt)
		if err != nil {
			if len(paths) > 1 {
				fmt.Fprintf(env.Stderr, "cubeview repo import: %v\n", err)
			}
			errs = append(errs, err)
			continue
		}
		fmt.Fprintln(env.Stdout, id)
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return fmt.Errorf("%d of %d imports failed", len(errs), len(paths))
}

func repoList(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	fs := repoFlags("ls")
	where := fs.String("where", "", "filter")
	asCSV := fs.Bool("csv", false, "CSV output")
	all := fs.Bool("all", false, "include the files' own attributes")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("ls takes no arguments (filter with --where)")
	}
	r, err := open()
	if err != nil {
		return err
	}
	trials, err := r.Trials(ctx, *where, repo.ListOptions{FileAttrs: *all})
	if err != nil {
		return err
	}
	if *asCSV {
		return writeTrialsCSV(env.Stdout, trials)
	}
	// tabwriter writes each cell on its own: buffered, a listing is one
	// write, not thousands of system calls.
	out := bufio.NewWriter(env.Stdout)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tapp\texperiment\tname\tattributes")
	for _, t := range trials {
		parts := make([]string, len(t.Attrs))
		for i, a := range t.Attrs {
			parts[i] = printable(a.Key) + "=" + printable(a.Value)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", t.ID, printable(t.App), printable(t.Experiment), printable(t.Name), strings.Join(parts, " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return out.Flush()
}

// writeTrialsCSV writes id, app, experiment, name and one column per
// attribute key; values are written literally.
func writeTrialsCSV(w io.Writer, trials []repo.Trial) error {
	keySet := map[string]bool{}
	for _, t := range trials {
		for _, a := range t.Attrs {
			keySet[a.Key] = true
		}
	}
	keys := make([]string, 0, len(keySet))
	for k := range keySet {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"id", "app", "experiment", "name"}, keys...))
	for _, t := range trials {
		rec := []string{strconv.FormatInt(t.ID, 10), t.App, t.Experiment, t.Name}
		for _, k := range keys {
			a, _ := t.Attr(k)
			rec = append(rec, a.Value)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// printable shows text as it is unless it holds control characters (a
// newline, a NUL), which are shown Go-quoted so one line stays one line.
func printable(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return strconv.Quote(s)
		}
	}
	return s
}

func oneTrial(ctx context.Context, r *repo.Repo, args []string, verb string) (int64, []string, error) {
	if len(args) == 0 {
		return 0, nil, usagef("%s: no TRIAL given", verb)
	}
	id, err := r.Resolve(ctx, args[0])
	return id, args[1:], err
}

func repoShow(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	pos, err := parseArgs(repoFlags("show"), args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("show takes one TRIAL, got %d", len(pos))
	}
	r, err := open()
	if err != nil {
		return err
	}
	id, _, err := oneTrial(ctx, r, pos, "show")
	if err != nil {
		return err
	}
	t, err := r.Trial(ctx, id)
	if err != nil {
		return err
	}
	c, err := r.Counts(ctx, id)
	if err != nil {
		return err
	}
	p := func(k string, v any) { fmt.Fprintf(env.Stdout, "%s: %v\n", k, v) }
	p("id", t.ID)
	p("app", printable(t.App))
	p("experiment", printable(t.Experiment))
	p("name", printable(t.Name))
	p("source", printable(t.Source))
	p("file size", t.Size)
	p("sha256", t.SHA256)
	p("format", printable(t.Format))
	p("imported", t.Imported.Local().Format("2006-01-02 15:04:05 MST"))
	p("metrics", c.Metrics)
	p("regions", c.Regions)
	p("call paths", c.Cnodes)
	p("locations", c.Locations)
	p("stored data", fmt.Sprintf("%d bytes", c.DataBytes))
	for _, a := range t.Attrs {
		kind := "text"
		if a.IsNumber {
			kind = "number"
		}
		p("attr "+printable(a.Key), fmt.Sprintf("%s (%s, %s)", printable(a.Value), kind, a.Origin))
	}
	return nil
}

func repoSet(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	fs := repoFlags("set")
	var unset stringList
	fs.Var(&unset, "unset", "attribute to remove")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("set: no TRIAL given")
	}
	var set []model.Attr
	for _, kv := range pos[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("set: %q is not key=value", kv)
		}
		set = append(set, model.Attr{Key: k, Value: v})
	}
	if len(set)+len(unset) == 0 {
		return usagef("set: give key=value or --unset key")
	}
	r, err := open()
	if err != nil {
		return err
	}
	id, err := r.Resolve(ctx, pos[0])
	if err != nil {
		return err
	}
	return r.SetAttrs(ctx, id, set, unset)
}

func repoRemove(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	pos, err := parseArgs(repoFlags("rm"), args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("rm: no TRIAL given")
	}
	r, err := open()
	if err != nil {
		return err
	}
	var ids []int64
	for _, p := range pos {
		id, err := r.Resolve(ctx, p)
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := r.Remove(ctx, ids...); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "removed %d trial(s)\n", len(ids))
	return nil
}

func repoFind(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	fs := repoFlags("find")
	var q repo.Query
	fs.StringVar(&q.Metric, "metric", "", "metric uniq_name")
	excl := fs.Bool("excl", false, "call paths' own values (default)")
	incl := fs.Bool("incl", false, "values with callees")
	share := fs.String("share", "", "least share of the run's total")
	minV := fs.String("min", "", "least value")
	fs.StringVar(&q.Kind, "kind", "", "region kind")
	fs.StringVar(&q.Region, "region", "", "region name pattern")
	fs.StringVar(&q.Host, "host", "", "host name pattern")
	ranks := fs.String("ranks", "", "process ranks A-B")
	threads := fs.String("threads", "", "thread ranks A-B")
	fs.BoolVar(&q.Flat, "flat", false, "regions instead of call paths")
	fs.StringVar(&q.Where, "where", "", "trial filter")
	fs.IntVar(&q.Limit, "limit", 0, "most hits shown")
	asCSV := fs.Bool("csv", false, "CSV output")
	var derive stringList
	fs.Var(&derive, "derive", "derived metric NAME = EXPR")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	for _, def := range derive {
		name, f, err := model.ParseDefinition(def)
		if err != nil {
			return usagef("find: --derive: %v", err)
		}
		q.Derived = append(q.Derived, model.DerivedMetric{UniqName: name, Formula: f})
	}
	switch {
	case len(pos) > 1:
		return usagef("find takes one CONSTRAINT (quote it), got %d arguments", len(pos))
	case *excl && *incl:
		return usagef("find: --excl and --incl exclude each other")
	case len(pos) == 1 && (*share != "" || *minV != ""):
		return usagef("find: give a CONSTRAINT or --share/--min, not both")
	case len(pos) == 0 && q.Metric == "":
		return usagef("find: give a CONSTRAINT, or --metric UNIQ with --share FRACTION or --min VALUE")
	case len(pos) == 0 && (*share == "") == (*minV == ""):
		return usagef("find: give exactly one of --share FRACTION and --min VALUE")
	}
	q.Inclusive = *incl
	if len(pos) == 1 {
		q.Constraint = pos[0]
	} else if *share != "" {
		q.Share = true
		if q.MinShare, err = repo.ParseShare(*share); err != nil {
			return usagef("find: --share %v", err)
		}
	} else if q.MinValue, err = strconv.ParseFloat(*minV, 64); err != nil {
		return usagef("find: --min %q is not a number", *minV)
	}
	if *ranks != "" {
		if q.Ranks, err = repo.ParseRanges(*ranks); err != nil {
			return usagef("find: --ranks: %v", err)
		}
	}
	if *threads != "" {
		if q.Threads, err = repo.ParseRanges(*threads); err != nil {
			return usagef("find: --threads: %v", err)
		}
	}
	r, err := open()
	if err != nil {
		return err
	}
	hits, err := r.Find(ctx, q)
	if err != nil {
		return err
	}
	what := "call path"
	if q.Flat {
		what = "region"
	}
	if *asCSV {
		cw := csv.NewWriter(env.Stdout)
		cw.Write([]string{"trial", "app", "experiment", "name", "cnode_id", what, "value", "total", "share"})
		for _, h := range hits {
			cw.Write([]string{strconv.FormatInt(h.Trial, 10), h.App, h.Experiment, h.Name, strconv.Itoa(h.CnodeID), h.Path,
				numfmt.RoundTrip().Format(h.Value, false), numfmt.RoundTrip().Format(h.Total, false), numfmt.RoundTrip().Format(h.Share, false)})
		}
		cw.Flush()
		return cw.Error()
	}
	if len(hits) == 0 {
		fmt.Fprintln(env.Stderr, "no "+what+" meets the constraint")
		return nil
	}

	out := bufio.NewWriter(env.Stdout)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "trial\tvalue\tshare\t %s\n", what)
	for _, h := range hits {
		fmt.Fprintf(tw, "%d\t%s\t%.2f%%\t %s\n", h.Trial, strconv.FormatFloat(h.Value, 'g', 6, 64), 100*h.Share, printable(h.Path))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return out.Flush()
}

func repoExport(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	pos, err := parseArgs(repoFlags("export"), args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("export takes TRIAL and OUT, got %d arguments", len(pos))
	}
	if !hasOutputExtension(pos[1]) {
		return usagef("%s: unknown output format; the name must end in %s", pos[1], strings.Join(outputExtensions, ", "))
	}
	if err := checkOutput(pos[1], nil, true); err != nil {
		return err
	}
	r, err := open()
	if err != nil {
		return err
	}
	id, err := r.Resolve(ctx, pos[0])
	if err != nil {
		return err
	}
	if err := r.Export(ctx, id, pos[1]); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s: trial %d\n", pos[1], id)
	return nil
}

// errNeedsWindows is returned when "repo open" reaches the command line,
// which has no windows (the program's main function serves it).
var errNeedsWindows = errors.New("open shows trials in windows: run it as cubeview repo open TRIAL… from the graphical program")

func repoOpen(ctx context.Context, env Env, open func() (*repo.Repo, error), args []string) error {
	if len(args) == 0 {
		return usagef("open: no TRIAL given")
	}
	r, err := open()
	if err != nil {
		return err
	}
	for _, a := range args {
		if _, err := r.Resolve(ctx, a); err != nil {
			return err
		}
	}
	return errNeedsWindows
}

// referenceAttr returns the repository attribute key of the trial a
// reference such as repo:17 names (ok false when it has none).
func referenceAttr(ref, key string) (a repo.Attribute, ok bool, err error) {
	r, err := sharedRepo(refLocation)
	if err != nil {
		return a, false, fmt.Errorf("%s: %w", ref, err)
	}
	ctx := context.Background()
	id, err := r.Resolve(ctx, ref)
	if err != nil {
		return a, false, err
	}
	t, err := r.Trial(ctx, id)
	if err != nil {
		return a, false, err
	}
	a, ok = t.Attr(key)
	return a, ok, nil
}
