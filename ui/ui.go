package ui

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"cubeview/algebra"
	"cubeview/internal/atomicfile"
	"cubeview/internal/flagargs"
	"cubeview/repo"
	"cubeview/view"
)

// Options are the GUI command-line arguments.
type Options struct {
	Files []string
	// Snapshot, when set, renders the window of the (first) file into
	// this PNG file and exits.
	Snapshot     string
	Width        int
	Height       int
	SelectMetric string // uniq_name of the metric to select
	SelectCnode  string // call path (region names joined by "/") to select
	ExpandSystem bool   // expand the whole system tree
	Flat         bool   // show the flat profile
	Hottest      bool   // expand the hottest call path below the selection
	SystemMode   string // value mode of the system pane, e.g. "peer distribution"
	Source       bool   // show the source panel
	Calc         string // algebra expression over files whose result opens (and is rendered)
	Repo         string // repository location (--repo); "" for $CUBEVIEW_REPO or the default
	Repository   bool   // open the repository window
	Help         bool
}

const usage = `Usage: cubeview [FILE…] [--calc EXPR] [--repo LOC] [--repository]
       cubeview --snapshot OUT.png [--size WxH] [--select-metric UNIQ_NAME]
                [--select-cnode CALL/PATH] [--expand-system] [--flat] [--hottest] [--source]
                [--system-mode MODE]
                [FILE | --calc EXPR]

Opens each experiment FILE in its own window: a CUBE file (.cube,
.cube.gz, .cubex) or another tool's profile, file or folder (TAU, gprof,
mpiP, pprof, callgrind, HPCToolkit, Caliper; see "cubeview help");
without a file, the bundled example (before and after). --calc EXPR opens
the result of an algebra expression over files in a window titled by the
expression, e.g. --calc 'diff(before.cubex, after.cubex)' (operators as in
"cubeview help calc"). With --snapshot the window of FILE, of EXPR's
result or of the example's "before" is rendered at the given size (default
1280x800) into OUT.png and cubeview exits; --system-mode sets the system
pane's value mode (peer-percent, peer-distribution, own-root-percent, …). --repository opens the
experiment repository's window (File › Repository…); --repo LOC names the
repository (an SQLite file or a postgres:// URL) it and repo:ID references
read instead of $CUBEVIEW_REPO or the default.`

// ParseArgs parses the GUI command line. Flags and files may be mixed;
// "--" ends the flags.
func ParseArgs(args []string) (Options, error) {
	o := Options{Width: 1280, Height: 800}
	fs := flagargs.New("cubeview")
	fs.StringVar(&o.Snapshot, "snapshot", "", "render into a PNG file and exit")
	size := fs.String("size", "", "snapshot size WIDTHxHEIGHT")
	fs.StringVar(&o.SelectMetric, "select-metric", "", "metric to select in the snapshot")
	fs.StringVar(&o.SelectCnode, "select-cnode", "", "call path to select in the snapshot")
	fs.BoolVar(&o.ExpandSystem, "expand-system", false, "expand the system tree in the snapshot")
	fs.BoolVar(&o.Flat, "flat", false, "show the flat profile in the snapshot")
	fs.BoolVar(&o.Hottest, "hottest", false, "expand the hottest path in the snapshot")
	fs.StringVar(&o.SystemMode, "system-mode", "", "value mode of the system pane in the snapshot, e.g. 'peer distribution'")
	fs.BoolVar(&o.Source, "source", false, "show the source panel in the snapshot")
	fs.StringVar(&o.Calc, "calc", "", "open the result of an algebra expression")
	fs.StringVar(&o.Repo, "repo", "", "repository location")
	fs.BoolVar(&o.Repository, "repository", false, "open the repository window")
	files, err := flagargs.Parse(fs, args)
	if flagargs.IsHelp(err) {
		o.Help = true
		return o, nil
	}
	if err != nil {
		return o, err
	}
	o.Files = files
	if *size != "" {
		if o.Width, o.Height, err = parseSize(*size); err != nil {
			return o, err
		}
	}
	if o.Snapshot == "" && (o.SelectMetric != "" || o.SelectCnode != "" || o.ExpandSystem || o.Flat || o.Hottest || o.Source || o.SystemMode != "") {
		return o, errors.New("--select-metric, --select-cnode, --expand-system, --flat, --hottest, --source and --system-mode need --snapshot")
	}
	if _, ok := view.ParseMode(view.SystemPane, o.SystemMode); o.SystemMode != "" && !ok {
		return o, fmt.Errorf("--system-mode: no mode %q in the system pane; one of %s", o.SystemMode, systemModeNames())
	}
	if o.Snapshot != "" && len(o.Files) > 1 {
		return o, errors.New("--snapshot renders one file")
	}
	if o.Snapshot != "" && o.Calc != "" && len(o.Files) > 0 {
		return o, errors.New("--snapshot renders one file or one --calc expression, not both")
	}
	return o, nil
}

func parseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || w < 200 || h < 150 || w > 10000 || h > 10000 {
		return 0, 0, fmt.Errorf("--size %q: want WIDTHxHEIGHT, at least 200x150", s)
	}
	return w, h, nil
}

// Main parses the GUI command line (files and flags such as --snapshot),
// opens the windows and runs the application; it returns the exit status.
func Main(a fyne.App, args []string) int {
	o, err := ParseArgs(args)
	if o.Help {
		fmt.Println(usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "cubeview: %v\n%s\n", err, usage)
		return 2
	}
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
func (a *App) Snapshot(o Options, stderr io.Writer) int {
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
	watchdog := time.AfterFunc(snapshotTimeout, func() {
		fmt.Fprintf(stderr, "cubeview: snapshot of %s not done after %v\n", o.Snapshot, snapshotTimeout)
		os.Exit(1)
	})
	defer watchdog.Stop()
	file := ""
	if len(o.Files) > 0 {
		file = o.Files[0]
	} else if o.Calc == "" {
		files, err := view.WriteExample()
		if err != nil {
			fmt.Fprintf(stderr, "cubeview: %v\n", err)
			return 1
		}
		file = files.Before
	}
	w := a.newWindow()
	w.win.Resize(fyne.NewSize(float32(o.Width), float32(o.Height)))
	w.win.Show()
	capture := func() {
		go func() {
			// Give the driver a few frames to lay out and paint.
			time.Sleep(snapshotDelay())
			var img image.Image
			var err error
			fyne.DoAndWait(func() { img, err = captureWindow(w.win) })
			if err == nil {
				err = writePNG(o.Snapshot, img)
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
			w.whenReady(func() { w.whenSourceIdle(capture) })
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

// systemModeNames lists the system pane's modes as --system-mode takes them.
func systemModeNames() string {
	var names []string
	for _, m := range view.Modes(view.SystemPane) {
		names = append(names, strings.ReplaceAll(strings.ToLower(m.String()), " ", "-"))
	}
	return strings.Join(names, ", ")
}

// apply carries out the snapshot options on a window showing an experiment.
func (w *Window) apply(o Options) error {
	v := w.view
	e := v.Experiment()
	if o.Flat {
		w.SetFlat(true)
	}
	if o.SelectMetric != "" {
		m := e.MetricByName(o.SelectMetric)
		if m < 0 {
			return fmt.Errorf("--select-metric: no metric %q in %s", o.SelectMetric, w.doc.Name)
		}
		n := view.Node{Kind: view.MetricNode, Index: m}
		for _, a := range v.Ancestors(view.MetricPane, n) {
			v.SetExpanded(view.MetricPane, a, true)
		}
		v.Select(view.MetricPane, n)
		w.panes[view.MetricPane].Sync()
	}
	if o.SelectCnode != "" {
		c := e.CnodeByPath(o.SelectCnode)
		if c < 0 {
			return fmt.Errorf("--select-cnode: no call path %q in %s", o.SelectCnode, w.doc.Name)
		}
		n := view.Node{Kind: view.CnodeNode, Index: c}
		if o.Flat {
			n = view.Node{Kind: view.RegionNode, Index: e.Cnodes[c].Region}
		}
		for _, a := range v.Ancestors(view.CallPane, n) {
			v.SetExpanded(view.CallPane, a, true)
		}
		v.Select(view.CallPane, n)
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
		for _, r := range v.Roots(view.SystemPane) {
			w.expandSubtree(view.SystemPane, r, true)
		}
	}
	if o.Source {
		w.ShowSource(true)
	}
	return nil
}

// writePNG writes the snapshot through a temporary file, so that an
// interrupted write leaves neither a half-written image nor the temporary
// file (internal/atomicfile).
func writePNG(path string, img image.Image) error {
	if img == nil {
		return errors.New("snapshot: the window could not be captured")
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	return nil
}

const snapshotTimeout = 2 * time.Minute

func snapshotDelay() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("CUBEVIEW_SNAPSHOT_DELAY")); err == nil {
		return d
	}
	return 1500 * time.Millisecond
}

// captureWindow captures the window's canvas. Where the OpenGL driver
// cannot read its front buffer back (it then yields a uniform image, as
// with software OpenGL under Xvfb), the pixels come from the window system.
func captureWindow(w fyne.Window) (image.Image, error) {
	img := w.Canvas().Capture()
	if img != nil && !uniform(img) {
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

// uniform reports whether every pixel of img has the same colour.
func uniform(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	first := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, a0 := first.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bb != b0 || a != a0 {
				return false
			}
		}
	}
	return true
}
