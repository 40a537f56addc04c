package dialogform

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/form"
)

// OperationForm is the dialog of Algebra › Difference…, Merge… and
// Mean…: the operands — a minuend and a subtrahend, or an ordered list of
// experiments to check — each with buttons that open a further
// experiment, and the integration options of the command line, with the
// expression of the result shown as they change.
type OperationForm struct {
	*form.Form
	Op  algebra.Op
	src OperandSource

	docs   []*document.Doc // the experiments offered, in the order of labels
	labels []string

	Minuend, Subtrahend *form.Field // Difference: choices of the open experiments
	Operands            *form.Field // Merge and Mean: the list of them
	System              *form.Field // system-tree radio (algebraSystemModes)
	Strict              *form.Field // strict line matching
	StrictRoots         *form.Field // strict root matching
	Renames             *form.Field // region renaming rules, one a line
	Maps                *form.Field // metric mappings, one a line
	Preview             *form.Field // the result's expression, or why there is none
}

// OperandSource is what an operation dialog needs from the application:
// the experiments open now, a way to open another one from a file or a
// folder (in a window of its own; then receives it once it is there, nil
// when it could not be read), and the computation of the operation.
type OperandSource struct {
	Docs       func() []*document.Doc
	OpenFile   func(then func(*document.Doc))
	OpenFolder func(then func(*document.Doc))
	Compute    func(document.Operation)
}

// NewOperationForm returns the dialog of op over the experiments open
// now, with current (the window's experiment) as the first operand: a
// difference starts with the experiment after it (wrapping around, so
// that of a pair opened as before and after each window offers the
// other) as the subtrahend; a list checks current and every experiment
// read from a file that is not itself a result.
func NewOperationForm(op algebra.Op, current *document.Doc, src OperandSource) *OperationForm {
	f := &OperationForm{Op: op, src: src, docs: src.Docs()}
	f.labels = document.Labels(f.docs)
	f.Form = &form.Form{Title: op.Title(), Confirm: "Compute", Submit: f.submit, Changed: func(*form.Field) { f.update() }}
	var note string
	switch op {
	case algebra.OpDiff:
		a, b := PairChoice(f.docs, current)
		f.Minuend, f.Subtrahend = f.picker("Minuend", a), f.picker("Subtrahend", b)
		f.Fields = append(f.Fields, f.Minuend, f.Subtrahend)
		note = "The result is minuend − subtrahend: positive where the minuend had more."
	default:
		f.Operands = &form.Field{Kind: form.ListField}
		for i, d := range f.docs {
			on := CheckedByDefault(d, current)
			if d == current {
				f.Operands.Options = slices.Insert(f.Operands.Options, 0, f.labels[i])
				f.Operands.Checked = slices.Insert(f.Operands.Checked, 0, on)
			} else {
				f.Operands.Options = append(f.Operands.Options, f.labels[i])
				f.Operands.Checked = append(f.Operands.Checked, on)
			}
		}
		f.Fields = append(f.Fields, f.Operands, f.withOpen(&form.Field{Kind: form.NoteField, Plain: true, Text: "Open another experiment:"}, f.Operands))
		note = "Check two or more experiments; a value missing in one counts as 0 and is still divided by their number."
		if op == algebra.OpMerge {
			note = "Order matters: each metric comes from the first checked experiment that has it. Use the arrows to reorder."
		}
	}
	f.System = &form.Field{Kind: form.RadioField, Label: "System tree", Options: algebraSystemModes, Text: algebraSystemModes[algebra.SystemAuto]}
	f.Strict = &form.Field{Kind: form.CheckField, Label: "Strict line matching (regions and call sites must have the same lines)"}
	f.StrictRoots = &form.Field{Kind: form.CheckField, Label: "Strict root matching (call-tree roots of different regions stay apart; " +
		"by default, when every operand has one root, the roots match whatever their names)"}
	f.Renames = &form.Field{Kind: form.TextField, Label: "Rename regions", Lines: 2,
		Placeholder: "OLD=NEW, one rule a line, applied in order, e.g. tea_leaf_.*=tea_leaf"}
	f.Maps = &form.Field{Kind: form.TextField, Label: "Map metrics", Lines: 2,
		Placeholder: "FROM=TO, one a line, e.g. CPUTIME=time"}
	mapHelp := &form.Field{Kind: form.NoteField, Label: " ", Wrap: true, Text: "Metrics match by unique name, then by meaning when unit and meaning agree " +
		"(Score-P's time, TAU's TIME, Caliper's sum#time.duration and HPCToolkit's REALTIME are wall-clock time; visits and calls are visits). " +
		"A mapping compares metric FROM as metric TO where the meanings differ, e.g. sampled CPU time as wall-clock time: " +
		"FROM and TO are unique names or identities (time, cputime, visits, bytes_sent, bytes_received, PAPI_…)."}
	f.Preview = &form.Field{Kind: form.NoteField, Wrap: true, Plain: true}
	renameHelp := &form.Field{Kind: form.NoteField, Label: " ", Wrap: true, Text: "Regions are renamed in every operand before matching, for functions renamed between versions: " +
		"OLD is a regular expression that must match the whole name, NEW may use $1 …; write \\= for a '=' in OLD."}
	systemHelp := &form.Field{Kind: form.NoteField, Wrap: true, Text: "Automatic copies an operand's machine/node hierarchy when every operand's process placement fits it and collapses it to one machine and node otherwise."}
	f.Fields = append(f.Fields, &form.Field{Kind: form.NoteField, Wrap: true, Plain: true, Text: note}, f.System, f.Strict, f.StrictRoots, f.Renames, renameHelp, f.Maps, mapHelp, systemHelp, f.Preview)
	f.Fields[0].Width = 640
	f.update()
	return f
}

