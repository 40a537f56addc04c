package repoview

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/algebra"
	"cubeview/internal/printable"
	"cubeview/repo"
)

// Listing is what one reading of the repository returned: the trials a
// filter selects, with their user and automatic attributes.
type Listing struct {
	Filter string
	Trials []repo.Trial
}

// Load reads the trials filter selects (the filter language of
// "cubeview repo ls --where"). A malformed filter gives a *repo.FilterError.
func Load(ctx context.Context, r *repo.Repo, filter string) (Listing, error) {
	ts, err := r.Trials(ctx, filter, repo.ListOptions{})
	if err != nil {
		return Listing{Filter: filter}, err
	}
	return Listing{Filter: filter, Trials: ts}, nil
}

// RowKind says what a row of the tree is.
type RowKind uint8

const (
	AppRow RowKind = iota
	ExperimentRow
	TrialRow
)

// Row is one line of the tree: an application, an experiment or a trial.
type Row struct {
	Kind  RowKind
	Depth int    // 0 application, 1 experiment, 2 trial
	Key   string // the group's key (applications and experiments)
	Trial int64  // the trial's id (trial rows)
	// Label is the application's, experiment's or trial's name, shown
	// on one line.
	Label string
	// Trials is the number of trials in a group (1 for a trial row).
	Trials   int
	Expanded bool // a group's trials are shown
	// Cells are the values of the columns after the tree column.
	Cells []string
}

// Column is a column after the tree column.
type Column struct {
	Title string
	// Attr is the attribute key the column shows; "" for the trial's
	// fields (id, format, imported).
	Attr string
}

// Automatic attributes come first among the columns, in this order.
var autoColumns = []string{"procs", "threads", "locations"}

// Mark is how much of a row is marked as an operand.
type Mark uint8

const (
	Unmarked Mark = iota
	PartlyMarked
	Marked
)

// Browser is the state of a repository window: the listing, which groups
// are closed, the current trial (whose details show) and the trials
// marked as operands, in the order they were marked.
type Browser struct {
	listing   Listing
	columns   []Column
	rows      []Row
	closed    map[string]bool
	sorted    []repo.Trial       // the listing in tree order
	groups    map[string][]int64 // the trials of each application and experiment, in tree order
	index     map[int64]int      // listing position by trial id
	current   int64
	marked    []int64        // in marking order
	isMarked  map[int64]bool // the same trials, for lookups
	filterErr *repo.FilterError
	readOnly  string // why the repository cannot be changed; "" when it can
}

// NewBrowser returns an empty browser.
func NewBrowser() *Browser { return &Browser{closed: map[string]bool{}, isMarked: map[int64]bool{}} }

// SetReadOnly records that the repository cannot be changed and why
// ("" when it can).
func (b *Browser) SetReadOnly(why string) { b.readOnly = why }

// ReadOnly returns why the repository cannot be changed, "" when it can.
func (b *Browser) ReadOnly() string { return b.readOnly }

// SetListing shows l. Marks and the current trial stay on trials that are
// still listed; the others are dropped, so that no hidden trial becomes
// an operand.
func (b *Browser) SetListing(l Listing) {
	b.listing = l
	b.filterErr = nil
	listed := map[int64]bool{}
	for _, t := range l.Trials {
		listed[t.ID] = true
	}
	b.marked = slices.DeleteFunc(b.marked, func(id int64) bool {
		if !listed[id] {
			delete(b.isMarked, id)
			return true
		}
		return false
	})
	if !listed[b.current] {
		b.current = 0
	}
	b.columns = columnsOf(l.Trials)
	b.sortTrials()
	b.build()
}

// SetFilterError records that the filter the user typed is malformed;
// the listing stays as it was. Other errors are returned as they are.
func (b *Browser) SetFilterError(err error) error {
	var fe *repo.FilterError
	if !errors.As(err, &fe) {
		return err
	}
	b.filterErr = fe
	return nil
}

// FilterProblem returns the message of a malformed filter, "" when the
// filter is good, and the 1-based column of the problem.
func (b *Browser) FilterProblem() (msg string, column int) {
	if b.filterErr == nil {
		return "", 0
	}
	return fmt.Sprintf("column %d: %s", b.filterErr.Column(), b.filterErr.Msg), b.filterErr.Column()
}

// Filter returns the filter of the listing shown.
func (b *Browser) Filter() string { return b.listing.Filter }

// Trials returns the listed trials, in import order.
func (b *Browser) Trials() []repo.Trial { return b.listing.Trials }

// Columns returns the columns after the tree column.
func (b *Browser) Columns() []Column { return b.columns }

