package sourcepanel

import (
	"image/color"
	"strconv"
	"strings"
	"unicode/utf8"

	"cubeview/sourceview"
)

// LineNumberSample is a string of zeros as wide as the largest line
// number of a file of n lines, for measuring the gutter.
func LineNumberSample(n int) string { return strings.Repeat("0", len(strconv.Itoa(n))) }

// Source lines as drawn.
const (
	tabWidth     = 8    // columns per tab stop
	maxLineRunes = 2000 // a longer line is cut; nobody reads that far right
)

// expandTabs replaces tabs in s by spaces up to the next tab stop, given
// that s starts at column col; it returns the text and the column after it.
func expandTabs(s string, col int) (string, int) {
	if !strings.Contains(s, "\t") {
		return s, col + utf8.RuneCountInString(s)
	}
	var sb strings.Builder
	for _, r := range s {
		if r == '\t' {
			n := tabWidth - col%tabWidth
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
// span begun beyond maxLineRunes columns.
func DrawnSpans(line *sourceview.Line) []sourceview.Span {
	out := make([]sourceview.Span, 0, len(line.Spans))
	col := 0
	for _, s := range line.Spans {
		if col >= maxLineRunes {
			break
		}
		s.Text, col = expandTabs(s.Text, col)
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
