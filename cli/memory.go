package cli

import (
	"fmt"
	"os"
	"strings"

	"cubeview/model"
)

// MemoryEnv names the environment variable that sets the memory budget
// when no --mem flag does.
const MemoryEnv = "CUBEVIEW_MEM"

// TakeMemoryFlag removes a --mem SIZE (or --mem=SIZE) option from args,
// wherever it stands before a "--", and sets model.MemoryBudget from it or
// from $CUBEVIEW_MEM. A metric whose data exceed the budget is read from
// its file row by row instead of being loaded (default: model.DefaultBudgetRule).
func TakeMemoryFlag(args []string) ([]string, error) {
	value, from := os.Getenv(MemoryEnv), "$"+MemoryEnv
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if name != "--mem" && name != "-mem" {
			out = append(out, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag --mem needs a size, e.g. --mem 512M")
			}
			i++
			val = args[i]
		}
		value, from = val, "--mem"
	}
	if value == "" {
		return out, nil
	}
	n, err := model.ParseSize(value)
	if err != nil || n == 0 {
		return nil, fmt.Errorf("%s: %q is not a memory size (examples: 512M, 2G)", from, value)
	}
	model.SetMemoryBudget(n)
	return out, nil
}
