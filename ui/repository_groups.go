package ui

import (
	"cubeview/analysisview"
	"cubeview/document"
)

// showGroupsDialog shows the Compare groups… dialog of the repository
// window (repoview.GroupsForm): the marked trials split into two groups
// of runs, files added per group.
func (rw *repoWindow) showGroupsDialog() {
	showForm(rw.win, rw.c.GroupsForm(func(add func(string)) { rw.pickPath(false, add) }).Form, rw.showError)
}

// showGroups shows a comparison of groups of runs below the panes of the
// window of doc, opening one when none shows it.
func (rw *repoWindow) showGroups(rep *analysisview.GroupsReport, doc *document.Doc) {
	var w *Window
	for _, x := range rw.app.windows {
		if x.doc == doc {
			w = x
		}
	}
	if w == nil {
		w = rw.app.Show(doc)
	}
	w.panels.showGroups(rep)
	w.win.RequestFocus()
}
