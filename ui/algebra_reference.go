package ui

import (
	"cubeview/view"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// defaultReference returns the reference External percent starts with
// (view.DefaultReference).
func (w *Window) defaultReference() *view.Doc { return view.DefaultReference(w.doc, w.app.docs) }

// referenceName names the reference of External percent.
func (w *Window) referenceName() string { return view.ReferenceName(w.view.External(), w.app.docs) }

// referenceItem returns View › Choose external reference….
func (w *Window) referenceItem() *fyne.MenuItem {
	it := fyne.NewMenuItem("Choose external reference…", w.showReferenceChooser)
	it.Disabled = w.view == nil
	return it
}

// referenceForm is the content of the external reference chooser.
type referenceForm struct {
	w      *Window
	docs   []*view.Doc // the other open experiments
	labels []string
	choice *widget.RadioGroup
	show   *widget.Check // switch the call pane to External percent
	box    fyne.CanvasObject
}

const noReference = "None"

func (w *Window) newReferenceForm() *referenceForm {
	f := &referenceForm{w: w}
	for _, d := range w.app.docs {
		if d != w.doc {
			f.docs = append(f.docs, d)
		}
	}
	f.labels = view.DocLabels(f.docs)
	f.choice = widget.NewRadioGroup(append([]string{noReference}, f.labels...), nil)
	f.choice.Required = true
	f.choice.SetSelected(noReference)
	for i, d := range f.docs {
		if w.view.External() == d.Exp {
			f.choice.SetSelected(f.labels[i])
		}
	}
	f.show = widget.NewCheck("Show the call tree in External percent", nil)
	f.show.SetChecked(!w.view.UsesMode(view.ExternalPercent))
	text := widget.NewLabel("External percent shows each value in percent of the same metric's total in the reference experiment — " +
		"for a difference, the old run's total shows the effect of a change relative to where it started.")
	text.Wrapping = fyne.TextWrapWord
	f.box = widget.NewForm(
		widget.NewFormItem("", text),
		widget.NewFormItem("Reference", f.choice),
		widget.NewFormItem("", f.show))
	return f
}

// Apply sets the chosen reference and, if asked, the call pane's mode.
func (f *referenceForm) Apply() {
	var ref *view.Doc
	for i, l := range f.labels {
		if f.choice.Selected == l {
			ref = f.docs[i]
		}
	}
	f.w.setExternal(ref)
	if ref != nil && f.show.Checked {
		f.w.SetMode(view.CallPane, view.ExternalPercent)
	}
}

func (w *Window) showReferenceChooser() {
	if w.view == nil {
		return
	}
	f := w.newReferenceForm()
	if len(f.docs) == 0 {
		dialog.ShowInformation("External reference", "External percent needs a second open experiment: open one with File › Open or compute one with the Algebra menu.", w.win)
		return
	}
	d := dialog.NewCustomConfirm("External reference of "+w.doc.Name, "Apply", "Cancel", f.box, func(ok bool) {
		if ok {
			f.Apply()
		}
	}, w.win)
	d.Resize(fyne.NewSize(620, 0).Max(d.MinSize()))
	d.Show()
}
