package repoview

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/analysis"
	"cubeview/analysis/significance"
	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/form"
	"cubeview/internal/printable"
	"cubeview/repo"
)

// GroupRun is one run of a group to compare: a repository trial or a
// file.
type GroupRun struct {
	Trial int64  // the trial's id; 0 for a file
	Path  string // the file; "" for a trial
	Label string // how the dialog lists it
}

// trialRun returns trial t as a run.
func trialRun(t repo.Trial) GroupRun {
	return GroupRun{Trial: t.ID, Label: fmt.Sprintf("#%d %s (%s / %s)", t.ID, printable.String(t.Name), printable.String(t.App), printable.String(t.Experiment))}
}

// fileRun returns the file at path as a run.
func fileRun(path string) GroupRun {
	return GroupRun{Path: path, Label: printable.String(filepath.Base(path)) + " — file " + printable.String(path)}
}

// GroupsSpec is a comparison of two groups of repeated runs.
type GroupsSpec struct {
	A, B    []GroupRun
	Options analysis.GroupOptions
}

// GroupsForm is the repository window's Compare groups… dialog: two
// groups of runs of two configurations, from the marked trials and from
// files, the metric and the test. Confirming starts the comparison.
type GroupsForm struct {
	*form.Form
	A, B, Metric, Test, Inclusive *form.Field
	runs                          []GroupRun // every run offered, in both lists
}

// SplitByExperiment returns the marked trials' runs and which group
// each starts in: those of the first marked trial's experiment in A (0),
// of the next experiment in B (1), of any other in neither (−1).
func SplitByExperiment(trials []repo.Trial) (runs []GroupRun, group []int) {
	var exps []string
	for _, t := range trials {
		key := t.App + "\x00" + t.Experiment
		i := slices.Index(exps, key)
		if i < 0 {
			exps = append(exps, key)
			i = len(exps) - 1
		}
		if i > 1 {
			i = -1
		}
		runs = append(runs, trialRun(t))
		group = append(group, i)
	}
	return runs, group
}

// GroupsForm returns the Compare groups… dialog over the marked trials,
// those of the first marked experiment ticked in group A, of the second
// in B (marking a whole experiment makes it a group). pick asks the user
// for a file and passes its path to add; the dialog adds it to both
// lists, ticked in the group whose button was pressed. The metric is, as
// on the command line, time (by meaning) else the first metric every run
// has, unless the user names one; the marked trials' metrics are offered
// once they are read.
func (c *Controller) GroupsForm(pick func(add func(path string))) *GroupsForm {
	runs, group := SplitByExperiment(c.B.MarkedTrials())
	f := &GroupsForm{runs: runs}
	labels := make([]string, len(runs))
	for i, r := range runs {
		labels[i] = r.Label
	}
	f.A = &form.Field{Kind: form.ListField, Label: "Group A (runs)", Options: labels, Checked: make([]bool, len(runs)), Width: 760}
	f.B = &form.Field{Kind: form.ListField, Label: "Group B (runs)", Options: slices.Clone(labels), Checked: make([]bool, len(runs))}
	for i, g := range group {
		f.A.Checked[i], f.B.Checked[i] = g == 0, g == 1
	}
	f.A.Button, f.A.Action = "Add file…", func() { pick(func(path string) { f.Update(func() { f.AddFile(path, f.A) }) }) }
	f.B.Button, f.B.Action = "Add file…", func() { pick(func(path string) { f.Update(func() { f.AddFile(path, f.B) }) }) }
	f.Metric = &form.Field{Kind: form.ComboField, Label: "Metric", Placeholder: "time (of any tool), else the first metric every run has"}
	f.Test = &form.Field{Kind: form.RadioField, Label: "Test", Options: []string{analysisview.TestWelch, analysisview.TestMannWhitney}, Text: analysisview.TestWelch}
	f.Inclusive = &form.Field{Kind: form.CheckField, Label: "Inclusive values (with everything called below)"}
	f.Form = &form.Form{Title: "Compare groups of runs", Confirm: "Compare",
		Fields: []*form.Field{
			{Kind: form.NoteField, Plain: true, Text: "The marked trials: the first marked experiment's ticked in group A, the second's in B; or add files."},
			f.A, f.B, f.Metric, f.Test, f.Inclusive, form.Note(analysisview.GroupsNote)}}
	f.Submit = func() error {
		s, err := f.Spec()
		if err != nil {
			return err
		}
		c.CompareGroups(s)
		return nil
	}
	c.metricNames(IDFilter(c.B.MarkedTrials()), func(names []string) {
		f.Metric.Options = names
	}, f.Form)
	return f
}

