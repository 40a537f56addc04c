package algebra

import (
	"fmt"
	"strconv"
	"strings"
)

// SystemMode chooses how the machine/node hierarchy of a result is built.
type SystemMode uint8

const (
	// SystemAuto copies the hierarchy of an operand when the process
	// partitionings are compatible and collapses it otherwise.
	SystemAuto SystemMode = iota
	// SystemCopy always copies the hierarchy of an operand, even when the
	// partitionings are incompatible.
	SystemCopy
	// SystemCollapse always builds one machine with one node holding all
	// processes.
	SystemCollapse
)

// String returns "auto", "copy" or "collapse".
func (m SystemMode) String() string {
	switch m {
	case SystemCopy:
		return "copy"
	case SystemCollapse:
		return "collapse"
	}
	return "auto"
}

// Options control how operands are integrated.
type Options struct {
	System SystemMode
	// StrictLines also compares region begin and end lines when matching
	// regions, and call-site file and line when matching call-tree nodes.
	// By default they are ignored, since lines shift between code versions.
	StrictLines bool
}

// String renders the options as recorded in a result's attributes.
func (o Options) String() string {
	return fmt.Sprintf("system=%s;strict-lines=%t", o.System, o.StrictLines)
}

// ParseOptions reads Options.String.
func ParseOptions(s string) (Options, error) {
	var o Options
	for _, field := range strings.Split(s, ";") {
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "system":
			switch v {
			case "auto":
				o.System = SystemAuto
			case "copy":
				o.System = SystemCopy
			case "collapse":
				o.System = SystemCollapse
			default:
				return Options{}, fmt.Errorf("options %q: unknown system mode %q", s, v)
			}
		case "strict-lines":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return Options{}, fmt.Errorf("options %q: bad strict-lines %q", s, v)
			}
			o.StrictLines = b
		default:
			return Options{}, fmt.Errorf("options %q: unknown field %q", s, k)
		}
	}
	return o, nil
}
