package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/internal/testkit"
	"cubeview/numfmt"
)

func TestAlgebraHelp(t *testing.T) {
	_, out, _ := run("help")
	for _, name := range []string{"diff", "merge", "mean", "cut", "calc"} {
		if !strings.Contains(out, "\n  "+name+" ") {
			t.Errorf("help does not list %q", name)
		}
		status, usage, _ := run("help", name)
		if status != 0 || !strings.HasPrefix(usage, "usage: cubeview "+name) {
			t.Errorf("help %s: status %d, %q", name, status, usage)
		}
	}
}

func TestAlgebraUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		want   string // in stderr
	}{
		{[]string{"diff", "-o", "x.cubex"}, 2, "no operands"},
		{[]string{"merge", "-o", "x.cubex"}, 2, "no operands"},
		{[]string{"mean"}, 2, "no operands"},
		{[]string{"diff", "a.cubex", "-o", "x.cubex"}, 2, "want 2 operands, got 1"},
		{[]string{"diff", "a", "b", "c", "-o", "x.cubex"}, 2, "want 2 operands, got 3"},
		{[]string{"merge", "a.cubex", "-o", "x.cubex"}, 2, "want 2 to 64 operands, got 1"},
		{[]string{"merge", "a.cubex", "b.cubex"}, 2, "no output file: give -o OUT"},
		{[]string{"diff", "a.cubex", "b.cubex", "--top", "-2"}, 2, "--top -2"},
		{[]string{"diff", "a.cubex", "b.cubex", "-o", "x.txt"}, 2, "x.txt: unknown output format"},
		{[]string{"mean", "a", "b", "-o", "x.cube", "--copy-system", "--collapse-system"}, 2, "exclude each other"},
		{[]string{"cut", "a.cubex", "-o", "x.cubex"}, 2, "at least one --reroot NAME or --prune NAME"},
		{[]string{"cut", "--prune", "foo", "-o", "x.cubex"}, 2, "want one input file, got 0"},
		{[]string{"calc", "-o", "x.cubex"}, 2, "want one EXPR"},
		{[]string{"calc", "diff(a.cubex b.cubex)", "-o", "x.cubex"}, 1, "expression column 14: want \",\" or \")\""},
		{[]string{"calc", "a.cubex", "-o", "x.cubex"}, 1, "is a file, not an operation"},
		{[]string{"diff", "nonexistent-a.cubex", "b.cubex", "-o", "x.cubex"}, 1, "nonexistent-a.cubex"},
		{[]string{"calc", "mean(nonexistent-c.cube, b)", "-o", "x.cube"}, 1, "nonexistent-c.cube"},
	}
	for _, tt := range tests {
		status, _, errOut := run(tt.args...)
		if status != tt.status {
			t.Errorf("%v: status %d, want %d (stderr %q)", tt.args, status, tt.status, errOut)
		}
		if !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: stderr %q does not contain %q", tt.args, errOut, tt.want)
		}
	}
}

