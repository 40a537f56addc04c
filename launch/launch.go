package launch

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/format"
	"cubeview/internal/flagargs"
	"cubeview/view"
)

// Args holds the GUI's command-line arguments: the files to open and
// what a snapshot shows.
type Args struct {
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
	Cluster      int    // with --system-mode clusters: the cluster (1, 2, …) selected as a whole; 0 none
	Calc         string // algebra expression over files whose result opens (and is rendered)
	Repo         string // repository location (--repo); "" for $CUBEVIEW_REPO or the default
	Repository   bool   // open the repository window
	Help         bool
}

// Usage is the GUI's usage text.
var Usage = `Usage: cubeview [FILE…] [--calc EXPR] [--repo LOC] [--repository]
       cubeview --snapshot OUT.png [--size WxH] [--select-metric UNIQ_NAME]
                [--select-cnode CALL/PATH] [--expand-system] [--flat] [--hottest] [--source]
                [--system-mode MODE [--select-cluster N]]
                [FILE | --calc EXPR]

Opens each experiment FILE in its own window: a CUBE file (.cube,
.cube.gz, .cubex) or another tool's profile, file or folder (` + otherTools() + `;
see "cubeview help"); without a file, the bundled example (before and after). --calc EXPR opens
the result of an algebra expression over files in a window titled by the
expression, e.g. --calc 'diff(before.cubex, after.cubex)' (operators as in
"cubeview help calc"). With --snapshot the window of FILE, of EXPR's
result or of the example's "before" is rendered at the given size (default
1280x800) into OUT.png and cubeview exits; --system-mode sets the system
pane's value mode (peer-percent, peer-distribution, own-root-percent, …;
clusters clusters the locations by the selected metric, and
--select-cluster N selects cluster N as a whole, whose members' sum the
metric and call panes show). --repository opens the
experiment repository's window (File › Repository…); --repo LOC names the
repository (an SQLite file or a postgres:// URL) it and repo:ID references
read instead of $CUBEVIEW_REPO or the default.`

// otherTools lists the tools other than CUBE whose formats are read.
func otherTools() string {
	return strings.Join(slices.DeleteFunc(format.Tools(), func(t string) bool { return t == "CUBE" }), ", ")
}

// Parse parses the GUI command line. Flags and files may be mixed;
// "--" ends the flags.
func Parse(args []string) (Args, error) {
	o := Args{Width: 1280, Height: 800}
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
	fs.IntVar(&o.Cluster, "select-cluster", 0, "cluster selected as a whole in the snapshot")
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
	if m, _ := view.ParseMode(view.SystemPane, o.SystemMode); o.Cluster != 0 && (m != view.ClusterMode || o.Cluster < 0) {
		return o, errors.New("--select-cluster N needs --system-mode clusters and N ≥ 1")
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

// Select reveals and selects in v the metric (--select-metric) and the
// call path (--select-cnode; its region in the flat profile) o names;
// the error names the option and the experiment, name.
func (o Args) Select(v *view.View, name string) error {
	e := v.Experiment()
	if o.SelectMetric != "" {
		m := e.MetricByName(o.SelectMetric)
		if m < 0 {
			return fmt.Errorf("--select-metric: no metric %q in %s", o.SelectMetric, name)
		}
		v.Reveal(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
	}
	if o.SelectCnode != "" {
		c := e.CnodeByPath(o.SelectCnode)
		if c < 0 {
			return fmt.Errorf("--select-cnode: no call path %q in %s", o.SelectCnode, name)
		}
		n := view.Node{Kind: view.CnodeNode, Index: c}
		if v.Flat() {
			n = view.Node{Kind: view.RegionNode, Index: e.Cnodes[c].Region}
		}
		v.Reveal(view.CallPane, n)
	}
	return nil
}

// SnapshotFile returns the file a snapshot shows: the file named, else,
// without --calc, the bundled example's "before" (written out first);
// "" for the result of --calc.
func (o Args) SnapshotFile() (string, error) {
	switch {
	case len(o.Files) > 0:
		return o.Files[0], nil
	case o.Calc != "":
		return "", nil
	}
	files, err := view.WriteExample()
	return files.Before, err
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

// systemModeNames lists the system pane's modes as --system-mode takes them.
func systemModeNames() string {
	var names []string
	for _, m := range view.Modes(view.SystemPane) {
		names = append(names, strings.ReplaceAll(strings.ToLower(m.String()), " ", "-"))
	}
	return strings.Join(names, ", ")
}
