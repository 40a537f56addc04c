package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeverOverwriteAnInput runs every writing command with an output that
// is one of its inputs — by the same name, through another path, a
// symbolic link and a hard link — and checks that it refuses and leaves
// the input exactly as it was; --force replaces it.
func TestNeverOverwriteAnInput(t *testing.T) {
	dir := t.TempDir()
	a := writeXML(t, dir, "a.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20})
	b := writeXML(t, dir, "b.cube", "sec", "n0", "n1", [4]float64{0.5, 1, 4, 8})
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "link.cube")
	hard := filepath.Join(dir, "hard.cube")
	if err := os.Symlink(a, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, hard); err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{
		"same name":     a,
		"another path":  filepath.Join(sub, "..", "a.cube"),
		"symbolic link": sym,
		"hard link":     hard,
	}
	commands := map[string]func(out string) []string{
		"diff":   func(out string) []string { return []string{"diff", a, b, "-o", out} },
		"diff B": func(out string) []string { return []string{"diff", b, a, "-o", out} },
		"merge":  func(out string) []string { return []string{"merge", b, a, "-o", out} },
		"mean":   func(out string) []string { return []string{"mean", a, b, "-o", out} },
		"cut":    func(out string) []string { return []string{"cut", "--prune", "foo", a, "-o", out} },
		"calc": func(out string) []string {
			return []string{"calc", "diff(" + b + ", mean(" + a + ", " + b + "))", "-o", out}
		},
		"convert": func(out string) []string { return []string{"convert", a, out} },
		"derive":  func(out string) []string { return []string{"derive", a, "t2 = time * 2", "-o", out} },
	}
	before, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	for cname, cmd := range commands {
		for oname, out := range outputs {
			status, stdout, stderr := run(cmd(out)...)
			if status != 1 || !strings.Contains(stderr, "same file as the input") || !strings.Contains(stderr, "--force") {
				t.Errorf("%s with the output as %s: status %d, stdout %q, stderr %q; want 1 and a refusal naming --force",
					cname, oname, status, stdout, stderr)
			}
			after, err := os.ReadFile(a)
			fi, _ := os.Stat(a)
			if err != nil || string(after) != string(before) || !fi.ModTime().Equal(old) {
				t.Fatalf("%s with the output as %s changed the input", cname, oname)
			}
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}

	// --force replaces the input.
	if status, _, stderr := run("diff", a, b, "-o", a, "--force"); status != 0 {
		t.Fatalf("diff --force: status %d: %s", status, stderr)
	}
	if _, info, _ := run("info", a); !strings.Contains(info, "cubeview::expression = diff(") {
		t.Errorf("after --force the input is not the difference:\n%s", info)
	}
}

func TestOutputIntoMissingFolder(t *testing.T) {
	dir := t.TempDir()
	a := writeXML(t, dir, "a.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20})
	out := filepath.Join(dir, "no", "such", "out.cubex")
	for _, args := range [][]string{
		{"diff", a, a, "-o", out},
		{"convert", a, out},
		{"derive", a, "t2 = time * 2", "-o", out},
		{"merge", a, a, "-o", out},
		{"mean", a, a, "-o", out},
		{"cut", "--prune", "foo", a, "-o", out},
		{"calc", "mean(" + a + "," + a + ")", "-o", out},
		{"stat", a, "--metric", "time", "-o", strings.TrimSuffix(out, ".cubex") + ".png"},
		{"series", a, a, "--x", "1,2", "--metric", "time", "-o", strings.TrimSuffix(out, ".cubex") + ".svg"},
		{"repo", "--repo", filepath.Join(dir, "r.db"), "export", "1", out},
	} {
		status, _, stderr := run(args...)
		if status != 1 || !strings.Contains(stderr, "the folder "+filepath.Join(dir, "no", "such")+" does not exist") {
			t.Errorf("%v: status %d, stderr %q; want 1 and the missing folder named", args[0], status, stderr)
		}
	}
}

// TestDiffMatchesRootsAndRenames: two builds whose roots (and a function)
// have different names; the summary says what was matched.
func TestDiffMatchesRootsAndRenames(t *testing.T) {
	dir := t.TempDir()
	a := writeXML(t, dir, "a.cube", "sec", "n0", "n1", [4]float64{1, 2, 10, 20})
	b := writeXML(t, dir, "b.cube", "sec", "n0", "n1", [4]float64{0.5, 1, 4, 8})
	data, _ := os.ReadFile(b)
	renamed := strings.Replace(strings.Replace(string(data), "<name>main</name>", "<name>app_optimized</name>", 1), "<name>foo</name>", "<name>foo_v2</name>", 1)
	if err := os.WriteFile(b, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "d.cube")
	tests := []struct {
		args    []string
		summary []string
		rows    string // excl dump rows that are not zero
	}{
		{nil, []string{`roots are matched whatever their names: "main"`, `"app_optimized"`, "--strict-roots", "not in every operand: 0 of 1 metrics, 2 of 3 call paths"},
			"0,0,0.5\n0,1,1\n1,0,10\n1,1,20\n2,0,-4\n2,1,-8"},
		{[]string{"--rename", "foo_v[0-9]=foo"}, []string{"roots are matched"},
			"0,0,0.5\n0,1,1\n1,0,6\n1,1,12"},
		{[]string{"--strict-roots"}, []string{"not in every operand: 0 of 1 metrics, 4 of 4 call paths"},
			"0,0,1\n0,1,2\n1,0,10\n1,1,20\n2,0,-0.5\n2,1,-1\n3,0,-4\n3,1,-8"},
	}
	for _, tt := range tests {
		args := append([]string{"diff", a, b, "-o", out, "--force"}, tt.args...)
		status, stdout, stderr := run(args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", tt.args, status, stderr)
		}
		for _, w := range tt.summary {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: summary %q lacks %q", tt.args, stdout, w)
			}
		}
		if len(tt.args) > 0 && tt.args[0] == "--strict-roots" && strings.Contains(stdout, "roots are matched") {
			t.Errorf("--strict-roots: summary %q says roots were matched", stdout)
		}
		_, dump, _ := run("dump", "--excl", out)
		var rows []string
		for _, l := range strings.Split(strings.TrimSpace(dump), "\n")[1:] {
			if !strings.HasSuffix(l, ",0") {
				rows = append(rows, l)
			}
		}
		if got := strings.Join(rows, "\n"); got != tt.rows {
			t.Errorf("%v: rows\n%s\nwant\n%s", tt.args, got, tt.rows)
		}
		if len(tt.args) > 0 && tt.args[0] == "--rename" {
			if _, info, _ := run("info", out); !strings.Contains(info, `rename=\"foo_v[0-9]=foo\"`) && !strings.Contains(info, `rename="foo_v[0-9]=foo"`) {
				t.Errorf("the rename rule is not recorded:\n%s", info)
			}
		}
	}
	if status, _, stderr := run("diff", a, b, "-o", out, "--force", "--rename", "foo("); status != 2 || !strings.Contains(stderr, "--rename") {
		t.Errorf("bad rule: status %d, stderr %q; want a usage error", status, stderr)
	}
}