// AddFile offers the file at path in both lists, ticked in list (f.A or
// f.B); a file offered already is only ticked.
func (f *GroupsForm) AddFile(path string, list *form.Field) {
	r := fileRun(path)
	if !slices.ContainsFunc(f.runs, func(x GroupRun) bool { return x.Label == r.Label }) {
		f.runs = append(f.runs, r)
		for _, l := range []*form.Field{f.A, f.B} {
			l.Options = append(l.Options, r.Label)
			l.Checked = append(l.Checked, false)
		}
	}
	list.Checked[slices.Index(list.Options, r.Label)] = true
}

// group returns the runs ticked in list, in the list's order.
func (f *GroupsForm) group(list *form.Field) []GroupRun {
	var out []GroupRun
	for i, on := range list.Checked {
		if !on || i >= len(list.Options) {
			continue
		}
		if j := slices.IndexFunc(f.runs, func(r GroupRun) bool { return r.Label == list.Options[i] }); j >= 0 {
			out = append(out, f.runs[j])
		}
	}
	return out
}

// Spec returns the comparison the form describes, or what is wrong with
// it.
func (f *GroupsForm) Spec() (GroupsSpec, error) {
	s := GroupsSpec{A: f.group(f.A), B: f.group(f.B)}
	if len(s.A) < 2 || len(s.B) < 2 {
		return s, fmt.Errorf("tick at least two runs in each group (A has %d, B %d): one run says nothing of the noise", len(s.A), len(s.B))
	}
	for _, r := range s.A {
		if slices.Contains(s.B, r) {
			return s, fmt.Errorf("%s is in both groups", r.Label)
		}
	}
	if len(s.A)+len(s.B) > algebra.MaxOperands {
		return s, fmt.Errorf("%d runs: at most %d can be compared together", len(s.A)+len(s.B), algebra.MaxOperands)
	}
	s.Options.Metric = strings.TrimSpace(f.Metric.Text)
	if f.Test.Text == analysisview.TestMannWhitney {
		s.Options.Test = significance.MannWhitney
	}
	s.Options.Inclusive = f.Inclusive.On
	return s, nil
}

// CompareGroups compares the groups of s in the background: trials open
// in windows are used as they are, the others read from the repository,
// files read from disk. The answer is shown with the first run of group
// A.
func (c *Controller) CompareGroups(s GroupsSpec) {
	runs := append(slices.Clone(s.A), s.B...)
	docs := make([]*document.Doc, len(runs))
	for i, r := range runs {
		if r.Trial != 0 {
			docs[i] = c.ev.Doc(r.Trial)
		}
	}
	c.ev.Progress(Progress{Shown: true, Text: fmt.Sprintf("Reading %d runs and comparing %d with %d …", len(runs), len(s.A), len(s.B))})
	format := c.ev.Format()
	var rep *analysisview.GroupsReport
	var err error
	c.run(func() {
		for i, r := range runs {
			switch {
			case docs[i] != nil:
			case r.Trial != 0:
				docs[i], err = ReadTrial(context.Background(), c.r, r.Trial)
			default:
				docs[i], err = document.Read(r.Path)
			}
			if err != nil {
				return
			}
		}
		rep, err = analysisview.CompareGroupDocs(docs[:len(s.A)], docs[len(s.A):], s.Options, format)
	}, func() {
		c.ev.Progress(Progress{})
		if err != nil {
			c.ev.Error(fmt.Errorf("compare groups: %w", err))
			return
		}
		c.ev.Groups(rep, docs[0])
		g := rep.Result
		c.ev.Status(fmt.Sprintf("Compared %d runs with %d: %d of %d call paths differ significantly.", g.NA, g.NB, g.Significant(), len(g.Rows)))
	})
}
