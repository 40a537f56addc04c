package repoview

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"cubeview/analysisview"
	"cubeview/internal/printable"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
	"cubeview/view"
)

// SearchSpec is what the Search dialog asks for: the options of
// "cubeview repo find", as text where the user types them.
type SearchSpec struct {
	Metric    string // uniq_name, stored or defined in Derived
	Inclusive bool   // values with callees; otherwise own values
	// ByShare asks for a value of at least Threshold of the run's total
	// (0.1 or 10%); otherwise of at least Threshold in the metric's unit.
	ByShare   bool
	Threshold string
	Kind      string // region kind: mpi, omp, user, …; "" for all
	Ranks     string // process ranks "0-3,8"; "" for all
	Threads   string // thread ranks; "" for all
	Where     string // trial filter
	Flat      bool   // regions instead of call paths
	Derived   string // one "name = expression" per line
}

// RegionKinds are the kinds the dialog offers; others may be typed.
var RegionKinds = []string{"mpi", "omp", "user", "pthread", "cuda", "shmem", "opencl"}

// Query checks the spec and returns the search.
func (s SearchSpec) Query() (repo.Query, error) {
	q := repo.Query{Metric: strings.TrimSpace(s.Metric), Inclusive: s.Inclusive, Share: s.ByShare,
		Kind: strings.TrimSpace(s.Kind), Where: strings.TrimSpace(s.Where), Flat: s.Flat}
	if q.Metric == "" {
		return q, errors.New("search: give a metric")
	}
	for i, line := range strings.Split(s.Derived, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, f, err := model.ParseDefinition(line)
		if err != nil {
			return q, fmt.Errorf("search: derived metric line %d: %w", i+1, err)
		}
		q.Derived = append(q.Derived, model.DerivedMetric{UniqName: name, Formula: f})
	}
	var err error
	if s.ByShare {
		q.MinShare, err = repo.ParseShare(s.Threshold)
	} else {
		q.MinValue, err = strconv.ParseFloat(strings.TrimSpace(s.Threshold), 64)
		if err != nil {
			err = fmt.Errorf("%q is not a number", s.Threshold)
		}
	}
	if err == nil && (math.IsNaN(q.MinShare) || math.IsNaN(q.MinValue)) {
		err = fmt.Errorf("%q is not a number", s.Threshold)
	}
	if err != nil {
		return q, fmt.Errorf("search: threshold: %w", err)
	}
	if r := strings.TrimSpace(s.Ranks); r != "" {
		if q.Ranks, err = repo.ParseRanges(r); err != nil {
			return q, fmt.Errorf("search: ranks: %w", err)
		}
	}
	if r := strings.TrimSpace(s.Threads); r != "" {
		if q.Threads, err = repo.ParseRanges(r); err != nil {
			return q, fmt.Errorf("search: threads: %w", err)
		}
	}
	return q, nil
}

// HitColumns is the number of columns of a HitTable.
const HitColumns = 5

// HitTable is a search's result as rows: one per hit, best first.
type HitTable struct {
	Query   repo.Query
	Hits    []repo.Hit
	Title   string
	Columns []string
	Rows    [][]string // per hit, one cell per column
}

// NewHitTable formats hits of q with f.
func NewHitTable(q repo.Query, hits []repo.Hit, f numfmt.Format) *HitTable {
	what := "call path"
	if q.Flat {
		what = "region"
	}
	t := &HitTable{Query: q, Hits: hits, Columns: []string{"trial", "app / experiment / name", "value", "share", what}}
	for _, h := range hits {
		t.Rows = append(t.Rows, []string{
			strconv.FormatInt(h.Trial, 10),
			printable.String(h.App) + " / " + printable.String(h.Experiment) + " / " + printable.String(h.Name),
			f.Format(h.Value, false),
			strconv.FormatFloat(100*h.Share, 'f', 2, 64) + " %",
			printable.String(h.Path),
		})
	}
	t.Title = fmt.Sprintf("%s: %s", Describe(q), count(len(hits), what))
	if len(hits) == 0 {
		t.Title = Describe(q) + ": no " + what + " meets it"
	}
	return t
}

