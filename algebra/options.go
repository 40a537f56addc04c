package algebra

import "fmt"

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