// picker returns a choice of the open experiments labelled label, with
// the i-th chosen (none for −1), and the buttons that open another one.
func (f *OperationForm) picker(label string, i int) *form.Field {
	x := &form.Field{Kind: form.ChoiceField, Label: label, Options: slices.Clone(f.labels)}
	if i >= 0 {
		x.Text = f.labels[i]
	}
	return f.withOpen(x, x)
}

// withOpen gives x the buttons that open a file or a folder; the
// experiment opened goes to field to (see Opened).
func (f *OperationForm) withOpen(x, to *form.Field) *form.Field {
	x.Button, x.Action = "Open file…", func() { f.src.OpenFile(func(d *document.Doc) { f.Opened(d, to) }) }
	x.More = []form.FieldButton{{Text: "Open folder…", Action: func() { f.src.OpenFolder(func(d *document.Doc) { f.Opened(d, to) }) }}}
	return x
}

// PairChoice returns the indices in docs of the experiments a dialog of
// two starts with: current and the one after it, wrapping around, so
// that of a pair opened as before and after each window offers the
// other; current twice when it is the only one; −1 for one not in docs.
// A difference is not offered as its own operand: its operands are,
// when open, else experiments read from files.
func PairChoice(docs []*document.Doc, current *document.Doc) (first, second int) {
	if current.IsDifference() {
		return resultPair(docs, current)
	}
	first = slices.Index(docs, current)
	second = first
	if len(docs) > 1 {
		second = (first + 1) % len(docs)
	}
	return first, second
}

// resultPair is PairChoice for a difference: its first two operands that
// are open, then the open experiments that are no results, in order.
func resultPair(docs []*document.Doc, result *document.Doc) (first, second int) {
	var pick []int
	for _, s := range result.Sources {
		if i := slices.Index(docs, s); i >= 0 && !slices.Contains(pick, i) {
			pick = append(pick, i)
		}
	}
	for i, d := range docs {
		if d.Expression == "" && !slices.Contains(pick, i) {
			pick = append(pick, i)
		}
	}
	switch len(pick) {
	case 0:
		i := slices.Index(docs, result)
		return i, i
	case 1:
		return pick[0], pick[0]
	}
	return pick[0], pick[1]
}

// CheckedByDefault reports whether a list of operands opened in
// current's window starts with d checked: current unless it is a
// difference, and every experiment read from a file that is not itself a
// result.
func CheckedByDefault(d, current *document.Doc) bool {
	return d == current && !d.IsDifference() || d.Path != "" && d.Expression == ""
}

// doc returns the experiment labelled label, nil if none.
func (f *OperationForm) doc(label string) *document.Doc {
	if i := slices.Index(f.labels, label); i >= 0 {
		return f.docs[i]
	}
	return nil
}

