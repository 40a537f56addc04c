package repoview

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cubeview/analysisview"
	"cubeview/form"
	"cubeview/model"
	"cubeview/repo"
)

// ImportForm is the repository window's Import… dialog: the files and
// folders, where the trials go, their names and attributes. Confirming
// starts the import.
type ImportForm struct {
	*form.Form
	Paths, App, Experiment, Name, Attrs, Force *form.Field
}

// ImportForm returns the Import… dialog, proposing the current trial's
// application and experiment. pick asks the user for a file (or a
// folder) and passes its path to add; the dialog adds it as a line.
func (c *Controller) ImportForm(pick func(folder bool, add func(path string))) *ImportForm {
	apps, exps := c.B.Names()
	f := &ImportForm{
		Paths: &form.Field{Kind: form.TextField, Label: "Files and folders", Placeholder: "one file or folder per line",
			Lines: 4, Width: 760},
		App:        &form.Field{Kind: form.ComboField, Label: "Application", Options: apps, Placeholder: "default"},
		Experiment: &form.Field{Kind: form.ComboField, Label: "Experiment", Options: exps, Placeholder: "default"},
		Name:       &form.Field{Kind: form.TextField, Label: "Trial name", Placeholder: "the file's name (one file only)"},
		Attrs:      &form.Field{Kind: form.TextField, Label: "Attributes", Placeholder: "one key=value per line, e.g. procs=64", Lines: 3},
		Force:      &form.Field{Kind: form.CheckField, Label: "Store again when the same content is already stored"},
	}
	if t, ok := c.B.Trial(c.B.Current()); ok {
		f.App.Text, f.Experiment.Text = t.App, t.Experiment
	}
	add := func(path string) {
		f.Update(func() { f.Paths.Text = addLine(f.Paths.Text, path) })
	}
	f.Paths.Button, f.Paths.Action = "Add file…", func() { pick(false, add) }
	f.Paths.More = []form.FieldButton{{Text: "Add folder…", Action: func() { pick(true, add) }}}
	f.Form = &form.Form{Title: "Import into the repository", Confirm: "Import",
		Fields: []*form.Field{f.Paths, f.App, f.Experiment, f.Name, f.Attrs, f.Force,
			form.Note("A folder that is one experiment (a TAU profile folder) becomes one trial; any other folder\n" +
				"is searched for experiments, and files that are not experiments are passed over.")}}
	f.Submit = func() error {
		paths, opt, err := f.Spec().Plan()
		if err != nil {
			return err
		}
		c.Import(paths, opt)
		return nil
	}
	return f
}

// addLine returns text with line added as its last line.
func addLine(text, line string) string {
	if text = strings.TrimRight(text, "\n"); text != "" {
		text += "\n"
	}
	return text + line
}

// Spec returns what the form says.
func (f *ImportForm) Spec() ImportSpec {
	return ImportSpec{Paths: f.Paths.Text, App: f.App.Text, Experiment: f.Experiment.Text,
		Name: f.Name.Text, Attrs: f.Attrs.Text, Force: f.Force.On}
}

// Choices of the Search dialog, in the order of their meaning.
var (
	valueChoices     = []string{"exclusive (own value)", "inclusive (with callees)"}
	thresholdChoices = []string{"share of the run's total ≥", "value ≥"}
)

// SearchForm is the repository window's Search… dialog: the options of
// "cubeview repo find". Confirming starts the search.
type SearchForm struct {
	*form.Form
	Metric, Values, By, Threshold, Constraint, Kind, Region, Ranks, Threads, Host, Where, Flat, Derived *form.Field
}

// SearchForm returns the Search… dialog over the trials of the filter;
// it offers the metrics stored in the repository once they are read.
func (c *Controller) SearchForm() *SearchForm {
	f := &SearchForm{
		Metric:    &form.Field{Kind: form.ComboField, Label: "Metric", Placeholder: "metric uniq_name, e.g. time", Width: 760},
		Values:    &form.Field{Kind: form.RadioField, Label: "Values", Options: valueChoices, Text: valueChoices[0]},
		By:        &form.Field{Kind: form.RadioField, Label: "Threshold", Options: thresholdChoices, Text: thresholdChoices[0]},
		Threshold: &form.Field{Kind: form.TextField, Text: "10%"},
		Constraint: &form.Field{Kind: form.TextField, Label: "Constraint",
			Placeholder: "instead of the threshold: time >= 10% and incl(visits) < 1000 (the metric above ranks)"},
		Kind:    &form.Field{Kind: form.ComboField, Label: "Region kind", Options: append([]string{""}, RegionKinds...), Placeholder: "any kind"},
		Region:  &form.Field{Kind: form.TextField, Label: "Regions", Placeholder: "all, or a name pattern: MPI_*, or a call path pattern: main/*/MPI_*"},
		Ranks:   &form.Field{Kind: form.TextField, Label: "Process ranks", Placeholder: "all, or e.g. 0-3,8"},
		Threads: &form.Field{Kind: form.TextField, Label: "Thread ranks", Placeholder: "all, or e.g. 0"},
		Host:    &form.Field{Kind: form.TextField, Label: "Hosts", Placeholder: "all, or a machine or node name pattern: node0*"},
		Where:   &form.Field{Kind: form.TextField, Label: "Trials", Text: c.filter, Placeholder: "all trials, or a filter as above"},
		Flat:    &form.Field{Kind: form.CheckField, Label: "Regions (flat profile) instead of call paths"},
		Derived: &form.Field{Kind: form.TextField, Label: "Derived", Lines: 2,
			Placeholder: "derived metrics for the search, one per line: tpv = time / visits"},
	}
	f.Form = &form.Form{Title: "Search the repository", Confirm: "Search",
		Fields: []*form.Field{f.Metric, f.Values, f.By, f.Threshold, f.Constraint, f.Kind, f.Region, f.Ranks, f.Threads, f.Host,
			f.Where, f.Flat, f.Derived,
			form.Note("Finds the call paths (or regions) of every trial whose metric meets the threshold (or the constraint), best first.\n" +
				"A share is of the run's total of the metric (over the chosen ranks, threads and hosts): 0.1 or 10%.")}}
	f.Submit = func() error {
		q, err := f.Spec().Query()
		if err != nil {
			return err
		}
		c.Search(q)
		return nil
	}
	c.metricNames("", func(names []string) {
		f.Metric.Options = names
		if f.Metric.Text == "" && len(names) > 0 {
			f.Metric.Text = names[0]
			if slices.Contains(names, "time") {
				f.Metric.Text = "time"
			}
		}
	}, f.Form)
	return f
}

