package ui

import (
	"cubeview/view"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The operand pickers of the algebra dialogs open further experiments —
// files or folders of any format format.Open reads — without leaving the
// dialog: the experiment opens in its own window like File › Open, and
// the picker that asked for it chooses it.

// withOpen returns picker with buttons that open a file (a typed path or
// one browsed to, see openForm) or a folder and hand the new experiment
// to chosen.
func (f *operationForm) withOpen(picker fyne.CanvasObject, chosen func(*view.Doc)) fyne.CanvasObject {
	file := widget.NewButtonWithIcon("Open file…", theme.FileIcon(), func() {
		f.w.openDialogThen(f.opened(chosen))
	})
	folder := widget.NewButtonWithIcon("Open folder…", theme.FolderOpenIcon(), func() {
		f.w.chooseFolder(func(path string) { f.openOperand(path, chosen) })
	})
	return container.NewBorder(nil, nil, nil, container.NewHBox(file, folder), picker)
}

// openOperand opens the experiment at path (in a window of its own) and,
// once it is there, offers it in every picker and gives it to chosen.
func (f *operationForm) openOperand(path string, chosen func(*view.Doc)) {
	f.w.app.openFile(path, f.w, f.opened(chosen))
}

// opened returns what happens once an experiment opened from a picker is
// in its window: it is offered in every picker and given to chosen.
func (f *operationForm) opened(chosen func(*view.Doc)) func(*view.Doc) {
	return func(d *view.Doc) {
		if d == nil {
			return
		}
		f.refreshDocs()
		chosen(d)
		f.update()
	}
}

// refreshDocs offers the experiments open now, keeping each picker's
// choice (labels may change: two experiments of one name are numbered).
func (f *operationForm) refreshDocs() {
	keep := map[*widget.Select]*view.Doc{}
	for _, s := range []*widget.Select{f.minuend, f.subtrahend} {
		if s != nil {
			keep[s] = f.byLabel(s.Selected)
		}
	}
	f.docs = f.w.app.Documents()
	f.labels = view.DocLabels(f.docs)
	for s, d := range keep {
		s.Options = f.labels
		f.choose(s, d)
	}
	if f.operands != nil {
		f.operands.offer(f.docs, f.labels)
	}
}

// choose selects document d in picker s (clears it when d is not open).
func (f *operationForm) choose(s *widget.Select, d *view.Doc) {
	if i := f.index(d); i >= 0 {
		s.SetSelectedIndex(i)
	} else {
		s.ClearSelected()
	}
	s.Refresh()
}

// offer adds the documents not yet listed, unchecked at the end, and
// relabels every item.
func (l *operandList) offer(docs []*view.Doc, labels []string) {
	for i, d := range docs {
		var it *operandItem
		for _, x := range l.items {
			if x.doc == d {
				it = x
			}
		}
		if it == nil {
			it = &operandItem{doc: d}
			it.check = widget.NewCheck("", func(bool) { l.notify() })
			l.items = append(l.items, it)
		}
		it.check.Text = labels[i]
		it.check.Refresh()
	}
	l.rebuild()
}

// openItems returns the buttons below an operand list: each opens an
// experiment and checks it.
func (f *operationForm) openItems() fyne.CanvasObject {
	return f.withOpen(widget.NewLabel("Open another experiment:"), func(d *view.Doc) {
		f.operands.SetChecked(d, true)
	})
}
