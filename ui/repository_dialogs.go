package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/repoview"
)

// importForm is the content of the repository window's Import… dialog:
// the files and folders, where the trials go, their names and
// attributes. The dialog's Import button calls Submit; tests set the
// widgets and call Submit the same way.
type importForm struct {
	rw              *repoWindow
	paths           *widget.Entry
	app, experiment *widget.SelectEntry
	name            *widget.Entry
	attrs           *widget.Entry
	force           *widget.Check
	content         fyne.CanvasObject
}

func (rw *repoWindow) newImportForm() *importForm {
	f := &importForm{rw: rw}
	f.paths = widget.NewMultiLineEntry()
	f.paths.SetPlaceHolder("one file or folder per line")
	f.paths.SetMinRowsVisible(4)
	apps, exps := rw.b.Names()
	f.app = widget.NewSelectEntry(apps)
	f.app.SetPlaceHolder("default")
	f.experiment = widget.NewSelectEntry(exps)
	f.experiment.SetPlaceHolder("default")
	if t, ok := rw.b.Trial(rw.b.Current()); ok {
		f.app.SetText(t.App)
		f.experiment.SetText(t.Experiment)
	}
	f.name = widget.NewEntry()
	f.name.SetPlaceHolder("the file's name (one file only)")
	f.attrs = widget.NewMultiLineEntry()
	f.attrs.SetPlaceHolder("one key=value per line, e.g. procs=64")
	f.attrs.SetMinRowsVisible(3)
	f.force = widget.NewCheck("Store again when the same content is already stored", nil)
	add := func(path string) {
		text := strings.TrimRight(f.paths.Text, "\n")
		if text != "" {
			text += "\n"
		}
		f.paths.SetText(text + path)
	}
	addFile := widget.NewButton("Add file…", func() {
		d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				add(r.URI().Path())
				r.Close()
			}
		}, rw.win)
		d.Resize(fyne.NewSize(900, 600))
		d.Show()
	})
	addFolder := widget.NewButton("Add folder…", func() {
		d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				add(u.Path())
			}
		}, rw.win)
		d.Resize(fyne.NewSize(900, 600))
		d.Show()
	})
	note := widget.NewLabel("A folder that is one experiment (a TAU profile folder) becomes one trial; any other folder\n" +
		"is searched for experiments, and files that are not experiments are passed over.")
	note.Importance = widget.LowImportance
	f.content = container.NewVBox(
		widget.NewForm(
			widget.NewFormItem("Files and folders", container.NewBorder(nil, nil, nil, container.NewVBox(addFile, addFolder), f.paths)),
			widget.NewFormItem("Application", f.app),
			widget.NewFormItem("Experiment", f.experiment),
			widget.NewFormItem("Trial name", f.name),
			widget.NewFormItem("Attributes", f.attrs),
			widget.NewFormItem("", f.force)),
		note)
	return f
}

// Spec returns what the form says.
func (f *importForm) Spec() repoview.ImportSpec {
	return repoview.ImportSpec{Paths: f.paths.Text, App: f.app.Text, Experiment: f.experiment.Text,
		Name: f.name.Text, Attrs: f.attrs.Text, Force: f.force.Checked}
}

// Submit starts the import, or returns why it cannot start.
func (f *importForm) Submit() error {
	paths, opt, err := f.Spec().Plan()
	if err != nil {
		return err
	}
	f.rw.c.Import(paths, opt)
	return nil
}

func (rw *repoWindow) showImportDialog() {
	f := rw.newImportForm()
	showFormDialog(rw.win, "Import into the repository", "Import", f.content, 760, f.Submit, rw.showError)
}

// Choices of the Search dialog, in the order of their meaning.
var (
	valueChoices     = []string{"exclusive (own value)", "inclusive (with callees)"}
	thresholdChoices = []string{"share of the run's total ≥", "value ≥"}
)

