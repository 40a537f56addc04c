package view

import (
	"errors"
	"fmt"
	"image/color"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"cubeview/model"
	"cubeview/sourceview"
)

// SourceTarget is what the call pane's selection asks the source panel to
// show.
type SourceTarget struct {
	File       string // the source path as recorded; "" when none is
	Focus      int    // the line to scroll to; 0: the top
	Begin, End int    // the shaded lines; 0: none
	LexFrom    int    // a line where the lexer likely starts afresh (a definition)
	What       string // e.g. "region solver_iterate, lines 86–98"
	None       string // why nothing is shown when File is ""
}

// ContextAbove is the number of lines the source panel shows above the
// focus line.
const ContextAbove = 3

// TargetOf returns what the call pane's selection in v asks to show: for
// a call path or flat-profile region, the region's definition when its
// file and lines are recorded, else the call site, else the region's file.
func TargetOf(v *View) SourceTarget {
	e := v.Experiment()
	n := v.Selected(CallPane)
	var region, cnode int
	switch n.Kind {
	case CnodeNode:
		cnode, region = n.Index, e.Cnodes[n.Index].Region
	case RegionNode, SubroutinesNode:
		region, cnode = n.Index, -1
		if cs := v.RegionCallPaths(n.Index); len(cs) > 0 {
			cnode = cs[0]
		}
	default:
		return SourceTarget{None: "Select a call path or a region to see its source."}
	}
	r := &e.Regions[region]
	if r.Module != "" && r.Begin > 0 {
		end := max(r.End, r.Begin)
		what := fmt.Sprintf("region %s, lines %d–%d", r.Name, r.Begin, end)
		if end == r.Begin {
			what = fmt.Sprintf("region %s, line %d", r.Name, r.Begin)
		}
		return SourceTarget{File: r.Module, Focus: r.Begin, Begin: r.Begin, End: end, LexFrom: r.Begin, What: what}
	}
	if cnode >= 0 {
		if c := &e.Cnodes[cnode]; c.CallFile != "" && c.CallLine > 0 {
			t := SourceTarget{File: c.CallFile, Focus: c.CallLine, Begin: c.CallLine, End: c.CallLine, LexFrom: c.CallLine,
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
		return SourceTarget{File: r.Module, What: "region " + r.Name}
	}
	return SourceTarget{None: fmt.Sprintf("No source location is recorded for %s.", r.Name)}
}

// LooksLikeFile tells a file path from module names such as "MPI".
func LooksLikeFile(module string) bool {
	return module != "" && (filepath.Ext(module) != "" || strings.ContainsAny(module, `/\`))
}

// Title is the source panel's title for t.
func (t SourceTarget) Title() string {
	if t.File == "" {
		return "Source"
	}
	return filepath.Base(t.File) + " — " + t.What
}

// Shaded reports whether line (1-based) is among the target's shaded lines.
func (t SourceTarget) Shaded(line int) bool {
	return t.Begin > 0 && line >= t.Begin && line <= t.End
}

// TopRow is the 0-based row the panel scrolls to: a few lines of context
// above the focus line.
func (t SourceTarget) TopRow() int { return max(t.Focus-1-ContextAbove, 0) }

// SourceInfo is the source panel's information line: problems with the
// annotations, what the values are, the language, whether highlighting is
// still running, and the file read; or that the file is being read, or
// why it cannot be shown (err).
func SourceInfo(t SourceTarget, f *SourceFile, err error, dropped int, valuesInfo string) string {
	if t.File == "" {
		return ""
	}
	var info []string
	switch {
	case f != nil:
		if dropped > 0 {
			info = append(info, Count(dropped, "annotation")+" beyond the last line: the file differs from the measured one")
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

// SourceProblem is the message the source panel shows when the file
// recorded as file cannot be shown for err.
func SourceProblem(file string, err error) string {
	if errors.Is(err, sourceview.ErrNotFound) {
		return fmt.Sprintf("The source file %s was not found on this machine.\n"+
			"Locate it, or add a folder to search; the path mapping is remembered.", file)
	}
	return fmt.Sprintf("The source file cannot be shown: %v", err)
}

// DescribeNotes explains a line's annotations for the hint line.
func DescribeNotes(e *model.Experiment, notes []SourceNote, valuesInfo string) string {
	var parts []string
	for _, n := range notes {
		switch n.Kind {
		case sourceview.CallSite:
			parts = append(parts, fmt.Sprintf("call of %s (%s): %s", n.Name, e.CallPath(n.Index), n.Text))
		default:
			parts = append(parts, fmt.Sprintf("region %s: %s", n.Name, n.Text))
		}
	}
	return strings.Join(parts, " · ") + " — " + valuesInfo + "; double-click selects the call"
}

// NoteText names the annotations of a line after its code: the first
// one's value is in the gutter, the others' follow their names.
func NoteText(notes []SourceNote) string {
	if len(notes) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("◂ ")
	for i, n := range notes {
		if i > 0 {
			sb.WriteString(" · ")
		}
		sb.WriteString(n.Kind.String())
		sb.WriteByte(' ')
		sb.WriteString(n.Name)
		if i > 0 {
			sb.WriteByte(' ')
			sb.WriteString(n.Text)
		}
	}
	return sb.String()
}

// FirstCallSite returns the call path of the first call site among notes,
// false when there is none.
func FirstCallSite(notes []SourceNote) (cnode int, ok bool) {
	for _, n := range notes {
		if n.Kind == sourceview.CallSite {
			return n.Index, true
		}
	}
	return 0, false
}

// LineNumberSample is a string of zeros as wide as the largest line
// number of a file of n lines, for measuring the gutter.
func LineNumberSample(n int) string { return strings.Repeat("0", len(strconv.Itoa(n))) }

// Source lines as drawn.
const (
	TabWidth     = 8    // columns per tab stop
	MaxLineRunes = 2000 // a longer line is cut; nobody reads that far right
)

// ExpandTabs replaces tabs in s by spaces up to the next tab stop, given
// that s starts at column col; it returns the text and the column after it.
func ExpandTabs(s string, col int) (string, int) {
	if !strings.Contains(s, "\t") {
		return s, col + utf8.RuneCountInString(s)
	}
	var sb strings.Builder
	for _, r := range s {
		if r == '\t' {
			n := TabWidth - col%TabWidth
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		sb.WriteRune(r)
		col++
	}
	return sb.String(), col
}

// DrawnSpans returns the spans of line as drawn: tabs expanded, and no
// span begun beyond MaxLineRunes columns.
func DrawnSpans(line *sourceview.Line) []sourceview.Span {
	out := make([]sourceview.Span, 0, len(line.Spans))
	col := 0
	for _, s := range line.Spans {
		if col >= MaxLineRunes {
			break
		}
		s.Text, col = ExpandTabs(s.Text, col)
		out = append(out, s)
	}
	return out
}

// SyntaxColor returns the colour of a span category, fitting a light or a
// dark theme; plain text, operators and punctuation take fg.
func SyntaxColor(c sourceview.Category, dark bool, fg color.Color) color.Color {
	type pair struct{ light, dark color.NRGBA }
	var p pair
	switch c {
	case sourceview.Keyword:
		p = pair{color.NRGBA{0, 51, 179, 255}, color.NRGBA{86, 156, 214, 255}}
	case sourceview.Type:
		p = pair{color.NRGBA{11, 122, 117, 255}, color.NRGBA{78, 201, 176, 255}}
	case sourceview.Builtin:
		p = pair{color.NRGBA{111, 66, 193, 255}, color.NRGBA{197, 134, 192, 255}}
	case sourceview.Function:
		p = pair{color.NRGBA{121, 94, 38, 255}, color.NRGBA{220, 220, 170, 255}}
	case sourceview.String:
		p = pair{color.NRGBA{163, 21, 21, 255}, color.NRGBA{206, 145, 120, 255}}
	case sourceview.Number:
		p = pair{color.NRGBA{9, 134, 88, 255}, color.NRGBA{181, 206, 168, 255}}
	case sourceview.Comment:
		p = pair{color.NRGBA{106, 115, 125, 255}, color.NRGBA{106, 153, 85, 255}}
	case sourceview.Preprocessor:
		p = pair{color.NRGBA{175, 0, 219, 255}, color.NRGBA{197, 134, 192, 255}}
	default:
		return fg
	}
	if dark {
		return p.dark
	}
	return p.light
}

// IsDark reports whether c, a background colour, is dark: light text is
// drawn on it.
func IsDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return 299*r+587*g+114*b < 500*0xffff
}