// Spec returns what the form says.
func (f *SearchForm) Spec() SearchSpec {
	return SearchSpec{
		Metric: f.Metric.Text, Inclusive: f.Values.Text == valueChoices[1],
		ByShare: f.By.Text != thresholdChoices[1], Threshold: f.Threshold.Text, Constraint: f.Constraint.Text,
		Kind: f.Kind.Text, Region: f.Region.Text, Ranks: f.Ranks.Text, Threads: f.Threads.Text, Host: f.Host.Text,
		Where: f.Where.Text, Flat: f.Flat.On, Derived: f.Derived.Text,
	}
}

// metricNames reads the names of the metrics stored in the trials of
// filter in the background and passes them to use, then shows form again.
// A failure leaves the choice empty: the user may still type a name.
func (c *Controller) metricNames(filter string, use func([]string), form *form.Form) {
	var names []string
	c.run(func() { names, _ = c.r.MetricNames(context.Background(), filter) }, func() {
		form.Update(func() { use(names) })
	})
}

// ScalingForm is the repository window's Scaling… dialog: a scaling
// study of the marked trials, x from one of their numeric attributes
// (the process count the import filled in, by default). Confirming
// starts the study.
type ScalingForm struct {
	*form.Form
	analysisview.ScalingFields // metric, compare, weak, exclusive: as Algebra › Scaling…
	Derived, X, Preview        *form.Field
	trials                     []repo.Trial
}

// ScalingForm returns the Scaling… dialog of the marked trials; it offers
// their metrics once they are read.
func (c *Controller) ScalingForm() *ScalingForm {
	f := &ScalingForm{ScalingFields: analysisview.NewScalingFields(), trials: c.B.MarkedTrials(),
		Derived: &form.Field{Kind: form.TextField, Label: "or derived", Placeholder: "optional: a derived metric to study, e.g. tpv = time / visits"},
		Preview: &form.Field{Kind: form.NoteField, Wrap: true, Plain: true},
	}
	f.Metric.Placeholder = "reading the trials' metrics …"
	f.X = &form.Field{Kind: form.ChoiceField, Label: "x", Options: ScalingAttrs(f.trials)}
	f.Preview.Text = "The marked trials share no numeric attribute to order them by: set one (e.g. size=25) first."
	if len(f.X.Options) > 0 {
		f.X.Text = f.X.Options[0]
		f.Preview.Text = ScalingPreview(f.trials, f.X.Text)
	}
	f.Form = &form.Form{Title: "Scaling of repository trials", Confirm: "Compute",
		Fields: []*form.Field{
			{Kind: form.NoteField, Text: fmt.Sprintf("A scaling study of the %d marked trials, ordered by x:", len(f.trials)), Plain: true, Width: 720},
			f.Metric, f.Derived, f.X, f.Basis, f.Weak, f.Exclusive, f.PerVisit, f.Rank, f.Predict, f.Preview,
			form.Note("Per call path: its value in each trial (ordered by x), the speedup and parallel efficiency\n" +
				"against the first one, and a plot of the largest call paths. Click a call path to select it in the\n" +
				"windows of the trials that are open.")},
		Changed: func(x *form.Field) {
			if x == f.X {
				f.Preview.Text = ScalingPreview(f.trials, f.X.Text)
			}
		},
	}
	f.Submit = func() error {
		s, d, err := f.Spec()
		if err == nil {
			err = CheckScalingDerived(d, f.Metric.Options)
		}
		if err != nil {
			return err
		}
		return c.Scaling(f.trials, s, d)
	}
	c.metricNames(IDFilter(f.trials), func(names []string) {
		f.Metric.Options, f.Metric.Placeholder = names, "(select one)"
		if len(names) > 0 {
			f.Metric.Text = names[0]
			if slices.Contains(names, "time") {
				f.Metric.Text = "time"
			}
		}
	}, f.Form)
	return f
}

// Spec returns the study the form describes: of the derived metric when
// one is given, else of the metric chosen.
func (f *ScalingForm) Spec() (analysisview.ScalingSpec, *model.DerivedMetric, error) {
	s := f.ScalingFields.Spec(f.Metric.Text, analysisview.XGiven, f.X.Text)
	d, err := ScalingDerived(f.Derived.Text)
	if d != nil {
		s.Metric = d.UniqName
	}
	return s, d, err
}
