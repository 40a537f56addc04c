package analysisview

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/view"
)

// annotateTree is one function of callgrind_annotate --tree=both: its
// label, inclusive cost per event, and its callers' and callees' lines
// ("label calls cost…", as printed).
type annotateTree struct {
	label            string
	inclusive        []string
	callers, callees []string
}

var annotateCalls = regexp.MustCompile(` \(([\d,]+)x\)`)

// readAnnotateTree runs callgrind_annotate --tree=both --inclusive=yes on
// path and returns its events and functions.
func readAnnotateTree(t *testing.T, path string) (events []string, funcs []annotateTree) {
	t.Helper()
	tool, err := exec.LookPath("callgrind_annotate")
	if err != nil {
		t.Skip("callgrind_annotate not installed (Debian package valgrind; make test installs it)")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "--tree=both", "--inclusive=yes", "--threshold=100", "--show-percs=no", "--auto=no", abs)
	cmd.Dir = t.TempDir() // it strips the working directory from file names
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("callgrind_annotate %s: %v", path, err)
	}
	in := false
	var cur *annotateTree
	var pending []string // caller lines before the function's own line
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasSuffix(line, " file:function") {
			events = strings.Fields(strings.TrimSuffix(line, " file:function"))
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "----") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			cur, pending = nil, nil
			continue
		}
		f := strings.Fields(line)
		if len(f) < len(events)+2 {
			t.Fatalf("callgrind_annotate line %q", line)
		}
		costs := make([]string, len(events))
		for i, c := range f[:len(events)] {
			if c == "." {
				c = "0"
			}
			costs[i] = strings.ReplaceAll(c, ",", "")
		}
		mark := f[len(events)]
		rest := strings.TrimSpace(strings.SplitN(line, " "+mark+" ", 2)[1])
		calls := "-1"
		if m := annotateCalls.FindStringSubmatch(rest); m != nil {
			calls = strings.ReplaceAll(m[1], ",", "")
			rest = strings.Replace(rest, m[0], "", 1)
		}
		entry := rest + " " + calls + " " + strings.Join(costs, " ")
		switch mark {
		case "*":
			funcs = append(funcs, annotateTree{label: rest, inclusive: costs, callers: pending})
			cur = &funcs[len(funcs)-1]
		case "<":
			pending = append(pending, entry)
		case ">":
			if cur == nil {
				t.Fatalf("callee line before its function: %q", line)
			}
			cur.callees = append(cur.callees, entry)
		default:
			t.Fatalf("callgrind_annotate line %q", line)
		}
	}
	return events, funcs
}

// annotateLabel is callgrind_annotate's name of region r: "file:function"
// and " [object]" when the function has one.
func annotateLabel(e *model.Experiment, r int) string {
	reg := &e.Regions[r]
	label := reg.Module + ":" + reg.Name
	for _, a := range reg.Attrs {
		// An object used before it is named is "(object N)" to the
		// importer and unnamed to callgrind_annotate.
		if a.Key == "object" && !strings.HasPrefix(a.Value, "(object ") {
			label += " [" + a.Value + "]"
		}
	}
	return label
}

// TestCallGraphEqualsCallgrindAnnotate selects every function of the real
// callgrind files and checks the callers and callees the view lists, with
// their calls and inclusive costs of every event, and the function's
// inclusive cost, against callgrind_annotate --tree=both.
func TestCallGraphEqualsCallgrindAnnotate(t *testing.T) {
	// The hand-made file of the importer's tests has several events, two
	// parts, recursion and inlined files.
	for _, name := range []string{"bool.callgrind", "issue35.callgrind", "selinux.callgrind", "handmade.callgrind"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "format", "callgrind", "testdata", name)
			if name != "handmade.callgrind" {
				path = testkit.Data(t, "callgrind", name)
			}
			events, funcs := readAnnotateTree(t, path)
			e, err := format.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			byLabel := map[string]int{}
			for r := range e.Regions {
				byLabel[annotateLabel(e, r)] = r
			}
			v := view.NewView(e)
			if !view.HasCallGraph(v.Experiment()) || !view.PrefersFlat(e) {
				t.Fatal("a callgrind experiment should have a call graph and open as a flat profile")
			}
			v.SetFlat(true)
			metrics := make([]int, len(events))
			for i, ev := range events {
				if metrics[i] = e.MetricByName(ev); metrics[i] < 0 {
					t.Fatalf("no metric %s", ev)
				}
			}
			lines := func(rows [][]CallGraphRow) []string {
				var out []string
				for k := range rows[0] {
					s := rows[0][k].Label
					if rows[0][k].Region >= 0 {
						s = annotateLabel(e, rows[0][k].Region)
					}
					s += " " + strconv.FormatInt(rows[0][k].Calls, 10)
					for i := range events {
						s += " " + strconv.FormatFloat(rows[i][k].Value, 'f', -1, 64)
					}
					out = append(out, s)
				}
				slices.Sort(out)
				return out
			}
			if len(funcs) < 4 {
				t.Fatalf("only %d functions in callgrind_annotate's tree", len(funcs))
			}
			for _, fn := range funcs {
				r, ok := byLabel[fn.label]
				if !ok {
					t.Errorf("no region for %q", fn.label)
					continue
				}
				v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: r})
				var callers, callees [][]CallGraphRow
				for i, m := range metrics {
					v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
					if err := v.Update(); err != nil {
						t.Fatal(err)
					}
					rep := new(CallGraph).Report(v)
					// One order for every event: by label and calls.
					for _, rows := range [][]CallGraphRow{rep.Callers, rep.Callees} {
						slices.SortStableFunc(rows, func(a, b CallGraphRow) int {
							return strings.Compare(fmt.Sprint(a.Region, a.Calls), fmt.Sprint(b.Region, b.Calls))
						})
					}
					callers, callees = append(callers, rep.Callers), append(callees, rep.Callees)
					if got := strconv.FormatFloat(v.Values().Inclusive(view.CallPane, view.Node{Kind: view.RegionNode, Index: r}), 'f', -1, 64); got != fn.inclusive[i] {
						t.Errorf("%s %s: inclusive %s, callgrind_annotate %s", fn.label, events[i], got, fn.inclusive[i])
					}
				}
				want := slices.Clone(fn.callers)
				slices.Sort(want)
				if got := lines(callers); !slices.Equal(got, want) {
					t.Errorf("callers of %s:\n got %q\nwant %q", fn.label, got, want)
				}
				want = slices.Clone(fn.callees)
				slices.Sort(want)
				if got := lines(callees); !slices.Equal(got, want) {
					t.Errorf("callees of %s:\n got %q\nwant %q", fn.label, got, want)
				}
			}
		})
	}
}