// Opened offers the experiments open now, keeping every choice (labels
// may change: two experiments of one name are numbered), and gives d, an
// experiment opened from the dialog, to field to: a choice chooses it,
// the list checks it. Nothing happens for nil (it could not be read).
func (f *OperationForm) Opened(d *document.Doc, to *form.Field) {
	if d == nil {
		return
	}
	keep := map[*form.Field]*document.Doc{}
	for _, x := range []*form.Field{f.Minuend, f.Subtrahend} {
		if x != nil {
			keep[x] = f.doc(x.Text)
		}
	}
	var listed []*document.Doc
	if f.Operands != nil {
		for _, l := range f.Operands.Options {
			listed = append(listed, f.doc(l))
		}
	}
	f.docs = f.src.Docs()
	f.labels = document.Labels(f.docs)
	label := func(d *document.Doc) string {
		if i := slices.Index(f.docs, d); i >= 0 {
			return f.labels[i]
		}
		return ""
	}
	for x, kept := range keep {
		x.Options = slices.Clone(f.labels)
		x.Text = label(kept)
	}
	if f.Operands != nil {
		l := f.Operands
		for _, x := range f.docs {
			if !slices.Contains(listed, x) {
				listed = append(listed, x)
				l.Checked = append(l.Checked, false)
			}
		}
		l.Options = nil
		for _, x := range listed {
			l.Options = append(l.Options, label(x))
		}
	}
	switch {
	case to == nil:
	case to.Kind == form.ListField:
		to.Checked[slices.Index(to.Options, label(d))] = true
	default:
		to.Text = label(d)
	}
	f.Update(f.update)
}

// Selected returns the checked experiments of the list in list order.
func (f *OperationForm) Selected() []*document.Doc {
	var out []*document.Doc
	for _, l := range f.Operands.CheckedOptions() {
		out = append(out, f.doc(l))
	}
	return out
}

// CheckOnly checks exactly docs in the list and puts them first, in
// their order, as a user would with the check boxes and arrows.
func (f *OperationForm) CheckOnly(docs ...*document.Doc) {
	var labels []string
	for _, d := range docs {
		if i := slices.Index(f.docs, d); i >= 0 {
			labels = append(labels, f.labels[i])
		}
	}
	f.Form.CheckOnly(f.Operands, labels)
}

// Options returns the chosen integration options, or why the renaming
// rules or metric mappings cannot be used.
func (f *OperationForm) Options() (algebra.Options, error) {
	opt := algebra.Options{StrictLines: f.Strict.On, StrictRoots: f.StrictRoots.On, System: algebraSystemMode(f.System.Text)}
	var err error
	if opt.Renames, err = parseRenames(f.Renames.Text); err != nil {
		return opt, err
	}
	opt.MetricMaps, err = parseMetricMaps(f.Maps.Text)
	return opt, err
}

// Request returns the operation the form describes, or why it cannot run.
func (f *OperationForm) Request() (document.Operation, error) {
	opt, err := f.Options()
	r := document.Operation{Op: f.Op, Options: opt}
	if err != nil {
		return r, err
	}
	if f.Op == algebra.OpDiff {
		a, b := f.doc(f.Minuend.Text), f.doc(f.Subtrahend.Text)
		if a == nil || b == nil {
			return r, errors.New("choose a minuend and a subtrahend")
		}
		r.Operands = []*document.Doc{a, b}
	} else {
		r.Operands = f.Selected()
	}
	return r, r.Check()
}

// submit starts the operation; the result opens in a new window.
func (f *OperationForm) submit() error {
	r, err := f.Request()
	if err != nil {
		return err
	}
	f.src.Compute(r)
	return nil
}

// update shows the expression that the operation would produce.
func (f *OperationForm) update() {
	r, err := f.Request()
	if err != nil {
		f.Preview.Text = "Result: — (" + err.Error() + ")"
		return
	}
	f.Preview.Text = "Result: " + r.Name()
}

// algebraSystemModes are the system-tree choices of the algebra dialogs, in
// the order of algebra.SystemMode.
var algebraSystemModes = []string{"automatic", "copy", "collapse"}

// algebraSystemMode returns the system-tree mode a dialog's choice names;
// automatic for an unknown one.
func algebraSystemMode(name string) algebra.SystemMode {
	for i, c := range algebraSystemModes {
		if name == c {
			return algebra.SystemMode(i)
		}
	}
	return algebra.SystemAuto
}

// parseRenames reads the region renaming rules of the algebra dialogs,
// OLD=NEW one a line (algebra.ParseRename).
func parseRenames(text string) ([]algebra.Rename, error) {
	return parseLines(text, "renaming rules", algebra.ParseRename)
}

// parseMetricMaps reads the metric mappings of the algebra dialogs,
// FROM=TO one a line (algebra.ParseMetricMap).
func parseMetricMaps(text string) ([]algebra.MetricMap, error) {
	return parseLines(text, "metric mappings", algebra.ParseMetricMap)
}

// parseLines reads one rule a line with parse, blank lines skipped; the
// error names the line of the first rule that cannot be read.
func parseLines[T any](text, what string, parse func(string) (T, error)) ([]T, error) {
	var rules []T
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		r, err := parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d of the %s: %w", i+1, what, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}
