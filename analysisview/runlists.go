package analysisview

import (
	"slices"

	"cubeview/form"
	"cubeview/view"
)

// runLists are the two lists of open experiments a form compares, side A
// and side B, each with a check box per experiment (Compare groups of
// runs…, Where did it change…).
type runLists struct {
	A, B *form.Field
	docs []*view.Doc
	// changed is called after AddDoc changed the lists.
	changed func()
}

// newRunLists returns the lists over docs labelled labelA and labelB,
// nothing ticked.
func newRunLists(docs []*view.Doc, labelA, labelB string) runLists {
	labels := view.DocLabels(docs)
	return runLists{
		A:    &form.Field{Kind: form.ListField, Label: labelA, Options: labels, Checked: make([]bool, len(docs)), Width: 720},
		B:    &form.Field{Kind: form.ListField, Label: labelB, Options: slices.Clone(labels), Checked: make([]bool, len(docs))},
		docs: docs,
	}
}

// tick ticks document i in list.
func (s *runLists) tick(list *form.Field, i int) {
	if i >= 0 && i < len(list.Checked) {
		list.Checked[i] = true
	}
}

// OfferOpen puts Open file… and Open folder… beside each list of the
// form f: openFile and openFolder open an experiment (in a window of its
// own, as File › Open does) and pass it on once it is read, nil when it
// could not be; it joins both lists, ticked in the list whose button was
// pressed.
func (s *runLists) OfferOpen(f *form.Form, openFile, openFolder func(then func(*view.Doc))) {
	for _, list := range []*form.Field{s.A, s.B} {
		add := func(d *view.Doc) { f.Update(func() { s.AddDoc(d, list) }) }
		list.Button, list.Action = "Open file…", func() { openFile(add) }
		list.More = []form.FieldButton{{Text: "Open folder…", Action: func() { openFolder(add) }}}
	}
}

// AddDoc offers d in both lists, ticked in list (A or B), keeping the
// other ticks; nil does nothing.
func (s *runLists) AddDoc(d *view.Doc, list *form.Field) {
	if d == nil {
		return
	}
	on := map[*form.Field][]*view.Doc{s.A: s.group(s.A), s.B: s.group(s.B)}
	on[list] = append(on[list], d)
	if !slices.Contains(s.docs, d) {
		s.docs = append(s.docs, d)
	}
	labels := view.DocLabels(s.docs)
	for _, l := range []*form.Field{s.A, s.B} {
		l.Options, l.Checked = slices.Clone(labels), make([]bool, len(labels))
		for i, doc := range s.docs {
			l.Checked[i] = slices.Contains(on[l], doc)
		}
	}
	if s.changed != nil {
		s.changed()
	}
}

// group returns the documents ticked in list, in the list's order.
func (s *runLists) group(list *form.Field) []*view.Doc {
	labels := view.DocLabels(s.docs)
	var out []*view.Doc
	for i, on := range list.Checked {
		if on && i < len(list.Options) {
			if j := slices.Index(labels, list.Options[i]); j >= 0 {
				out = append(out, s.docs[j])
			}
		}
	}
	return out
}

// both returns the documents ticked in A and then those in B.
func (s *runLists) both() []*view.Doc { return append(s.group(s.A), s.group(s.B)...) }

// inBoth returns a document ticked in both lists, nil when none is.
func (s *runLists) inBoth() *view.Doc {
	b := s.group(s.B)
	for _, d := range s.group(s.A) {
		if slices.Contains(b, d) {
			return d
		}
	}
	return nil
}
