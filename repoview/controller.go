package repoview

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"

	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/internal/printable"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
	"cubeview/view"
)

// Progress is the window's progress line: hidden (the zero Progress), a
// bar that fills (an import, which can be cancelled) or one that only
// moves.
type Progress struct {
	Shown    bool
	Fills    bool
	Text     string
	Fraction float64
}

// Events are what a Controller tells its window, always on the UI
// goroutine. Every one must be set.
type Events struct {
	Status func(text string) // the status line
	Error  func(error)       // shows an error
	// Opened says the repository is open (ReadOnlyNote and Title tell
	// how to show it).
	Opened func(r *repo.Repo)
	// Listing says a new listing is in the Browser: the tree, its columns
	// and the summary change.
	Listing func()
	// FilterProblem shows what is wrong with the filter; "" hides it.
	FilterProblem func(msg string)
	// Details says the current trial's details (Controller.Details)
	// changed.
	Details func()
	// Changed says the marks or the actions that can run changed.
	Changed  func()
	Progress func(Progress)
	Hits     func(*HitTable)
	// Doc returns the open document of trial id, nil when none is open.
	Doc func(id int64) *document.Doc
	// Show opens a document (a computed result) in a new window.
	Show func(*document.Doc)
	// Imported shows the summary of an import that ended.
	Imported func(summary string)
	// Scaling shows a scaling study: its report, plot and experiments.
	Scaling func(rep *analysisview.ScalingReport, img image.Image, docs []*document.Doc)
	// Groups shows a comparison of groups of runs with the document of
	// group A's first run (opening its window when none shows it).
	Groups func(rep *analysisview.GroupsReport, with *document.Doc)
	// Format is the number format of values shown.
	Format func() numfmt.Format
}

// Controller is what the repository window does, without widgets: it
// opens the repository, reads listings, details and trials, changes the
// repository, imports, searches and runs algebra and scaling studies
// over trials, each off the UI goroutine, and tells the window through
// its Events.
type Controller struct {
	B   *Browser
	run view.Runner
	do  func(func())
	ev  Events

	r        *repo.Repo
	filter   string
	loads    int // listings requested; only the latest is shown
	details  Details
	hits     *HitTable
	cancel   context.CancelFunc // stops the running import; nil when none runs
	imported []ImportResult
}

// NewController returns the controller of a repository window; run runs
// work off the UI goroutine and then done on it (tests run both at once),
// do runs a function on the UI goroutine (from work).
func NewController(run view.Runner, do func(func()), ev Events) *Controller {
	return &Controller{B: NewBrowser(), run: run, do: do, ev: ev}
}

// Repo returns the repository, nil until it is open.
func (c *Controller) Repo() *repo.Repo { return c.r }

// Details returns the current trial's details.
func (c *Controller) Details() Details { return c.details }

// Hits returns the last search's hits, nil when none are shown.
func (c *Controller) Hits() *HitTable { return c.hits }

// CloseHits forgets the last search's hits.
func (c *Controller) CloseHits() { c.hits = nil }

// LastImport returns the results of the last import that ended.
func (c *Controller) LastImport() []ImportResult { return c.imported }

// Filter returns the filter of the listing.
func (c *Controller) Filter() string { return c.filter }

// Title is the window's title.
func (c *Controller) Title() string {
	if c.r == nil {
		return "cubeview — repository"
	}
	return "cubeview — repository " + c.r.Name()
}

// ReadOnlyNote says why the repository cannot be changed, "" when it can.
func (c *Controller) ReadOnlyNote() string {
	if why := c.B.ReadOnly(); why != "" {
		return "Read-only: " + why + ". Import, Remove and attribute editing are disabled."
	}
	return ""
}

// Fail shows why the repository cannot be used.
func (c *Controller) Fail(err error) {
	c.ev.Status("The repository could not be opened.")
	c.ev.Error(err)
}

// Open opens (creates when new) the repository at loc in the background,
// or takes have when the program has it open already, and reads its
// listing.
func (c *Controller) Open(loc string, have *repo.Repo) {
	c.ev.Status("Opening the repository " + loc + " …")
	r := have
	var readOnly string
	var err error
	c.run(func() {
		if r == nil {
			if r, err = repo.Open(context.Background(), loc); err != nil {
				return
			}
		}
		var ro bool
		if ro, readOnly, err = r.ReadOnly(context.Background()); err == nil && !ro {
			readOnly = ""
		}
	}, func() {
		if err != nil {
			c.Fail(err)
			return
		}
		c.r = r
		c.B.SetReadOnly(readOnly)
		c.ev.Opened(r)
		c.Reload(0)
	})
}