// Column returns the title of column c; "" when t is nil (no search
// shown).
func (t *HitTable) Column(c int) string {
	if t == nil || c < 0 || c >= len(t.Columns) {
		return ""
	}
	return t.Columns[c]
}

// SortKey returns what cell (i, c) of the table sorts by.
func (t *HitTable) SortKey(i, c int) analysisview.SortKey {
	h := &t.Hits[i]
	switch c {
	case 0:
		return analysisview.NumKey(float64(h.Trial))
	case 2:
		return analysisview.NumKey(h.Value)
	case 3:
		return analysisview.NumKey(h.Share)
	}
	return analysisview.TextKey(t.Rows[i][c])
}

// Numeric reports whether column c holds numbers.
func (t *HitTable) Numeric(c int) bool { return c == 0 || c == 2 || c == 3 }

// Describe says what q looks for: "time (exclusive) ≥ 10 % of the run ·
// kind mpi · ranks 0-3 · trials where procs >= 64".
func Describe(q repo.Query) string {
	var sb strings.Builder
	sb.WriteString(printable.String(q.Metric))
	if q.Inclusive {
		sb.WriteString(" (inclusive)")
	} else {
		sb.WriteString(" (exclusive)")
	}
	if q.Share {
		fmt.Fprintf(&sb, " ≥ %s %% of the run", strconv.FormatFloat(100*q.MinShare, 'g', -1, 64))
	} else {
		fmt.Fprintf(&sb, " ≥ %s", strconv.FormatFloat(q.MinValue, 'g', -1, 64))
	}
	if q.Flat {
		sb.WriteString(" · flat profile")
	}
	if q.Kind != "" {
		sb.WriteString(" · kind " + printable.String(q.Kind))
	}
	if q.Ranks != nil {
		sb.WriteString(" · ranks " + ranges(q.Ranks))
	}
	if q.Threads != nil {
		sb.WriteString(" · threads " + ranges(q.Threads))
	}
	if q.Where != "" {
		sb.WriteString(" · trials where " + printable.String(q.Where))
	}
	return sb.String()
}

func ranges(rs []repo.Range) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r.Lo)
		if r.Hi != r.Lo {
			parts[i] += "-" + strconv.Itoa(r.Hi)
		}
	}
	return strings.Join(parts, ",")
}

// Selection is what opening a hit selects in its trial's window.
type Selection struct {
	Trial int64
	Flat  bool // the hit is a region of the flat profile
	// Nodes are the metric searched (when the trial has it) and the call
	// path or region found.
	Nodes []view.Node
}

// Selection returns what opening hit i selects in e, its trial opened.
func (t *HitTable) Selection(i int, e *model.Experiment) (Selection, error) {
	if i < 0 || i >= len(t.Hits) {
		return Selection{}, fmt.Errorf("no hit %d", i)
	}
	h := t.Hits[i]
	s := Selection{Trial: h.Trial, Flat: t.Query.Flat}
	if m := e.MetricByName(t.Query.Metric); m >= 0 {
		s.Nodes = append(s.Nodes, view.Node{Kind: view.MetricNode, Index: m})
	}
	switch {
	case t.Query.Flat && h.Region >= 0 && h.Region < len(e.Regions):
		s.Nodes = append(s.Nodes, view.Node{Kind: view.RegionNode, Index: h.Region})
	case !t.Query.Flat && h.Cnode >= 0 && h.Cnode < len(e.Cnodes):
		s.Nodes = append(s.Nodes, view.Node{Kind: view.CnodeNode, Index: h.Cnode})
	default:
		return s, fmt.Errorf("trial %d has no %s %q any more", h.Trial, t.Columns[len(t.Columns)-1], h.Path)
	}
	return s, nil
}
