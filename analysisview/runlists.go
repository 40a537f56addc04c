package analysisview

import (
	"slices"

	"cubeview/document"
	"cubeview/form"
)

// runLists are the two lists of open experiments a form compares, side A
// and side B, each with a check box per experiment (Compare groups of
// runs…, Where did it change…).
type runLists struct {
	A, B *form.Field
	docs []*document.Doc
	// changed is called after AddDoc changed the lists.
	changed func()
}

// newRunLists returns the lists over docs labelled labelA and labelB,
// nothing ticked.
func newRunLists(docs []*document.Doc, labelA, labelB string) runLists {
	labels := document.Labels(docs)
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
func (s *runLists) OfferOpen(f *form.Form, openFile, openFolder func(then func(*document.Doc))) {
	for _, list := range []*form.Field{s.A, s.B} {
		add := func(d *document.Doc) { f.Update(func() { s.AddDoc(d, list) }) }
		list.Button, list.Action = "Open file…", func() { openFile(add) }
		list.More = []form.FieldButton{{Text: "Open folder…", Action: func() { openFolder(add) }}}
	}
}

// AddDoc offers d in both lists, ticked in list (A or B), keeping the
// other ticks; nil does nothing.
func (s *runLists) AddDoc(d *document.Doc, list *form.Field) {
	if d == nil {
		return
	}
	on := map[*form.Field][]*document.Doc{s.A: s.group(s.A), s.B: s.group(s.B)}
	on[list] = append(on[list], d)
	if !slices.Contains(s.docs, d) {
		s.docs = append(s.docs, d)
	}
	labels := document.Labels(s.docs)
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
func (s *runLists) group(list *form.Field) []*document.Doc {
	labels := document.Labels(s.docs)
	var out []*document.Doc
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
func (s *runLists) both() []*document.Doc { return append(s.group(s.A), s.group(s.B)...) }

// inBoth returns a document ticked in both lists, nil when none is.
func (s *runLists) inBoth() *document.Doc {
	b := s.group(s.B)
	for _, d := range s.group(s.A) {
		if slices.Contains(b, d) {
			return d
		}
	}
	return nil
}