// Rows returns the visible rows of the tree.
func (b *Browser) Rows() []Row { return b.rows }

// TableSize returns the table's rows and columns: the tree column and
// the Columns after it.
func (b *Browser) TableSize() (rows, cols int) { return len(b.rows), 1 + len(b.columns) }

// ColumnTitle returns the title of table column col: the tree column's,
// then the Columns'; "" when there is no such column.
func (b *Browser) ColumnTitle(col int) string {
	if col == 0 {
		return "application / experiment / trial"
	}
	if col > 0 && col-1 < len(b.columns) {
		return b.columns[col-1].Title
	}
	return ""
}

// ColumnWidth returns the width of table column col in points: wide for
// the tree, narrow for the id, wider for the format and the import time.
func (b *Browser) ColumnWidth(col int) float32 {
	if col == 0 {
		return 380
	}
	switch b.ColumnTitle(col) {
	case "id":
		return 50
	case "format":
		return 170
	case "imported":
		return 150
	}
	return 90
}

// CellText returns what table cell (row, col) shows: the row's tree text
// in the tree column, else its cell of the column ("" for a group).
func (b *Browser) CellText(row, col int) string {
	if row < 0 || row >= len(b.rows) {
		return ""
	}
	r := &b.rows[row]
	if col == 0 {
		return r.TreeText()
	}
	if col > 0 && col-1 < len(r.Cells) {
		return r.Cells[col-1]
	}
	return ""
}

