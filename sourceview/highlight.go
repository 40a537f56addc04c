package sourceview

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Category is the kind of a span of source text; a renderer gives each
// category a colour or style.
type Category uint8

// The token categories, a small set that chroma's token types map onto.
const (
	Plain        Category = iota // identifiers, whitespace, anything else
	Keyword                      // language keywords
	Type                         // type names and type keywords
	Builtin                      // built-in functions and names
	Function                     // names of functions being defined or called
	String                       // string and character literals
	Number                       // numeric literals
	Comment                      // comments
	Preprocessor                 // preprocessor directives
	Operator                     // operators
	Punctuation                  // brackets, separators
	numCategories
)

var categoryNames = [numCategories]string{
	"plain", "keyword", "type", "builtin", "function", "string", "number", "comment", "preproc", "operator", "punct",
}

// String returns the lower-case name of c, e.g. "keyword".
func (c Category) String() string {
	if c < numCategories {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", c)
}

// Span is a run of text of one category within a line.
type Span struct {
	Category Category
	Text     string // never contains a newline
}

// Line is one line of a source file.
type Line struct {
	Number      int // 1-based
	Spans       []Span
	Annotations []Annotation // set by Annotate
}

// Text returns the line's text.
func (l *Line) Text() string {
	var sb strings.Builder
	for _, s := range l.Spans {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// category maps a chroma token type onto a Category.
func category(t chroma.TokenType) Category {
	switch {
	case t.InSubCategory(chroma.CommentPreproc):
		return Preprocessor
	case t.InCategory(chroma.Comment):
		return Comment
	case t == chroma.KeywordType:
		return Type
	case t.InCategory(chroma.Keyword):
		return Keyword
	case t.InSubCategory(chroma.NameBuiltin):
		return Builtin
	case t.InSubCategory(chroma.NameFunction):
		return Function
	case t == chroma.NameClass || t == chroma.NameNamespace:
		return Type
	case t.InSubCategory(chroma.LiteralString):
		return String
	case t.InSubCategory(chroma.LiteralNumber):
		return Number
	case t.InCategory(chroma.Operator):
		return Operator
	case t.InCategory(chroma.Punctuation):
		return Punctuation
	}
	return Plain
}

// Fortran extensions chroma does not know, by form.
var extraLexers = map[string]string{
	".f77": "FortranFixed", ".for": "FortranFixed", ".ftn": "FortranFixed", ".fpp": "FortranFixed",
	".F77": "FortranFixed", ".FOR": "FortranFixed", ".FTN": "FortranFixed", ".FPP": "FortranFixed",
	".f08": "Fortran", ".f18": "Fortran", ".F08": "Fortran", ".F18": "Fortran",
}

// analysisLimit bounds the text given to content analysis.
const analysisLimit = 64 << 10

// Language returns the name of the chroma lexer Highlight uses for a
// file, e.g. "C", "FortranFixed" or "plaintext".
func Language(name, text string) string { return lexer(name, text).Config().Name }

// lexer chooses the chroma lexer for a file: by name first, then by
// content, plain text as the last resort. Fortran files named as fixed
// form whose content is free form are lexed as free form.
func lexer(name, text string) chroma.Lexer {
	sample := text
	if len(sample) > analysisLimit {
		sample = sample[:analysisLimit]
	}
	l := matchName(filepath.Base(name))
	if l == nil {
		if n, ok := extraLexers[filepath.Ext(name)]; ok {
			l = lexers.Get(n)
		}
	}
	if l == nil {
		l = byInterpreter(sample)
	}
	if l == nil {
		l = lexers.Analyse(sample)
	}
	if l == nil && fortranSource.MatchString(sample) {
		l = lexers.Get("FortranFixed")
	}
	if l == nil {
		if l = lexers.Get("plaintext"); l == nil {
			l = lexers.Fallback
		}
	}
	if l.Config().Name == "FortranFixed" && !fixedForm(sample) {
		l = lexers.Get("Fortran")
	}
	return l
}

// matched caches lexers.Match by file name, which tries every lexer's
// file-name patterns in turn (milliseconds a call); it holds at most
// maxMatched names.
var (
	matchedMu sync.Mutex
	matched   = map[string]chroma.Lexer{}
)

const maxMatched = 4096

// matchName returns the lexer whose file-name patterns match base, or nil.
func matchName(base string) chroma.Lexer {
	matchedMu.Lock()
	l, ok := matched[base]
	matchedMu.Unlock()
	if ok {
		return l
	}
	l = lexers.Match(base)
	matchedMu.Lock()
	if len(matched) < maxMatched {
		matched[base] = l
	}
	matchedMu.Unlock()
	return l
}

// byInterpreter chooses a lexer from a "#!" line, e.g. python for
// "#!/usr/bin/env python3".
func byInterpreter(text string) chroma.Lexer {
	first, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutPrefix(first, "#!")
	if !ok {
		return nil
	}
	words := strings.Fields(rest)
	for i, w := range words {
		name := strings.TrimRight(filepath.Base(w), "0123456789.")
		if name == "env" || (i > 0 && strings.HasPrefix(w, "-")) {
			continue
		}
		if name == "" {
			return nil
		}
		return lexers.Get(name)
	}
	return nil
}

var fortranSource = regexp.MustCompile(`(?im)^[ \t]*(program|subroutine|module|(integer|real|double precision|logical)?[ \t]*function)[ \t]+\w+[^\n]*\n(.*\n)*?[ \t]*end\b`)

// fixedForm reports whether Fortran source looks like fixed form: no
// statement starts in columns 1–5 except statement labels, and no line
// continues with a trailing "&".
func fixedForm(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		switch line[0] {
		case 'c', 'C', '*', '!', 'd', 'D', '#':
			continue // comment, debug line or preprocessor
		}
		code := line
		if i := strings.IndexByte(code, '!'); i >= 0 {
			code = code[:i]
		}
		if strings.HasSuffix(strings.TrimRight(code, " \t"), "&") && len(strings.TrimRight(code, " \t")) <= 72 {
			return false
		}
		for i := 0; i < len(line) && i < 5; i++ {
			if c := line[i]; c != ' ' && (c < '0' || c > '9') {
				if c == '\t' {
					break // tab form: statement after a tab
				}
				return false
			}
		}
	}
	return true
}

// Highlight splits text into lines of categorised spans using the lexer
// Language(name, text) names, and returns that name. It stops with
// ctx's error when ctx is done. The spans of each line concatenate to
// the line's text; if the lexer fails, every line is one Plain span.
func Highlight(ctx context.Context, name, text string) ([]Line, string, error) {
	l := lexer(name, text)
	lines, err := tokenize(ctx, l, text)
	if err == nil {
		return lines, l.Config().Name, nil
	}
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	return SplitLines(text), "plaintext", nil
}

// HighlightPart highlights lines first through last of text (numbered
// from 1, both included, clipped to the text) and returns just those
// lines, numbered as in text, with the name of the lexer. It lexes only
// these lines, as if the file began at line first, so its time grows with
// their number, not with the file's size: a display shows the lines
// around a region this way at once and the whole file when Highlight is
// done. The spans equal Highlight's when the lexer is in its initial
// state at line first, as at the start of a top-level definition in most
// languages; elsewhere (inside a block comment, say) they may differ.
// The lexer is chosen from the whole text, as Highlight chooses it.
func HighlightPart(ctx context.Context, name, text string, first, last int) ([]Line, string, error) {
	first = max(first, 1)
	last = min(last, numLines(text))
	if first > last {
		return nil, Language(name, text), nil
	}
	start := lineOffset(text, 0, 1, first)
	end := lineOffset(text, start, first, last+1)
	part := text[start:end]
	l := lexer(name, text)
	lines, err := tokenize(ctx, l, part)
	lexerName := l.Config().Name
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		lines, lexerName = SplitLines(part), "plaintext"
	}
	for i := range lines {
		lines[i].Number = first + i
	}
	return lines, lexerName, nil
}

// lineOffset returns the byte offset in text of the start of line want,
// scanning from offset from, the start of line at; len(text) when text
// has fewer lines.
func lineOffset(text string, from, at, want int) int {
	for ; at < want; at++ {
		i := strings.IndexByte(text[from:], '\n')
		if i < 0 {
			return len(text)
		}
		from += i + 1
	}
	return from
}

// numLines counts the lines of text; a final newline ends the last line.
func numLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// SplitLines returns text as lines of one Plain span each, without
// highlighting. It is fast, so a display can show a large file at once
// and swap in Highlight's result when that is ready.
func SplitLines(text string) []Line {
	lines := make([]Line, 0, numLines(text))
	for i, s := range strings.SplitAfter(text, "\n") {
		if s == "" {
			break
		}
		l := Line{Number: i + 1}
		if s = strings.TrimSuffix(s, "\n"); s != "" {
			l.Spans = []Span{{Plain, s}}
		}
		lines = append(lines, l)
	}
	return lines
}

// tokenize runs lexer over text. A panic inside the lexer becomes an error.
func tokenize(ctx context.Context, lexer chroma.Lexer, text string) (lines []Line, err error) {
	defer func() {
		if r := recover(); r != nil {
			lines, err = nil, fmt.Errorf("lexer %s failed: %v", lexer.Config().Name, r)
		}
	}()
	it, err := chroma.Coalesce(lexer).Tokenise(nil, text)
	if err != nil {
		return nil, err
	}
	want := numLines(text)
	lines = make([]Line, 0, want+1)
	cur := Line{Number: 1}
	add := func(c Category, s string) {
		if s == "" {
			return
		}
		if n := len(cur.Spans); n > 0 && cur.Spans[n-1].Category == c {
			cur.Spans[n-1].Text += s
			return
		}
		cur.Spans = append(cur.Spans, Span{c, s})
	}
	for count := 0; ; count++ {
		if count&1023 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		tok := it()
		if tok == chroma.EOF {
			break
		}
		c := category(tok.Type)
		v := tok.Value
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				add(c, v)
				break
			}
			add(c, v[:i])
			lines = append(lines, cur)
			cur = Line{Number: len(lines) + 1}
			v = v[i+1:]
		}
	}
	if len(cur.Spans) > 0 {
		lines = append(lines, cur)
	}
	// Some lexers add a final newline; drop the empty line it makes.
	for len(lines) > want && len(lines[len(lines)-1].Spans) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) != want {
		return nil, fmt.Errorf("lexer %s returned %d lines for %d", lexer.Config().Name, len(lines), want)
	}
	return lines, nil
}
