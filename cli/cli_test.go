package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/model"
)

// run calls Main with args and returns the exit status and both outputs.
func run(args ...string) (status int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	status = Main(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return status, out.String(), errOut.String()
}

func TestHelpListsCommands(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		status, out, _ := run(args...)
		if status != 0 {
			t.Errorf("%v: status %d, want 0", args, status)
		}
		for _, name := range []string{"info", "dump", "tree", "convert"} {
			if !strings.Contains(out, "\n  "+name+" ") {
				t.Errorf("%v: output does not list %q:\n%s", args, name, out)
			}
		}
	}
}

func TestCommandHelp(t *testing.T) {
	for _, name := range []string{"info", "dump", "tree", "convert"} {
		for _, args := range [][]string{{"help", name}, {name, "-h"}, {name, "--help"}} {
			status, out, errOut := run(args...)
			if status != 0 || !strings.HasPrefix(out, "usage: cubeview "+name) || errOut != "" {
				t.Errorf("%v: status %d, stdout %q, stderr %q; want 0 and the usage on stdout", args, status, out, errOut)
			}
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"nosuchcommand"}, `unknown command "nosuchcommand"`},
		{[]string{"info"}, "want exactly one FILE"},
		{[]string{"info", "a.cubex", "b.cubex"}, "want exactly one FILE"},
		{[]string{"info", "--bogus", "a.cubex"}, "flag provided but not defined: -bogus"},
		{[]string{"dump"}, "want exactly one FILE"},
		{[]string{"dump", "a.cubex", "--incl", "--excl"}, "exclude each other"},
		{[]string{"dump", "a.cubex", "--metric"}, "flag needs an argument"},
		{[]string{"tree", "a.cubex", "--max-depth", "x"}, "invalid value"},
		{[]string{"tree"}, "want exactly one FILE"},
		{[]string{"convert", "a.cubex"}, "want IN and OUT"},
		{[]string{"convert", "a.cubex", "b.txt"}, "b.txt: unknown output format"},
	}
	for _, tt := range tests {
		status, out, errOut := run(tt.args...)
		if status != 2 {
			t.Errorf("%v: status %d, want 2", tt.args, status)
		}
		if !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: stderr %q does not contain %q", tt.args, errOut, tt.want)
		}
		if out != "" {
			t.Errorf("%v: unexpected stdout %q", tt.args, out)
		}
	}
}

func TestMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-file.cubex")
	out := filepath.Join(t.TempDir(), "out.cube")
	for _, args := range [][]string{
		{"info", missing},
		{"dump", missing},
		{"dump", "--incl", missing},
		{"tree", "--metric", "time", missing},
		{"convert", missing, out},
	} {
		status, stdout, stderr := run(args...)
		if status != 1 {
			t.Errorf("%v: status %d, want 1", args, status)
		}
		if !strings.Contains(stderr, missing) {
			t.Errorf("%v: stderr %q does not name the file", args, stderr)
		}
		if stdout != "" {
			t.Errorf("%v: unexpected stdout %q", args, stdout)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("convert of a missing file created %s", out)
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args    []string
		pos     []string
		incl    bool
		metrics []string
		depth   int
	}{
		{nil, nil, false, nil, -1},
		{[]string{"f"}, []string{"f"}, false, nil, -1},
		{[]string{"--incl", "f"}, []string{"f"}, true, nil, -1},
		{[]string{"f", "--incl"}, []string{"f"}, true, nil, -1},
		{[]string{"-metric", "a", "f", "--metric=b", "g"}, []string{"f", "g"}, false, []string{"a", "b"}, -1},
		{[]string{"f", "--depth", "3"}, []string{"f"}, false, nil, 3},
		{[]string{"--", "--incl"}, []string{"--incl"}, false, nil, -1},
		{[]string{"f", "--", "-x", "--incl"}, []string{"f", "-x", "--incl"}, false, nil, -1},
	}
	for _, tt := range tests {
		fs := newFlagSet("test")
		incl := fs.Bool("incl", false, "")
		var metrics stringList
		fs.Var(&metrics, "metric", "")
		depth := fs.Int("depth", -1, "")
		pos, err := parseArgs(fs, tt.args)
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tt.args, err)
			continue
		}
		if !slices.Equal(pos, tt.pos) || *incl != tt.incl || !slices.Equal(metrics, tt.metrics) || *depth != tt.depth {
			t.Errorf("parseArgs(%q) = %q incl=%v metrics=%q depth=%d, want %q %v %q %d",
				tt.args, pos, *incl, metrics, *depth, tt.pos, tt.incl, tt.metrics, tt.depth)
		}
	}
	fs := newFlagSet("test")
	if _, err := parseArgs(fs, []string{"-h"}); err != flag.ErrHelp {
		t.Errorf("parseArgs(-h) error = %v, want flag.ErrHelp", err)
	}
}

func TestTakeMemoryFlag(t *testing.T) {
	defer model.SetMemoryBudget(0)
	t.Setenv(MemoryEnv, "")
	for _, tt := range []struct {
		args []string
		rest string
		want int64
	}{
		{[]string{"tree", "--mem", "512M", "f.cubex"}, "tree f.cubex", 512 << 20},
		{[]string{"--mem=2G", "f.cubex"}, "f.cubex", 2 << 30},
		{[]string{"diff", "a", "--", "--mem", "1G"}, "diff a -- --mem 1G", 0},
	} {
		model.SetMemoryBudget(0)
		def := model.MemoryBudget()
		rest, err := TakeMemoryFlag(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.want
		if want == 0 {
			want = def
		}
		if strings.Join(rest, " ") != tt.rest || model.MemoryBudget() != want {
			t.Errorf("%v: rest %q, budget %d; want %q, %d", tt.args, rest, model.MemoryBudget(), tt.rest, want)
		}
	}
	for _, bad := range [][]string{{"--mem"}, {"--mem", "lots"}, {"--mem=0"}} {
		if _, err := TakeMemoryFlag(bad); err == nil || !strings.Contains(err.Error(), "mem") {
			t.Errorf("%v: error %v", bad, err)
		}
	}
	t.Setenv(MemoryEnv, "64M")
	if _, err := TakeMemoryFlag([]string{"info", "f"}); err != nil || model.MemoryBudget() != 64<<20 {
		t.Errorf("$%s: budget %d, %v", MemoryEnv, model.MemoryBudget(), err)
	}
}
