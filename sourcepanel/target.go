package sourcepanel

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"cubeview/sourceview"
	"cubeview/view"
)

// Target is what the call pane's selection asks the source panel to
// show.
type Target struct {
	File       string // the source path as recorded; "" when none is
	Focus      int    // the line to scroll to; 0: the top
	Begin, End int    // the shaded lines; 0: none
	LexFrom    int    // a line where the lexer likely starts afresh (a definition)
	What       string // e.g. "region solver_iterate, lines 86–98"
	None       string // why nothing is shown when File is ""
}

// contextAbove is the number of lines the source panel shows above the
// focus line.
const contextAbove = 3

// targetOf returns what the call pane's selection in v asks to show: for
// a call path or flat-profile region, the region's definition when its
// file and lines are recorded, else the call site, else the region's file.
func targetOf(v *view.View) Target {
	e := v.Experiment()
	n := v.Selected(view.CallPane)
	var region, cnode int
	switch n.Kind {
	case view.CnodeNode:
		cnode, region = n.Index, e.Cnodes[n.Index].Region
	case view.RegionNode, view.SubroutinesNode:
		region, cnode = n.Index, -1
		if cs := view.RegionCallPaths(v, n.Index); len(cs) > 0 {
			cnode = cs[0]
		}
	default:
		return Target{None: "Select a call path or a region to see its source."}
	}
	r := &e.Regions[region]
	if r.Module != "" && r.Begin > 0 {
		end := max(r.End, r.Begin)
		what := fmt.Sprintf("region %s, lines %d–%d", r.Name, r.Begin, end)
		if end == r.Begin {
			what = fmt.Sprintf("region %s, line %d", r.Name, r.Begin)
		}
		return Target{File: r.Module, Focus: r.Begin, Begin: r.Begin, End: end, LexFrom: r.Begin, What: what}
	}
	if cnode >= 0 {
		if c := &e.Cnodes[cnode]; c.CallFile != "" && c.CallLine > 0 {
			t := Target{File: c.CallFile, Focus: c.CallLine, Begin: c.CallLine, End: c.CallLine, LexFrom: c.CallLine,
				What: fmt.Sprintf("call of %s, line %d", r.Name, c.CallLine)}
			if c.Parent >= 0 {
				// Lexing from the caller's definition gets its colours right.
				if caller := e.CnodeRegion(c.Parent); caller.Module == c.CallFile && caller.Begin > 0 && caller.Begin <= c.CallLine {
					t.LexFrom = caller.Begin
				}
			}
			return t
		}
	}
	if LooksLikeFile(r.Module) {
		return Target{File: r.Module, What: "region " + r.Name}
	}
	return Target{None: fmt.Sprintf("No source location is recorded for %s.", r.Name)}
}

// LooksLikeFile tells a file path from module names such as "MPI".
func LooksLikeFile(module string) bool {
	return module != "" && (filepath.Ext(module) != "" || strings.ContainsAny(module, `/\`))
}

// Title is the source panel's title for t.
func (t Target) title() string {
	if t.File == "" {
		return "Source"
	}
	return filepath.Base(t.File) + " — " + t.What
}

// Shaded reports whether line (1-based) is among the target's shaded lines.
func (t Target) Shaded(line int) bool {
	return t.Begin > 0 && line >= t.Begin && line <= t.End
}

// TopRow is the 0-based row the panel scrolls to: a few lines of context
// above the focus line.
func (t Target) TopRow() int { return max(t.Focus-1-contextAbove, 0) }

// infoLine is the source panel's information line: problems with the
// annotations, what the values are, the language, whether highlighting is
// still running, and the file read; or that the file is being read, or
// why it cannot be shown (err).
func infoLine(t Target, f *File, err error, dropped int, valuesInfo string) string {
	if t.File == "" {
		return ""
	}
	var info []string
	switch {
	case f != nil:
		if dropped > 0 {
			info = append(info, view.Count(dropped, "annotation")+" beyond the last line: the file differs from the measured one")
		}
		if valuesInfo != "" {
			info = append(info, "values: "+valuesInfo)
		}
		info = append(info, f.Lexer)
		if !f.Exact {
			info = append(info, "highlighting …")
		}
		info = append(info, f.Path)
	case err == nil:
		info = append(info, "reading …")
	default:
		info = append(info, err.Error())
	}
	return strings.Join(info, " · ")
}

// problem is the message the source panel shows when the file
// recorded as file cannot be shown for err.
func problem(file string, err error) string {
	if errors.Is(err, sourceview.ErrNotFound) {
		return fmt.Sprintf("The source file %s was not found on this machine.\n"+
			"Locate it, or add a folder to search; the path mapping is remembered.", file)
	}
	return fmt.Sprintf("The source file cannot be shown: %v", err)
}
