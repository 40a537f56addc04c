package ui

import (
	"fmt"
	"image"
	"io"
	"os"
	"time"

	"fyne.io/fyne/v2"

	"cubeview/algebra"
	"cubeview/internal/snapshot"
	"cubeview/launch"
	"cubeview/repo"
	"cubeview/view"
)

// Main opens the windows the command line o asks for (launch.Parse)
// and runs the application; it returns the exit status.
func Main(a fyne.App, o launch.Args) int {
	app := NewApp(a)
	if o.Snapshot != "" {
		return app.Snapshot(o, os.Stderr)
	}
	if o.Repo != "" {
		// References (repo:17) typed anywhere read the same repository.
		os.Setenv(repo.EnvLocation, o.Repo)
		app.repoLocation = o.Repo
	}
	if o.Repository {
		app.ShowRepository()
	}
	if len(o.Files) == 0 && o.Calc == "" && !o.Repository {
		app.OpenExample()
	}
	if o.Calc != "" {
		app.OpenExpression(o.Calc, algebra.Options{}, nil)
	}
	for _, f := range o.Files {
		app.OpenFile(f, nil)
	}
	a.Run()
	return 0
}

// Snapshot opens the file of o in a window of o's size, applies o's
// selections, renders the window into the PNG file o.Snapshot and ends the
// process with exit status 0, or 1 after printing an error to stderr.
func (a *App) Snapshot(o launch.Args, stderr io.Writer) int {
	// quit runs on the UI goroutine. It ends the process at once: quitting
	// the driver while it still delivers the first pointer events of the
	// new window can crash it.
	quit := func(err error) {
		if err != nil {
			fmt.Fprintf(stderr, "cubeview: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	a.fatal = quit
	a.forget = true
	// A snapshot is for scripts and tests: never hang.
	watchdog := time.AfterFunc(snapshot.Timeout, func() {
		fmt.Fprintf(stderr, "cubeview: snapshot of %s not done after %v\n", o.Snapshot, snapshot.Timeout)
		os.Exit(1)
	})
	defer watchdog.Stop()
	file, err := o.SnapshotFile()
	if err != nil {
		fmt.Fprintf(stderr, "cubeview: %v\n", err)
		return 1
	}
	w := a.newWindow()
	w.win.Resize(fyne.NewSize(float32(o.Width), float32(o.Height)))
	w.win.Show()
	capture := func() {
		go func() {
			// Give the driver a few frames to lay out and paint.
			time.Sleep(snapshot.Delay())
			var img image.Image
			var err error
			fyne.DoAndWait(func() { img, err = captureWindow(w.win) })
			if err == nil {
				err = snapshot.WritePNG(o.Snapshot, img)
			}
			fyne.Do(func() { quit(err) })
		}()
	}
	a.onDocument = func(w *Window) {
		a.onDocument = nil
		// Apply the options once the first values are there.
		w.whenReady(func() {
			if err := w.apply(o); err != nil {
				quit(err)
				return
			}
			w.whenReady(func() {
				w.panels.whenClustersIdle(func() {
					if err := w.panels.selectCluster(o.Cluster); err != nil {
						quit(err)
						return
					}
					w.whenReady(func() { w.panels.whenSourceIdle(capture) })
					w.refresh()
				})
			})
			w.refresh()
		})
		w.refresh()
	}
	if o.Calc != "" {
		a.OpenExpression(o.Calc, algebra.Options{}, w)
	} else {
		a.OpenFile(file, w)
	}
	a.fy.Run()
	return 1 // not reached unless the driver stops by itself
}

// apply carries out the snapshot options on a window showing an experiment.
func (w *Window) apply(o launch.Args) error {
	if o.Flat {
		w.SetFlat(true)
	}
	if err := o.Select(w.view, w.doc.Name); err != nil {
		return err
	}
	if o.SelectMetric != "" {
		w.panes[view.MetricPane].Sync()
	}
	if o.SelectCnode != "" {
		w.active = view.CallPane
		w.panes[view.CallPane].Sync()
	}
	if m, ok := view.ParseMode(view.SystemPane, o.SystemMode); ok {
		w.SetMode(view.SystemPane, m)
	}
	if o.Hottest {
		w.ExpandHottest(view.CallPane)
	}
	if o.ExpandSystem {
		for _, r := range w.view.Roots(view.SystemPane) {
			w.expandSubtree(view.SystemPane, r, true)
		}
	}
	if o.Source {
		w.panels.ShowSource(true)
	}
	return nil
}

// captureWindow captures the window's canvas. Where the OpenGL driver
// cannot read its front buffer back (it then yields a uniform image, as
// with software OpenGL under Xvfb), the pixels come from the window system.
func captureWindow(w fyne.Window) (image.Image, error) {
	img := w.Canvas().Capture()
	if img != nil && !snapshot.Uniform(img) {
		return img, nil
	}
	native, err := captureNative(w)
	if err != nil {
		if img != nil {
			return img, nil // a uniform window is what it is
		}
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return native, nil
}