// Summary says what the listing holds: "7 trials in 2 applications".
func (b *Browser) Summary() string {
	apps := map[string]bool{}
	for _, t := range b.listing.Trials {
		apps[t.App] = true
	}
	switch {
	case len(b.listing.Trials) == 0 && b.listing.Filter != "":
		return "No trial matches the filter"
	case len(b.listing.Trials) == 0:
		return "The repository holds no trials yet: Import… stores files and folders"
	}
	s := fmt.Sprintf("%s in %s", count(len(b.listing.Trials), "trial"), count(len(apps), "application"))
	if b.listing.Filter != "" {
		s += " matching the filter"
	}
	return s
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func columnsOf(trials []repo.Trial) []Column {
	keys := map[string]bool{}
	for _, t := range trials {
		for _, a := range t.Attrs {
			keys[a.Key] = true
		}
	}
	cols := []Column{{Title: "id"}}
	for _, k := range autoColumns {
		if keys[k] {
			cols = append(cols, Column{Title: k, Attr: k})
			delete(keys, k)
		}
	}
	var rest []string
	for k := range keys {
		rest = append(rest, k)
	}
	slices.Sort(rest)
	for _, k := range rest {
		cols = append(cols, Column{Title: printable.String(k), Attr: k})
	}
	return append(cols, Column{Title: "format"}, Column{Title: "imported"})
}

func appKey(app string) string      { return "a" + strconv.Itoa(len(app)) + ":" + app }
func expKey(app, exp string) string { return "e" + strconv.Itoa(len(app)) + ":" + app + exp }

// sortTrials orders the listed trials as the tree shows them (by
// application, experiment and name in natural order, then import order) and
// records each group's trials.
func (b *Browser) sortTrials() {
	b.sorted = slices.Clone(b.listing.Trials)
	slices.SortStableFunc(b.sorted, func(x, y repo.Trial) int {
		return cmp.Or(naturalCompare(x.App, y.App), naturalCompare(x.Experiment, y.Experiment),
			naturalCompare(x.Name, y.Name), cmp.Compare(x.ID, y.ID))
	})
	b.index = make(map[int64]int, len(b.listing.Trials))
	for i, t := range b.listing.Trials {
		b.index[t.ID] = i
	}
	ids := make([]int64, len(b.sorted))
	for i, t := range b.sorted {
		ids[i] = t.ID
	}
	// Groups are runs of the sorted trials; each one's ids share ids.
	b.groups = map[string][]int64{}
	for i := 0; i < len(b.sorted); {
		app := b.sorted[i].App
		j := i
		for j < len(b.sorted) && b.sorted[j].App == app {
			j++
		}
		b.groups[appKey(app)] = ids[i:j:j]
		for k := i; k < j; {
			exp := b.sorted[k].Experiment
			l := k
			for l < j && b.sorted[l].Experiment == exp {
				l++
			}
			b.groups[expKey(app, exp)] = ids[k:l:l]
			k = l
		}
		i = j
	}
}

// naturalCompare orders names as people count: runs of digits by their
// number ("r2" before "r10"), everything else byte by byte; names that
// differ only in leading zeros are ordered byte by byte.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := i, j
			for ei < len(a) && isDigit(a[ei]) {
				ei++
			}
			for ej < len(b) && isDigit(b[ej]) {
				ej++
			}
			na, nb := strings.TrimLeft(a[i:ei], "0"), strings.TrimLeft(b[j:ej], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// build lays out the visible rows: applications, their experiments and
// trials in natural order.
func (b *Browser) build() {
	trials := b.sorted
	b.rows = b.rows[:0]
	for i := 0; i < len(trials); {
		app := trials[i].App
		j := i
		for j < len(trials) && trials[j].App == app {
			j++
		}
		ak := appKey(app)
		b.rows = append(b.rows, Row{Kind: AppRow, Key: ak, Label: printable.String(app), Trials: j - i, Expanded: !b.closed[ak]})
		if !b.closed[ak] {
			for k := i; k < j; {
				exp := trials[k].Experiment
				l := k
				for l < j && trials[l].Experiment == exp {
					l++
				}
				ek := expKey(app, exp)
				b.rows = append(b.rows, Row{Kind: ExperimentRow, Depth: 1, Key: ek, Label: printable.String(exp), Trials: l - k, Expanded: !b.closed[ek]})
				if !b.closed[ek] {
					for _, t := range trials[k:l] {
						b.rows = append(b.rows, Row{Kind: TrialRow, Depth: 2, Trial: t.ID, Label: printable.String(t.Name), Trials: 1, Cells: b.cells(&t)})
					}
				}
				k = l
			}
		}
		i = j
	}
}

func (b *Browser) cells(t *repo.Trial) []string {
	out := make([]string, len(b.columns))
	for i, c := range b.columns {
		switch {
		case c.Attr != "":
			if a, ok := t.Attr(c.Attr); ok {
				out[i] = printable.String(a.Value)
			}
		case c.Title == "id":
			out[i] = strconv.FormatInt(t.ID, 10)
		case c.Title == "format":
			out[i] = printable.String(t.Format)
		case c.Title == "imported":
			out[i] = t.Imported.Local().Format("2006-01-02 15:04")
		}
	}
	return out
}

// TreeText is the tree column's text of row (indented by Depth): ▸ or ▾
// before a group, which also shows its number of trials.
func (r Row) TreeText() string {
	if r.Kind == TrialRow {
		return r.Label
	}
	arrow := "▸ "
	if r.Expanded {
		arrow = "▾ "
	}
	return arrow + r.Label + " (" + count(r.Trials, "trial") + ")"
}

// Toggle opens or closes row i when it is a group and reports whether it was.
func (b *Browser) Toggle(i int) bool {
	if i < 0 || i >= len(b.rows) || b.rows[i].Kind == TrialRow {
		return false
	}
	k := b.rows[i].Key
	b.closed[k] = !b.closed[k]
	b.build()
	return true
}

// Trial returns the listed trial id.
func (b *Browser) Trial(id int64) (repo.Trial, bool) {
	if i, ok := b.index[id]; ok {
		return b.listing.Trials[i], true
	}
	return repo.Trial{}, false
}

// RowOf returns the index of trial id's row, or -1 when it is not shown.
func (b *Browser) RowOf(id int64) int {
	for i, r := range b.rows {
		if r.Kind == TrialRow && r.Trial == id {
			return i
		}
	}
	return -1
}

// SetCurrent makes trial id the current one (0: none); it must be listed.
func (b *Browser) SetCurrent(id int64) bool {
	if _, ok := b.Trial(id); !ok && id != 0 {
		return false
	}
	b.current = id
	return true
}

// Current returns the current trial's id, 0 when there is none.
func (b *Browser) Current() int64 { return b.current }

// rowTrials returns the trials row i stands for.
func (b *Browser) rowTrials(i int) []int64 {
	if i < 0 || i >= len(b.rows) {
		return nil
	}
	if r := b.rows[i]; r.Kind == TrialRow {
		return []int64{r.Trial}
	}
	return b.groups[b.rows[i].Key]
}

// MarkRow marks (or unmarks) row i's trial, or every trial of a group.
func (b *Browser) MarkRow(i int, on bool) {
	for _, id := range b.rowTrials(i) {
		b.SetMarked(id, on)
	}
}

// SetMarked marks trial id as an operand (appending it to the marked
// ones) or unmarks it.
func (b *Browser) SetMarked(id int64, on bool) {
	switch {
	case on && !b.isMarked[id]:
		if _, ok := b.Trial(id); ok {
			b.marked = append(b.marked, id)
			b.isMarked[id] = true
		}
	case !on && b.isMarked[id]:
		at := slices.Index(b.marked, id)
		b.marked = slices.Delete(b.marked, at, at+1)
		delete(b.isMarked, id)
	}
}

// ClearMarks unmarks every trial.
func (b *Browser) ClearMarks() { b.marked, b.isMarked = nil, map[int64]bool{} }

// Marked returns the marked trials in the order they were marked.
func (b *Browser) Marked() []int64 { return slices.Clone(b.marked) }

// RowMark returns how much of row i is marked.
func (b *Browser) RowMark(i int) Mark {
	ids := b.rowTrials(i)
	if len(b.marked) == 0 || len(ids) == 0 {
		return Unmarked
	}
	n := 0
	for _, id := range ids {
		if b.isMarked[id] {
			n++
		}
	}
	switch {
	case n == 0:
		return Unmarked
	case n == len(ids):
		return Marked
	}
	return PartlyMarked
}

// Targets returns the trials Open and Remove act on: the marked ones, or
// else the current one.
func (b *Browser) Targets() []int64 {
	if len(b.marked) > 0 {
		return b.Marked()
	}
	if b.current != 0 {
		return []int64{b.current}
	}
	return nil
}

// Action is something the repository window does.
type Action uint8

const (
	Open Action = iota
	Difference
	Merge
	Mean
	Remove
	Import
	SetAttribute
	Search
	Scaling
	CompareGroups
)

var actionTitles = [...]string{Open: "Open", Difference: "Difference", Merge: "Merge", Mean: "Mean",
	Remove: "Remove", Import: "Import…", SetAttribute: "Set attribute", Search: "Search…", Scaling: "Scaling…",
	CompareGroups: "Compare groups…"}

// String returns the action's title as buttons show it.
func (a Action) String() string {
	if int(a) < len(actionTitles) {
		return actionTitles[a]
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

// operator returns the algebra operator of a, if it is one.
func (a Action) operator() (algebra.Operator, bool) {
	switch a {
	case Difference:
		return algebra.OpDiff.Info()
	case Merge:
		return algebra.OpMerge.Info()
	case Mean:
		return algebra.OpMean.Info()
	}
	return algebra.Operator{}, false
}

// Op returns the algebra operator of Difference, Merge and Mean.
func (a Action) Op() algebra.Op {
	o, _ := a.operator()
	return o.Op
}

// Enabled reports whether action a can run now and, when not, why.
func (b *Browser) Enabled(a Action) (bool, string) {
	if (a == Import || a == Remove || a == SetAttribute) && b.readOnly != "" {
		return false, b.readOnly
	}
	if o, ok := a.operator(); ok {
		if err := o.CheckOperands(len(b.marked)); err != nil {
			return false, "Mark the operands: " + err.Error() + " marked"
		}
		return true, ""
	}
	switch a {
	case Scaling:
		if len(b.marked) < 2 {
			return false, "Mark two or more trials for a scaling study"
		}
	case Open, Remove:
		if len(b.Targets()) == 0 {
			return false, "Select a trial or mark trials first"
		}
	case SetAttribute:
		if b.current == 0 {
			return false, "Select a trial first"
		}
	}
	return true, ""
}

// Operands returns the marked trials as the operands of a, in marking
// order (the first marked is the minuend of a difference).
func (b *Browser) Operands(a Action) ([]int64, error) {
	o, ok := a.operator()
	if !ok {
		return nil, fmt.Errorf("%s is not an algebra operation", a)
	}
	if err := o.CheckOperands(len(b.marked)); err != nil {
		return nil, err
	}
	return b.Marked(), nil
}

// MarkedText describes the marked trials for the status line:
// "marked: #3 p27, #5 p64".
func (b *Browser) MarkedText() string {
	if len(b.marked) == 0 {
		return "Check trials to use them as operands of Difference, Merge and Mean, for a scaling study or as groups of runs to compare."
	}
	parts := make([]string, len(b.marked))
	for i, id := range b.marked {
		t, _ := b.Trial(id)
		parts[i] = "#" + strconv.FormatInt(id, 10) + " " + printable.String(t.Name)
	}
	return "Marked, in order: " + strings.Join(parts, ", ")
}

// Names returns the listed applications and experiments, sorted, for
// the Import dialog to offer.
func (b *Browser) Names() (apps, experiments []string) {
	for _, t := range b.listing.Trials {
		apps = append(apps, t.App)
		experiments = append(experiments, t.Experiment)
	}
	slices.Sort(apps)
	slices.Sort(experiments)
	return slices.Compact(apps), slices.Compact(experiments)
}
