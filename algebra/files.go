package algebra

import (
	"os"
	"strings"

	"cubeview/model"
)

// OperandFiles returns the files and folders a derived experiment was
// computed from, as its provenance records them: its operands' and, for
// derived operands, theirs, each once, in record order. A folder operand
// (a TAU profile directory) is listed while its path exists. Nil for an original.
func OperandFiles(e *model.Experiment) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range e.Attrs {
		if !strings.HasPrefix(a.Key, AttrOperand) {
			continue
		}
		o, err := parseOperand(a.Value)
		if err != nil {
			continue
		}
		p := o.Path
		if o.Directory {
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				continue
			}
		}
		if p == "" {
			// Recorded before folders had records of their own.
			if fi, err := os.Stat(o.Expression); err != nil || !fi.IsDir() {
				continue
			}
			p = o.Expression
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
