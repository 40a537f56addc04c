package ui

import (
	"cubeview/sourcepanel"
)

// sourceSettings returns the user's source-path settings; a change makes
// every open source panel look for its file again.
func (a *App) sourceSettings() sourcepanel.Settings {
	return sourcepanel.Settings{Prefs: a.prefs, Changed: func() {
		for _, w := range a.windows {
			if w.panels.source != nil {
				w.panels.source.m.Reload()
			}
		}
	}}
}

// sourcePathsDialog lets the user edit the mappings and search folders
// as text, one entry per line.
func (dl *dialogs) sourcePathsDialog() {
	w := dl.w
	showForm(w.win, w.app.sourceSettings().Form(), w.showError)
}
