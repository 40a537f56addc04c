package cli

import (
	"os"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

func TestSuggest(t *testing.T) {
	commands := []string{"convert", "cut", "diff", "dump", "flat", "info", "mean", "merge", "tree"}
	many := []string{"time", "time_a", "time_b", "time_c", "time_d", "time_e", "time_f", "visits"}
	tests := []struct {
		word       string
		candidates []string
		want       []string
	}{
		{"infor", commands, []string{"info"}},
		{"INFO", commands, []string{"info"}},
		{"dif", commands, []string{"diff"}},
		{"mer", commands, []string{"merge"}},
		{"frobnicate", commands, nil},
		{"x", commands, nil},
		{"tim", many, []string{"time", "time_a", "time_b", "time_c", "time_d"}}, // at most five
		{"vists", many, []string{"visits"}},
	}
	for _, tt := range tests {
		if got := suggest(tt.word, tt.candidates); !slices.Equal(got, tt.want) {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestUnknownCommandSuggests(t *testing.T) {
	status, out, errOut := run("infor", "x.cubex")
	if status != 2 || out != "" {
		t.Errorf("status %d, stdout %q; want 2 and nothing", status, out)
	}
	if !strings.Contains(errOut, `unknown command "infor"; did you mean info?`) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q; want one line suggesting info", errOut)
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "--version"} {
		status, out, errOut := run(arg)
		if status != 0 || errOut != "" || !strings.HasPrefix(out, "cubeview "+Version+" (") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", arg, status, out, errOut)
		}
	}
	if status, _, _ := run("version", "extra"); status != 2 {
		t.Errorf("version extra: status %d, want 2", status)
	}
}

func TestIsMistypedCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("existing", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		word string
		want bool
	}{
		{"infor", true},
		{"frobnicate", true},
		{"info", false},          // a command
		{"--version", false},     // a command's alias
		{"existing", false},      // a file
		{"missing.cubex", false}, // looks like a file
		{"sub/missing", false},
		{"repo:17", false}, // a reference
		{"--calc", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsMistypedCommand(tt.word); got != tt.want {
			t.Errorf("IsMistypedCommand(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

// TestMetricNames: --metric takes a unique or display name in any case;
// a wrong one gets at most five suggestions, never the whole list.
func TestMetricNames(t *testing.T) {
	path := testkit.Data(t, "cube3", "ctest-pomp.cube") // 47 metrics
	e, err := openExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, uniq string }{
		{"0Time", "0Time"},
		{"0time", "0Time"},
		{"time", "0Time"}, // display name
		{"LATE BROADCAST", "6Late Broadcast"},
	} {
		m, err := metricIndex(e, path, tt.name)
		if err != nil || e.Metrics[m].UniqName != tt.uniq {
			t.Errorf("metric %q: %v, %v; want %s", tt.name, m, err, tt.uniq)
		}
		status, out, errOut := run("tree", path, "--metric", tt.name, "--max-depth", "0")
		if status != 0 || !strings.Contains(out, "["+tt.uniq+"]") {
			t.Errorf("tree --metric %q: status %d %s%s", tt.name, status, out, errOut)
		}
	}
	_, err = metricIndex(e, path, "messages in wrong order")
	if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), "10Messages in Wrong Order, 12Messages in Wrong Order") {
		t.Errorf("a display name two metrics share: %v", err)
	}
	for _, tt := range []struct {
		name        string
		suggestions bool
	}{{"Late Sendr", true}, {"Wait", true}, {"zzzzzz", false}} {
		_, err := metricIndex(e, path, tt.name)
		if err == nil {
			t.Fatalf("metric %q found", tt.name)
		}
		msg := err.Error()
		if has := strings.Contains(msg, "did you mean"); has != tt.suggestions {
			t.Errorf("metric %q: %s; want suggestions %v", tt.name, msg, tt.suggestions)
		}
		named := 0
		for i := range e.Metrics {
			if strings.Contains(msg, e.Metrics[i].UniqName) {
				named++
			}
		}
		if named > maxSuggestions {
			t.Errorf("metric %q: the message names %d metrics, want at most %d: %s", tt.name, named, maxSuggestions, msg)
		}
	}
}
