package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/model"
)

// TestOperatorsFailOnInputTruncatedWhileRunning: diff, merge and mean
// read a metric larger than the memory budget row by row while writing;
// an input that turns out truncated then fails the command with a
// message naming the input and its member, and no output is left.
func TestOperatorsFailOnInputTruncatedWhileRunning(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i, seed := range []uint64{1, 2} {
		e := synth.Generate(synth.Config{Cnodes: 300, Locations: 32, Threads: 4, Nodes: 2, Metrics: 2, Flat: true, Seed: seed})
		p := filepath.Join(dir, []string{"a.cubex", "b.cubex"}[i])
		if err := format.Write(p, e); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	model.SetMemoryBudget(1)
	defer model.SetMemoryBudget(0)
	defer func(old func(string, format.Options) (*model.Experiment, error)) { openExperimentWith = old }(openExperimentWith)
	for _, op := range []string{"diff", "merge", "mean"} {
		for victim := range inputs {
			damaged := filepath.Join(dir, "damaged.cubex")
			data, err := os.ReadFile(inputs[victim])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(damaged, data, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{inputs[0], inputs[1]}
			args[victim] = damaged
			openExperimentWith = func(path string, opts format.Options) (*model.Experiment, error) {
				e, err := format.OpenWith(path, opts)
				if err != nil || path != damaged {
					return e, err
				}
				for m := range e.Metrics { // each metric's index is read now
					if _, err := e.Block(m); err != nil {
						return nil, err
					}
				}
				return e, os.Truncate(path, int64(len(data))/2)
			}
			out := filepath.Join(dir, "out.cubex")
			status, stdout, stderr := run(append([]string{op}, append(args, "-o", out)...)...)
			if op == "merge" && victim == 1 {
				// merge takes every metric from the first operand: the
				// second one's rows are never read.
				if status != 0 {
					t.Errorf("merge with the second operand damaged: status %d: %s", status, stderr)
				}
				os.Remove(out)
				continue
			}
			if status != 1 {
				t.Errorf("%s with operand %d truncated: status %d, want 1\n%s%s", op, victim+1, status, stdout, stderr)
			}
			if !strings.Contains(stderr, "damaged.cubex") || !strings.Contains(stderr, ".data") {
				t.Errorf("%s: the message does not name the damaged input and its member: %s", op, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: the output was left behind", op)
				os.Remove(out)
			}
			entries, _ := os.ReadDir(dir)
			for _, ent := range entries {
				if strings.HasSuffix(ent.Name(), ".tmp") {
					t.Errorf("%s: temporary file %s left behind", op, ent.Name())
				}
			}
		}
	}
}