// writeXML writes a small CUBE 3 experiment: main calling foo on two
// processes, with the given time values (main's, then foo's, per process)
// and the given machine/node names.
func writeXML(t *testing.T, dir, name, unit string, node0, node1 string, vals [4]float64) string {
	t.Helper()
	x := `<?xml version="1.0" encoding="UTF-8"?>
<cube version="3.0">
<metrics>
  <metric id="0"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>FLOAT</dtype><uom>` + unit + `</uom></metric>
</metrics>
<program>
  <region id="0" mod="m.c" begin="1" end="9"><name>main</name></region>
  <region id="1" mod="m.c" begin="10" end="19"><name>foo</name></region>
  <cnode id="0" calleeId="0"><cnode id="1" calleeId="1" line="5" mod="m.c"/></cnode>
</program>
<system>
  <machine Id="0"><name>cluster</name>
    <node Id="0"><name>` + node0 + `</name><process Id="0"><name>p0</name><rank>0</rank><thread Id="0"><name>t0</name><rank>0</rank></thread></process></node>
    <node Id="1"><name>` + node1 + `</name><process Id="1"><name>p1</name><rank>1</rank><thread Id="1"><name>t0</name><rank>0</rank></thread></process></node>
  </machine>
</system>
<severity>
  <matrix metricId="0">
    <row cnodeId="0">` + ftoa(vals[0]) + ` ` + ftoa(vals[1]) + `</row>
    <row cnodeId="1">` + ftoa(vals[2]) + ` ` + ftoa(vals[3]) + `</row>
  </matrix>
</severity>
</cube>
`
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(x), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func ftoa(v float64) string { return strings.TrimSpace(numfmt.RoundTrip().Format(v, false)) }

// TestAlgebraCommands runs every operator on small CUBE 3 files with
// different node names and checks the written results with dump.
func TestAlgebraCommands(t *testing.T) {
	dir := t.TempDir()
	a := writeXML(t, dir, "a.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20})
	b := writeXML(t, dir, "b.cube", "sec", "x7", "x9", [4]float64{0.5, 1, 4, 8})
	bad := writeXML(t, dir, "bad.cube", "usec", "n0", "n1", [4]float64{1, 1, 1, 1})
	tests := []struct {
		args []string
		want string // excl dump rows "cnode,location,time"
	}{
		{[]string{"diff", a, b}, "0,0,0.5\n0,1,1\n1,0,6\n1,1,12"},
		{[]string{"mean", a, b, b}, "0,0,0.6666666666666666\n0,1,1.3333333333333333\n1,0,6\n1,1,12"},
		{[]string{"merge", b, a}, "0,0,0.5\n0,1,1\n1,0,4\n1,1,8"},
		{[]string{"calc", "diff(" + a + ", mean(" + a + "," + a + "))"}, ""},
		{[]string{"cut", "--prune", "foo", a}, "0,0,11\n0,1,22"},
		{[]string{"cut", "--reroot", "foo", a}, "0,0,10\n0,1,20"},
	}
	for i, tt := range tests {
		for _, ext := range []string{".cubex", ".cube"} {
			out := filepath.Join(dir, "out"+string(rune('a'+i))+ext)
			status, stdout, stderr := run(append(tt.args, "-o", out)...)
			if status != 0 {
				t.Errorf("%v: status %d, stderr %q", tt.args, status, stderr)
				continue
			}
			if !strings.Contains(stdout, "wrote "+out) {
				t.Errorf("%v: stdout %q", tt.args, stdout)
			}
			status, dump, stderr := run("dump", "--excl", out)
			if status != 0 {
				t.Errorf("dump %s: %s", out, stderr)
				continue
			}
			var rows []string
			for _, l := range strings.Split(strings.TrimSpace(dump), "\n")[1:] {
				if !strings.HasSuffix(l, ",0") {
					rows = append(rows, l)
				}
			}
			if got := strings.Join(rows, "\n"); got != tt.want {
				t.Errorf("%v → %s: dump rows\n%s\nwant\n%s", tt.args, ext, got, tt.want)
			}
			op := tt.args[0] + "("
			if tt.args[0] == "calc" {
				x, err := algebra.Parse(tt.args[1])
				if err != nil {
					t.Fatal(err)
				}
				op = x.String()
			}
			_, info, _ := run("info", out)
			if !strings.Contains(info, "cubeview::expression = "+op) {
				t.Errorf("info of %s does not show the expression:\n%s", out, info)
			}
		}
	}
	status, _, stderr := run("diff", a, bad, "-o", filepath.Join(dir, "x.cubex"))
	if status != 1 || !strings.Contains(stderr, `metric "time"`) || !strings.Contains(stderr, "usec") {
		t.Errorf("diff with different units: status %d, stderr %q", status, stderr)
	}
}

// readDump runs dump on path and returns its values by (cnode id, thread
// id) and metric, as printed.
func readDump(t *testing.T, args ...string) (metrics []string, rows map[string]map[string]string) {
	t.Helper()
	status, out, stderr := run(append([]string{"dump"}, args...)...)
	if status != 0 {
		t.Fatalf("dump %v: %s", args, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	header := strings.Split(lines[0], ",")
	metrics = header[2:]
	rows = map[string]map[string]string{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		r := map[string]string{}
		for i, m := range metrics {
			r[m] = f[2+i]
		}
		rows[f[0]+","+f[1]] = r
	}
	return metrics, rows
}

// TestMergeHWCounters merges two runs with different counter sets and
// checks with dump that every metric has, value by value, the values of
// the file it came from (both files and the result number cnodes and
// threads alike).
func TestMergeHWCounters(t *testing.T) {
	dir := filepath.Join(testkit.DataDir(t), "cube4", "hw_counter")
	l2, l3 := filepath.Join(dir, "L2_DCM_negative.cubex"), filepath.Join(dir, "L3_DCA_negative.cubex")
	out := filepath.Join(t.TempDir(), "merged.cubex")
	if status, _, stderr := run("merge", l2, l3, "-o", out); status != 0 {
		t.Fatalf("merge: %s", stderr)
	}
	for _, mode := range []string{"--incl", "--excl"} {
		m2, d2 := readDump(t, l2, mode)
		m3, d3 := readDump(t, l3, mode)
		mm, dm := readDump(t, out, mode)
		union := map[string]bool{}
		for _, m := range append(m2, m3...) {
			union[m] = true
		}
		if len(mm) != len(union) {
			t.Errorf("%s: merged metrics %v, want the union of %v and %v", mode, mm, m2, m3)
		}
		if len(dm) != len(d2) || len(dm) != len(d3) {
			t.Fatalf("%s: %d rows, the operands have %d and %d", mode, len(dm), len(d2), len(d3))
		}
		bad, n := 0, 0
		for _, m := range mm {
			src, name := d2, "L2"
			if !slices.Contains(m2, m) {
				src, name = d3, "L3"
			}
			for k, row := range dm {
				n++
				if want := src[k][m]; row[m] != want {
					if bad < 5 {
						t.Errorf("%s: metric %s at %s: %s, %s has %s", mode, m, k, row[m], name, want)
					}
					bad++
				}
			}
		}
		if bad > 0 || n < 600000 {
			t.Errorf("%s: %d of %d values differ", mode, bad, n)
		}
	}
}

// TestDiffLulesh diffs runs on 27 and 64 processes from the command line:
// by default the 64-process run's machine and nodes are kept, with
// --collapse-system one virtual machine and node.
func TestDiffLulesh(t *testing.T) {
	dir := filepath.Join(testkit.DataDir(t), "cube4", "lulesh")
	a, b := filepath.Join(dir, "lulesh.p27.size25.r1.cubex"), filepath.Join(dir, "lulesh.p64.size25.r1.cubex")
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{nil, "system tree copied from operand 1"},
		{[]string{"--collapse-system"}, "system tree collapsed: as requested"},
	} {
		out := filepath.Join(t.TempDir(), "d.cube")
		status, stdout, stderr := run(append([]string{"diff", a, b, "-o", out}, tc.flags...)...)
		if status != 0 {
			t.Fatalf("diff %v: %s", tc.flags, stderr)
		}
		if !strings.Contains(stdout, tc.want) || !strings.Contains(stdout, "37 of 64 locations") {
			t.Errorf("diff %v: output %q", tc.flags, stdout)
		}
		status, info, _ := run("info", out)
		if status != 0 || !strings.Contains(info, "Processes:  64") || !strings.Contains(info, "cubeview::expression = diff(") {
			t.Errorf("info of the diff:\n%s", info)
		}
	}
}