// searchForm is the content of the repository window's Search… dialog:
// the options of "cubeview repo find". The dialog's Search button calls
// Submit; tests set the widgets and call Submit the same way.
type searchForm struct {
	rw             *repoWindow
	metric         *widget.SelectEntry
	metricNames    []string // the metrics stored in the repository
	values         *widget.RadioGroup
	by             *widget.RadioGroup
	threshold      *widget.Entry
	kind           *widget.SelectEntry
	ranks, threads *widget.Entry
	where          *widget.Entry
	flat           *widget.Check
	derived        *widget.Entry
	content        fyne.CanvasObject
}

func (rw *repoWindow) newSearchForm() *searchForm {
	f := &searchForm{rw: rw}
	f.metric = widget.NewSelectEntry(nil)
	f.metric.SetPlaceHolder("metric uniq_name, e.g. time")
	f.values = widget.NewRadioGroup(valueChoices, nil)
	f.values.Horizontal, f.values.Required = true, true
	f.values.SetSelected(valueChoices[0])
	f.by = widget.NewRadioGroup(thresholdChoices, nil)
	f.by.Horizontal, f.by.Required = true, true
	f.by.SetSelected(thresholdChoices[0])
	f.threshold = widget.NewEntry()
	f.threshold.SetText("10%")
	f.kind = widget.NewSelectEntry(append([]string{""}, repoview.RegionKinds...))
	f.kind.SetPlaceHolder("any kind")
	f.ranks = widget.NewEntry()
	f.ranks.SetPlaceHolder("all, or e.g. 0-3,8")
	f.threads = widget.NewEntry()
	f.threads.SetPlaceHolder("all, or e.g. 0")
	f.where = widget.NewEntry()
	f.where.SetText(rw.c.Filter())
	f.where.SetPlaceHolder("all trials, or a filter as above")
	f.flat = widget.NewCheck("Regions (flat profile) instead of call paths", nil)
	f.derived = widget.NewMultiLineEntry()
	f.derived.SetPlaceHolder("derived metrics for the search, one per line: tpv = time / visits")
	f.derived.SetMinRowsVisible(2)
	var names []string
	rw.app.async(func() { names, _ = rw.c.Repo().MetricNames(context.Background(), "") }, func() {
		f.metricNames = names
		f.metric.SetOptions(names)
		if f.metric.Text == "" && len(names) > 0 {
			f.metric.SetText(names[0])
			for _, n := range names {
				if n == "time" {
					f.metric.SetText(n)
				}
			}
		}
	})
	note := widget.NewLabel("Finds the call paths (or regions) of every trial whose metric meets the threshold, best first.\n" +
		"A share is of the run's total of the metric (over the chosen ranks and threads): 0.1 or 10%.")
	note.Importance = widget.LowImportance
	f.content = container.NewVBox(widget.NewForm(
		widget.NewFormItem("Metric", f.metric),
		widget.NewFormItem("Values", f.values),
		widget.NewFormItem("Threshold", container.NewBorder(nil, nil, f.by, nil, f.threshold)),
		widget.NewFormItem("Region kind", f.kind),
		widget.NewFormItem("Process ranks", f.ranks),
		widget.NewFormItem("Thread ranks", f.threads),
		widget.NewFormItem("Trials", f.where),
		widget.NewFormItem("", f.flat),
		widget.NewFormItem("Derived", f.derived)), note)
	return f
}

// Spec returns what the form says.
func (f *searchForm) Spec() repoview.SearchSpec {
	return repoview.SearchSpec{
		Metric: f.metric.Text, Inclusive: f.values.Selected == valueChoices[1],
		ByShare: f.by.Selected != thresholdChoices[1], Threshold: f.threshold.Text,
		Kind: f.kind.Text, Ranks: f.ranks.Text, Threads: f.threads.Text, Where: f.where.Text,
		Flat: f.flat.Checked, Derived: f.derived.Text,
	}
}

// Submit starts the search, or returns why it cannot start.
func (f *searchForm) Submit() error {
	q, err := f.Spec().Query()
	if err != nil {
		return err
	}
	f.rw.c.Search(q)
	return nil
}

func (rw *repoWindow) showSearchDialog() {
	f := rw.newSearchForm()
	showFormDialog(rw.win, "Search the repository", "Search", f.content, 760, f.Submit, rw.showError)
}