// SetFilter reads the listing of filter.
func (c *Controller) SetFilter(filter string) {
	c.filter = filter
	c.Reload(0)
}

// Reload reads the listing of the filter in the background and shows it;
// current, if not 0, becomes the current trial.
func (c *Controller) Reload(current int64) {
	if c.r == nil {
		return
	}
	c.loads++
	n := c.loads
	filter := c.filter
	var l Listing
	var err error
	c.run(func() { l, err = Load(context.Background(), c.r, filter) }, func() {
		if n != c.loads {
			return // a newer filter was typed meanwhile
		}
		if err != nil {
			if err = c.B.SetFilterError(err); err != nil {
				c.ev.Error(err)
			}
			msg, _ := c.B.FilterProblem()
			c.ev.FilterProblem(msg)
			return
		}
		c.ev.FilterProblem("")
		c.B.SetListing(l)
		if current != 0 {
			c.B.SetCurrent(current)
		}
		c.ev.Listing()
		c.ev.Status("Repository " + c.r.Name() + " (" + c.r.Engine() + ")")
		c.ShowDetails()
		c.ev.Changed()
	})
}

// Click opens or closes the group of row i, or makes its trial current;
// it reports whether a group was opened or closed.
func (c *Controller) Click(i int) (toggled bool) {
	rows := c.B.Rows()
	if i < 0 || i >= len(rows) {
		return false
	}
	if rows[i].Kind != TrialRow {
		return c.B.Toggle(i)
	}
	c.B.SetCurrent(rows[i].Trial)
	c.ShowDetails()
	return false
}

// ShowDetails reads the current trial's details in the background.
func (c *Controller) ShowDetails() {
	id := c.B.Current()
	if id == 0 {
		c.details = Details{}
		c.ev.Details()
		return
	}
	var d Details
	var err error
	c.run(func() { d, err = LoadDetails(context.Background(), c.r, id) }, func() {
		if err != nil {
			c.ev.Error(err)
			return
		}
		if c.B.Current() == id {
			c.details = d
			c.ev.Details()
		}
	})
}

// Enabled reports whether the button of action a can be pressed: the
// action can run, the repository is open and, for Import, no import runs.
func (c *Controller) Enabled(a Action) bool {
	ok, _ := c.B.Enabled(a)
	return ok && c.r != nil && !(a == Import && c.cancel != nil)
}

// CanEditAttrs reports whether the current trial's attributes can be set
// and removed.
func (c *Controller) CanEditAttrs() bool {
	ok, _ := c.B.Enabled(SetAttribute)
	return ok && c.details.Trial.ID != 0
}

// SubmitAttr sets the attribute "key=value" of text on the current trial
// in the background and then calls done.
func (c *Controller) SubmitAttr(text string, done func()) {
	a, err := ParseAttr(text)
	if err != nil {
		c.ev.Error(err)
		return
	}
	if c.details.Trial.ID == 0 {
		return
	}
	c.SetAttr(c.details.Trial.ID, a, done)
}

// SetAttr sets an attribute of trial id (app, experiment and name move or
// rename it) in the background and then calls done (nil: nothing).
func (c *Controller) SetAttr(id int64, a model.Attr, done func()) {
	c.change(fmt.Sprintf("Set %s of trial %d.", a.Key, id), id, func(ctx context.Context) error {
		return c.r.SetAttrs(ctx, id, []model.Attr{a}, nil)
	}, done)
}

// RemoveAttr removes attribute key of trial id in the background.
func (c *Controller) RemoveAttr(id int64, key string) {
	c.change(fmt.Sprintf("Removed %s of trial %d.", printable.String(key), id), id, func(ctx context.Context) error {
		return c.r.SetAttrs(ctx, id, nil, []string{key})
	}, nil)
}

// change runs a change of the repository in the background, then reloads
// the listing with current as the current trial.
func (c *Controller) change(done string, current int64, f func(context.Context) error, then func()) {
	if ok, why := c.B.Enabled(SetAttribute); !ok {
		c.ev.Error(errors.New(why))
		return
	}
	var err error
	c.run(func() { err = f(context.Background()) }, func() {
		if err != nil {
			c.ev.Error(err)
			return
		}
		if then != nil {
			then()
		}
		c.Reload(current)
		c.ev.Status(done)
	})
}

