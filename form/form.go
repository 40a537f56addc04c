package form

import (
	"errors"
	"fmt"
	"slices"
)

// FieldKind is how a form field is edited.
type FieldKind int

// The kinds of form fields.
const (
	TextField   FieldKind = iota // a line of text (Lines > 1: several lines)
	ChoiceField                  // one of Options, as a drop-down list
	RadioField                   // one of Options, side by side
	CheckField                   // on or off, with the Label beside the box
	ListField                    // Options each with a check box, in an order the user can change
	NoteField                    // Text shown only; Problem-styled when Warn
	ComboField                   // a line of text with Options to choose from in a drop-down list
)

// Field is one field of a Form. The form's code reads and writes the
// fields; the widgets only mirror them (ui.showForm).
type Field struct {
	Kind  FieldKind
	Label string // the caption in the label column; a check box's text
	// Text is a text field's text, the chosen option of a choice or
	// radio field, or a note's text.
	Text        string
	On          bool     // a check field's state
	Options     []string // the choices of a choice, radio, list or combo field
	Checked     []bool   // a list field's check boxes, parallel to Options
	Placeholder string
	Lines       int    // visible lines of a text field; 0 or 1 is one line
	Monospace   bool   // a text field or note in a fixed-width font
	Wrap        bool   // a note wraps at the dialog's width (else its own line breaks only)
	Warn        bool   // a note shown as a problem
	Plain       bool   // a note in the text's colour (else dimmed, as a hint)
	Hint        string // a dimmed line under a labelled field saying what it takes
	Disabled    bool
	// Width is the least width of the form's content, in points, when
	// this field needs it (the widest field wins); 0 for no demand.
	Width float32
	// Problem is what is wrong with the field's value, shown under it;
	// Check sets it.
	Problem string
	// Validate returns what is wrong with a text field's text, or nil.
	Validate func(text string) error
	// Action, when Button is set, is a button beside the field (e.g.
	// "Open file…" beside a choice of experiments).
	Button string
	Action func()
	// More are further buttons beside the field: after Button beside a
	// line ("Open folder…"), under it beside a taller field.
	More []FieldButton
}

// FieldButton is a button beside a form field.
type FieldButton struct {
	Text   string
	Action func()
}

// Form is the content of a dialog that asks for values and then does
// something with them: fields shown in order, a confirm button, and
// Submit. It holds no widgets, so that the dialog's logic is tested
// without a window.
type Form struct {
	Title   string
	Confirm string // the confirm button's text
	Fields  []*Field
	// Changed, if set, runs after the user changed field f; it may change
	// any field (texts, options, problems), and the dialog shows the new
	// values.
	Changed func(f *Field)
	// Submit does what the form is for; an error is shown and keeps
	// nothing from happening.
	Submit func() error
	// Focus is the field that has the keyboard first; nil for none.
	Focus *Field
	// Redraw and Close are set by the dialog that shows the form: Redraw
	// shows every field's value again (Update calls it), Close closes the
	// dialog (Done calls it).
	Redraw, Close func()
}

// Done closes the dialog showing the form, if any: code that submits the
// form other than through its confirm button calls it.
func (f *Form) Done() {
	if f.Close != nil {
		f.Close()
	}
}

// Update runs change, which may change any field, and then shows the
// fields again: for changes that do not come from the user's typing or
// choosing in a field (a file chosen in a file dialog, options read in
// the background).
func (f *Form) Update(change func()) {
	change()
	if f.Redraw != nil {
		f.Redraw()
	}
}

// Field returns the field labelled label, nil if none.
func (f *Form) Field(label string) *Field {
	for _, x := range f.Fields {
		if x.Label == label {
			return x
		}
	}
	return nil
}

// Set sets field x to a text (a text field's text, a choice or radio
// field's option) and tells the form, as typing or choosing does. Choosing
// an option that is not offered is an error.
func (f *Form) Set(x *Field, text string) error {
	if (x.Kind == ChoiceField || x.Kind == RadioField) && text != "" && !slices.Contains(x.Options, text) {
		return fmt.Errorf("%s: no option %q among %q", x.Label, text, x.Options)
	}
	x.Text = text
	f.changed(x)
	return nil
}

// SetOn checks or unchecks a check field and tells the form.
func (f *Form) SetOn(x *Field, on bool) {
	x.On = on
	f.changed(x)
}

// SetChecked checks or unchecks option i of a list field and tells the
// form.
func (f *Form) SetChecked(x *Field, i int, on bool) {
	if i < 0 || i >= len(x.Checked) {
		return
	}
	x.Checked[i] = on
	f.changed(x)
}

// Move moves option i of a list field by delta places (−1 up, 1 down)
// and tells the form.
func (f *Form) Move(x *Field, i, delta int) {
	j := i + delta
	if i < 0 || j < 0 || i >= len(x.Options) || j >= len(x.Options) {
		return
	}
	x.Options[i], x.Options[j] = x.Options[j], x.Options[i]
	x.Checked[i], x.Checked[j] = x.Checked[j], x.Checked[i]
	f.changed(x)
}

func (f *Form) changed(x *Field) {
	if x.Validate != nil {
		x.Problem = ""
		if err := x.Validate(x.Text); err != nil {
			x.Problem = err.Error()
		}
	}
	if f.Changed != nil {
		f.Changed(x)
	}
}

// Check validates every text field, setting its Problem, and returns the
// first problem.
func (f *Form) Check() error {
	var first error
	for _, x := range f.Fields {
		if x.Validate == nil {
			continue
		}
		x.Problem = ""
		if err := x.Validate(x.Text); err != nil {
			x.Problem = err.Error()
			if first == nil {
				first = fmt.Errorf("%s: %w", x.Label, err)
			}
		}
	}
	return first
}

// Confirmed checks the form and, when every field is valid, submits it:
// what the dialog's confirm button does.
func (f *Form) Confirmed() error {
	if err := f.Check(); err != nil {
		return err
	}
	if f.Submit == nil {
		return errors.New(f.Title + ": nothing to do")
	}
	return f.Submit()
}

// CheckedOptions returns the checked options of a list field, in order.
func (x *Field) CheckedOptions() []string {
	var out []string
	for i, o := range x.Options {
		if i < len(x.Checked) && x.Checked[i] {
			out = append(out, o)
		}
	}
	return out
}

// CheckOnly checks exactly the options named by first, in their order
// at the top of list field x, and unchecks the rest, which keep their
// order below; names not among the options are passed over. It tells the
// form, as the user's checking and moving would.
func (f *Form) CheckOnly(x *Field, first []string) {
	var front, rest []string
	for _, o := range first {
		if slices.Contains(x.Options, o) && !slices.Contains(front, o) {
			front = append(front, o)
		}
	}
	for _, o := range x.Options {
		if !slices.Contains(front, o) {
			rest = append(rest, o)
		}
	}
	x.Options = append(front, rest...)
	x.Checked = make([]bool, len(x.Options))
	for i := range front {
		x.Checked[i] = true
	}
	f.changed(x)
}

// Index returns the position of a choice or radio field's option among
// its options, −1 when none is chosen.
func (x *Field) Index() int { return slices.Index(x.Options, x.Text) }

// Note returns a note field of text.
func Note(text string) *Field { return &Field{Kind: NoteField, Text: text} }
