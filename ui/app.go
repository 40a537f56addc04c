package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"cubeview/document"
	"cubeview/internal/prefs"
	"cubeview/repo"
	"cubeview/sourcepanel"
	"cubeview/view"
)

// App is the application: the open experiments and their windows. Every
// window offers the other open experiments as references (external
// percent) and as operands.
type App struct {
	fy      fyne.App
	docs    []*document.Doc
	windows []*Window
	// prefs are the user's settings, shared with other running instances.
	prefs *prefs.Store

	// async runs work off the UI goroutine and then done on it; tests
	// replace it with a synchronous runner.
	async view.Runner
	// fatal, if set, receives errors instead of dialogs (snapshot mode).
	fatal func(error)
	// onDocument, if set, is called when a window receives its experiment.
	onDocument func(w *Window)
	// forget keeps opened files out of the recent list (snapshot mode).
	forget bool

	// The repository window (File › Repository…), the repository it shows
	// (open for the program's life once used) and its --repo location.
	repository   *repoWindow
	repo         *repo.Repo
	repoLocation string
}

// NewApp returns the application running on a, with the preferences in
// the user's configuration folder (see internal/prefs).
func NewApp(a fyne.App) *App {
	a.Settings().SetTheme(appTheme{theme.DefaultTheme()})
	p := view.OpenPrefs(os.Stderr, a.Preferences().StringList, sourcepanel.PrefSourceMappings, sourcepanel.PrefSourceDirs)
	return &App{fy: a, prefs: p, async: func(work, done func()) {
		go func() {
			work()
			fyne.Do(done)
		}()
	}}
}

// Fyne returns the underlying Fyne application.
func (a *App) Fyne() fyne.App { return a.fy }

// Documents returns the open experiments in the order they were opened.
func (a *App) Documents() []*document.Doc { return slices.Clone(a.docs) }

// Windows returns the open windows.
func (a *App) Windows() []*Window { return slices.Clone(a.windows) }

// Show opens a new window for doc (already read or computed) and adds doc
// to the open experiments.
func (a *App) Show(doc *document.Doc) *Window {
	w := a.newWindow()
	w.setDocument(doc)
	a.show(w)
	return w
}

// cascade is how far a new window is placed from the last one.
const cascade = 32

// show shows a new window, placed down and right of the window opened
// before it, so that it does not cover it (where the window system lets
// the program place windows).
func (a *App) show(w *Window) {
	w.win.Show()
	var prev *Window
	for _, x := range a.windows {
		if x != w {
			prev = x
		}
	}
	if prev == nil {
		return
	}
	if x, y, ok := windowPosition(prev.win); ok {
		moveWindow(w.win, x+cascade, y+cascade)
	}
}

func (a *App) addDocument(d *document.Doc) {
	a.docs = append(a.docs, d)
	a.changed()
}

func (a *App) removeWindow(w *Window) {
	a.windows = slices.DeleteFunc(a.windows, func(x *Window) bool { return x == w })
	if w.doc != nil {
		a.docs = slices.DeleteFunc(a.docs, func(d *document.Doc) bool { return d == w.doc })
	}
	a.changed()
}

// changed tells every window that the list of experiments changed.
func (a *App) changed() {
	for _, w := range a.windows {
		w.menus.rebuild()
	}
}

// OpenFile reads the experiment at path in the background. If from shows
// an experiment, it shows the progress and the result opens in a new
// window; otherwise (nil, or an empty window) the result goes into from
// or a new window. Errors are shown in a dialog. Path may be a file or a
// folder in any format format.Open reads (TAU profile directories,
// HPCToolkit databases, …).
func (a *App) OpenFile(path string, from *Window) { a.openFile(path, from, nil) }

// openFile is OpenFile that calls then with the document once it is shown.
func (a *App) openFile(path string, from *Window, then func(*document.Doc)) {
	// target receives the document; nil: a new window, with the progress
	// shown in from.
	target, shown := from, from
	if from == nil {
		target = a.newWindow()
		a.show(target)
		shown = target
	} else if from.doc != nil {
		target = nil
	}
	shown.busy.start("Reading " + filepath.Base(path) + " …")
	var doc *document.Doc
	var err error
	a.async(func() { doc, err = document.Read(path) }, func() {
		shown.busy.stop()
		if err != nil {
			if target != nil && target.doc == nil {
				target.showMessage(fmt.Sprintf("Could not open %s.", path))
			}
			shown.showError(err)
			return
		}
		a.addRecent(path)
		if target != nil {
			target.setDocument(doc)
		} else {
			a.Show(doc)
		}
		if then != nil {
			then(doc)
		}
	})
}

// OpenExample writes the bundled example (before and after) to the user's
// cache folder, next to its source files, and opens both experiments.
func (a *App) OpenExample() {
	files, err := view.WriteExample()
	if err != nil {
		w := a.newWindow()
		if errors.Is(err, view.ErrNoExample) {
			w.showMessage("No bundled example in this build. Open an experiment with File › Open or drop a file here.")
			w.win.Show()
			return
		}
		w.showMessage("The bundled example could not be written.")
		w.win.Show()
		w.showError(err)
		return
	}
	a.OpenFile(files.Before, nil)
	a.OpenFile(files.After, nil)
}

// Recent returns the recently opened files, the latest first.
func (a *App) Recent() []string { return view.Recent(a.prefs) }

func (a *App) addRecent(path string) {
	if a.forget {
		return
	}
	if err := view.AddRecent(a.prefs, path); err != nil {
		fmt.Fprintf(os.Stderr, "cubeview: %v\n", err)
	}
	a.changed()
}