// RemoveQuestion returns the trials Remove would remove (none: nothing to
// ask) and the question that confirms it.
func (c *Controller) RemoveQuestion() (ids []int64, question string) {
	ids = c.B.Targets()
	if len(ids) == 0 {
		return nil, ""
	}
	var names []string
	for _, id := range ids {
		t, _ := c.B.Trial(id)
		names = append(names, fmt.Sprintf("#%d %s", id, printable.String(t.Name)))
	}
	return ids, fmt.Sprintf("Remove %d trial(s) from the repository?\n%s\nThis cannot be undone.", len(ids), joinLines(names, 10))
}

// joinLines returns the first most of s, a line each, and how many more
// there are.
func joinLines(s []string, most int) string {
	out := ""
	for i, x := range s {
		if i == most {
			return out + fmt.Sprintf("… and %d more", len(s)-most)
		}
		out += x + "\n"
	}
	return out
}

// Remove removes trials (all or none) in the background.
func (c *Controller) Remove(ids ...int64) {
	if ok, why := c.B.Enabled(Remove); !ok {
		c.ev.Error(errors.New(why))
		return
	}
	var err error
	c.run(func() { err = c.r.Remove(context.Background(), ids...) }, func() {
		if err != nil {
			c.ev.Error(err)
			return
		}
		for _, id := range ids {
			c.B.SetMarked(id, false)
		}
		c.Reload(0)
		c.ev.Status(fmt.Sprintf("Removed %d trial(s).", len(ids)))
	})
}

// TrialRef is the reference of trial id ("repo:3"), also the Path of its
// document.
func TrialRef(id int64) string { return repo.RefPrefix + strconv.FormatInt(id, 10) }

// SameTrial reports whether documents a and b both show one repository
// trial as stored (not a result computed from it).
func SameTrial(a, b *document.Doc) bool {
	return a != nil && b != nil && a.Expression == "" && b.Expression == "" &&
		strings.HasPrefix(a.Path, repo.RefPrefix) && a.Path == b.Path
}

// ReadTrial reads trial id of r as a document, its first metric summed up
// for its window; call it off the UI goroutine.
func ReadTrial(ctx context.Context, r *repo.Repo, id int64) (*document.Doc, error) {
	t, err := r.Trial(ctx, id)
	if err != nil {
		return nil, err
	}
	e, err := r.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	view.PrimeFirstMetric(e)
	return &document.Doc{Exp: e, Name: printable.String(t.Name) + " (" + TrialRef(id) + ")", Path: TrialRef(id)}, nil
}

// OpenTrial reads trial id in the background and passes its document to
// show.
func (c *Controller) OpenTrial(id int64, show func(*document.Doc)) {
	c.ev.Status(fmt.Sprintf("Opening trial %d …", id))
	var doc *document.Doc
	var err error
	c.run(func() { doc, err = ReadTrial(context.Background(), c.r, id) }, func() {
		if err != nil {
			c.ev.Error(err)
			return
		}
		c.ev.Status(fmt.Sprintf("Opened trial %d.", id))
		show(doc)
	})
}

// docs returns the documents of trials ids: the open ones, nil for the
// others, which readDocs reads.
func (c *Controller) docs(ids []int64) []*document.Doc {
	docs := make([]*document.Doc, len(ids))
	for i, id := range ids {
		docs[i] = c.ev.Doc(id)
	}
	return docs
}

