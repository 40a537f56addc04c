package algebra

import (
	"strings"
	"unicode"

	"cubeview/model"
)

// pseudoRoots are the names tools give the artificial root of a thread's
// calling contexts: HPCToolkit's program and thread roots, TAU's
// top-level timer.
var pseudoRoots = map[string]bool{
	"<program root>":       true,
	"<experiment root>":    true,
	"<main thread>":        true,
	"<thread root>":        true,
	".TAU application":     true,
	"<application thread>": false, // a helper thread's root, not the program's
}

// mainNames are the canonical names of a program's main function (C, C++,
// gfortran's MAIN__ for a Fortran main program).
var mainNames = map[string]bool{"main": true, "MAIN__": true, "MAIN_": true}

// maxMainDepth bounds how deep below a root main is looked for: below
// startup frames (_start, __libc_start_main, __libc_start_call_main) and
// a tool's thread root.
const maxMainDepth = 4

// programRoot returns the call-tree root of e that stands for the whole
// program, and the cnode of main below it (-1 when e has none): the root
// above the shallowest main; else the single root; else the one root that
// is a recognised pseudo-root (TAU's ".TAU application"). It returns -1
// when e has none of these.
func programRoot(e *model.Experiment) (root, main int) {
	level := make([]int, 0, len(e.CnodeRoots))
	level = append(level, e.CnodeRoots...)
	for depth := 0; depth <= maxMainDepth && len(level) > 0; depth++ {
		var next []int
		for _, c := range level {
			if mainNames[CanonicalRegionName(e.CnodeRegion(c).Name)] {
				r := c
				for e.Cnodes[r].Parent >= 0 {
					r = e.Cnodes[r].Parent
				}
				return r, c
			}
			next = append(next, e.Cnodes[c].Children...)
		}
		level = next
	}
	if len(e.CnodeRoots) == 1 {
		return e.CnodeRoots[0], -1
	}
	root = -1
	for _, c := range e.CnodeRoots {
		if pseudoRoots[strings.TrimSpace(e.CnodeRegion(c).Name)] {
			if root >= 0 {
				return -1, -1
			}
			root = c
		}
	}
	return root, -1
}

// recording says how an experiment was recorded: its format without
// version numbers and counts ("TAU profile", "HPCToolkit database
// (meta.db)"; every CUBE file is "cube"), "" for a derived experiment.
// Operands recorded differently name, nest and cut call paths
// differently.
func recording(e *model.Experiment) string {
	switch toolOf(e) {
	case "":
		return ""
	case "cube":
		return "cube" // CUBE 3 XML and CUBE 4 hold the same call trees
	}
	f := strings.TrimSpace(e.Format)
	if i := strings.LastIndex(f, " ("); i > 0 && strings.HasSuffix(f, ")") && strings.ContainsFunc(f[i:], unicode.IsDigit) {
		f = f[:i] // "(4 threads, 1 metric)"
	}
	var words []string
	for _, w := range strings.Fields(f) {
		if strings.TrimFunc(w, func(r rune) bool { return unicode.IsDigit(r) || r == '.' }) != "" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// mixedRecordings reports whether the operands were recorded differently
// (see recording): then call paths match across frames only some of them
// recorded.
func mixedRecordings(ops []*model.Experiment) bool {
	first := ""
	for _, e := range ops {
		switch r := recording(e); {
		case r == "":
		case first == "":
			first = r
		case r != first:
			return true
		}
	}
	return false
}