// readDocs reads the documents of ids that are not open; call it off the
// UI goroutine.
func (c *Controller) readDocs(ids []int64, docs []*document.Doc) error {
	for i, id := range ids {
		if docs[i] == nil {
			var err error
			if docs[i], err = ReadTrial(context.Background(), c.r, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// Compute runs Difference, Merge or Mean of the marked trials (in the
// order they were marked) in the background; the result opens in a new
// window, like the Algebra menu's. Open trials are used as they are.
func (c *Controller) Compute(a Action) {
	ids, err := c.B.Operands(a)
	if err != nil {
		c.ev.Error(err)
		return
	}
	docs := c.docs(ids)
	c.ev.Progress(Progress{Shown: true, Text: fmt.Sprintf("Reading %d trials and computing their %s …", len(ids), a)})
	var req document.Operation
	var res *model.Experiment
	c.run(func() {
		if err = c.readDocs(ids, docs); err != nil {
			return
		}
		req = document.Operation{Op: a.Op(), Operands: docs}
		res, err = req.Evaluate()
	}, func() {
		c.ev.Progress(Progress{})
		if err != nil {
			c.ev.Error(fmt.Errorf("%s: %w", a, err))
			return
		}
		c.ev.Show(req.Result(res))
		c.ev.Status("Computed " + req.Name() + ".")
	})
}

// Search runs q in the background and shows its hits.
func (c *Controller) Search(q repo.Query) {
	c.ev.Status("Searching " + Describe(q) + " …")
	var hits []repo.Hit
	var err error
	c.run(func() { hits, err = c.r.Find(context.Background(), q) }, func() {
		if err != nil {
			c.ev.Status("The search failed.")
			c.ev.Error(err)
			return
		}
		c.hits = NewHitTable(q, hits, c.ev.Format())
		c.ev.Hits(c.hits)
		c.ev.Status(c.hits.Title)
	})
}

// Importing reports whether an import runs.
func (c *Controller) Importing() bool { return c.cancel != nil }

// CancelImport stops the running import after the trial being imported
// (imports are transactions: nothing partial stays).
func (c *Controller) CancelImport() {
	if c.cancel != nil {
		c.cancel()
	}
}

// Import imports paths in the background with progress, showing the
// trials of each file once it is stored, and at the end the summary with
// the last trial imported current.
func (c *Controller) Import(paths []string, opt repo.ImportOptions) {
	if ok, why := c.B.Enabled(Import); !ok {
		c.ev.Error(errors.New(why))
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.ev.Progress(Progress{Shown: true, Fills: true, Text: "Importing …"})
	c.ev.Changed()
	var results []ImportResult
	file := 1
	c.run(func() {
		results = RunImport(ctx, c.r, paths, opt, func(p ImportProgress) {
			c.do(func() {
				c.ev.Progress(Progress{Shown: true, Fills: true, Text: p.Text(), Fraction: p.Fraction()})
				if p.File > file {
					// The trials before this file are stored: show them.
					file = p.File
					c.Reload(0)
				}
			})
		})
	}, func() {
		cancel()
		c.cancel = nil
		c.ev.Progress(Progress{})
		c.imported = results
		summary := ImportSummary(results)
		first, _, _ := strings.Cut(summary, "\n")
		c.ev.Status(first)
		var current int64
		if ids := Imported(results); len(ids) > 0 {
			current = ids[len(ids)-1]
		}
		c.Reload(current)
		c.ev.Imported(summary)
	})
}

// Scaling runs a scaling study of trials in the background, x from the
// attribute spec.XText names, and shows its table and plot. Trials open
// in windows are used as they are; the others are read from the
// repository. A derived metric d (nil: none) is added to each trial for
// the study only.
func (c *Controller) Scaling(trials []repo.Trial, spec analysisview.ScalingSpec, d *model.DerivedMetric) error {
	if ok, why := c.B.Enabled(Scaling); !ok {
		return fmt.Errorf("scaling: %s", why)
	}
	xs, err := ScalingX(trials, spec.XText)
	if err != nil {
		return err
	}
	if spec.Metric == "" {
		return fmt.Errorf("scaling: choose a metric")
	}
	ids := make([]int64, len(trials))
	for i, t := range trials {
		ids[i] = t.ID
	}
	docs := c.docs(ids)
	c.ev.Progress(Progress{Shown: true, Text: fmt.Sprintf("Reading %d trials and computing their scaling …", len(trials))})
	format := c.ev.Format()
	var rep *analysisview.ScalingReport
	var img image.Image
	c.run(func() {
		if err = c.readDocs(ids, docs); err != nil {
			return
		}
		sts := make([]analysisview.ScalingTrial, len(trials))
		for i, t := range trials {
			if d != nil {
				// The study's own copy: the trial's windows keep their metrics.
				e, derr := WithScalingDerived(docs[i].Exp, d, t)
				if err = derr; err != nil {
					return
				}
				docs[i] = &document.Doc{Exp: e, Name: docs[i].Name, Path: docs[i].Path}
			}
			sts[i] = analysisview.ScalingTrial{Name: fmt.Sprintf("#%d %s", t.ID, printable.String(t.Name)), Exp: docs[i].Exp, X: xs[i]}
		}
		rep, img, err = analysisview.ScalingStudy(sts, spec, format)
	}, func() {
		c.ev.Progress(Progress{})
		if err != nil {
			c.ev.Error(err)
			return
		}
		c.ev.Scaling(rep, img, docs)
		c.ev.Status(fmt.Sprintf("Scaling of %d trials: %s.", len(trials), rep.Runs))
	})
	return nil
}
