package algebra

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cubeview/model"
)

// Expr is a parsed algebra expression: an operator applied to arguments,
// or a file operand.
//
// The grammar, with white space allowed between tokens:
//
//	expr    = file | op "(" arg { "," arg } ")"
//	op      = "diff" | "merge" | "mean" | "cut"
//	arg     = expr | ("reroot" | "prune") "=" name     (keywords only in cut)
//	file    = word | string
//	name    = word | string
//
// A word is a run of characters other than white space, parentheses,
// commas, equals signs and double quotes, so most paths need no quoting; a
// string is double-quoted with Go escapes. A word followed by "(" is an
// operator. Operators gives each operator's number of operands; cut also
// needs at least one reroot or prune argument.
type Expr struct {
	Op     Op     // NoOp for a file
	File   string // the file of an operand
	Args   []*Expr
	Reroot []string // cut only
	Prune  []string // cut only
	Pos    int      // byte offset of the expression in the parsed text
}

// String renders x in the syntax Parse reads.
func (x *Expr) String() string {
	if x.Op == NoOp {
		return quoteFileName(x.File)
	}
	parts := make([]string, 0, len(x.Args)+len(x.Reroot)+len(x.Prune))
	for _, a := range x.Args {
		parts = append(parts, a.String())
	}
	for _, n := range x.Reroot {
		parts = append(parts, "reroot="+strconv.Quote(n))
	}
	for _, n := range x.Prune {
		parts = append(parts, "prune="+strconv.Quote(n))
	}
	return x.Op.String() + "(" + strings.Join(parts, ", ") + ")"
}

// SyntaxError reports a malformed expression and where it went wrong.
type SyntaxError struct {
	Text string // the whole expression
	Pos  int    // byte offset of the problem
	Msg  string
}

// Column returns the 1-based character position of the problem.
func (e *SyntaxError) Column() int { return utf8.RuneCountInString(e.Text[:e.Pos]) + 1 }

// Error shows the message, the expression (around the problem when it is
// long) and a caret under the problem.
func (e *SyntaxError) Error() string {
	runes := []rune(e.Text)
	col := e.Column() - 1
	from, to := 0, len(runes)
	const context = 60
	if col > context {
		from = col - context
	}
	if to > col+context {
		to = col + context
	}
	text := string(runes[from:to])
	caret := col - from
	if from > 0 {
		text, caret = "…"+text, caret+1
	}
	if to < len(runes) {
		text += "…"
	}
	return fmt.Sprintf("expression column %d: %s\n  %s\n  %s^", e.Column(), e.Msg, text, strings.Repeat(" ", caret))
}

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokWord
	tokString
	tokPunct // one of ( ) , =
)

type token struct {
	kind tokenKind
	text string // word, unquoted string or punctuation
	pos  int
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "the end of the expression"
	case tokString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

type parser struct {
	text  string
	pos   int
	tok   token
	err   *SyntaxError
	depth int // operators open around the current token
}

func (p *parser) fail(pos int, format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Text: p.text, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// next reads the next token into p.tok.
func (p *parser) next() {
	for p.pos < len(p.text) {
		r, n := utf8.DecodeRuneInString(p.text[p.pos:])
		if !unicode.IsSpace(r) {
			break
		}
		p.pos += n
	}
	start := p.pos
	if p.pos == len(p.text) {
		p.tok = token{kind: tokEOF, pos: start}
		return
	}
	switch c := p.text[p.pos]; c {
	case '(', ')', ',', '=':
		p.pos++
		p.tok = token{kind: tokPunct, text: string(c), pos: start}
		return
	case '"':
		end := start + 1
		for end < len(p.text) && p.text[end] != '"' {
			if p.text[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(p.text) {
			p.fail(start, "string is not closed")
			p.pos = len(p.text)
			p.tok = token{kind: tokEOF, pos: len(p.text)}
			return
		}
		s, err := strconv.Unquote(p.text[start : end+1])
		if err != nil {
			p.fail(start, "bad string: %v", err)
		}
		p.pos = end + 1
		p.tok = token{kind: tokString, text: s, pos: start}
		return
	}
	for p.pos < len(p.text) {
		r, n := utf8.DecodeRuneInString(p.text[p.pos:])
		if unicode.IsSpace(r) || strings.ContainsRune("(),=\"", r) {
			break
		}
		p.pos += n
	}
	p.tok = token{kind: tokWord, text: p.text[start:p.pos], pos: start}
}

// peekPunct reports whether the token after the current one is the
// punctuation c, without consuming anything.
func (p *parser) peekPunct(c string) bool {
	save, tok := p.pos, p.tok
	p.next()
	ok := p.tok.kind == tokPunct && p.tok.text == c
	p.pos, p.tok = save, tok
	return ok
}

// Parse reads an algebra expression such as
// diff(mean(a.cubex, b.cubex), "my run.cubex").
func Parse(text string) (*Expr, error) {
	p := &parser{text: text}
	p.next()
	x := p.expr()
	if p.err == nil && p.tok.kind != tokEOF {
		p.fail(p.tok.pos, "unexpected %s after the expression", p.tok.describe())
	}
	if p.err != nil {
		return nil, p.err
	}
	return x, nil
}

// MaxDepth is how deeply operators may nest in an expression; deeper ones
// are refused at once (a written expression stays far below).
const MaxDepth = 64

func (p *parser) expr() *Expr {
	t := p.tok
	switch {
	case t.kind == tokString:
		p.next()
		return &Expr{File: t.text, Pos: t.pos}
	case t.kind == tokWord && p.peekPunct("("):
		o, ok := OperatorByName(t.text)
		if !ok {
			p.fail(t.pos, "unknown operator %q (want %s)", t.text, strings.Join(OperatorNames(), ", "))
			return nil
		}
		if p.depth >= MaxDepth {
			p.fail(t.pos, "expression nested deeper than %d operators", MaxDepth)
			return nil
		}
		p.depth++
		defer func() { p.depth-- }()
		p.next() // the word
		p.next() // "("
		x := &Expr{Op: o.Op, Pos: t.pos}
		for {
			p.arg(x)
			if p.err != nil {
				return nil
			}
			if p.tok.kind == tokPunct && p.tok.text == "," {
				p.next()
				continue
			}
			if p.tok.kind == tokPunct && p.tok.text == ")" {
				p.next()
				break
			}
			p.fail(p.tok.pos, "want \",\" or \")\" in the arguments of %s, found %s", x.Op, p.tok.describe())
			return nil
		}
		p.checkArity(x)
		return x
	case t.kind == tokWord:
		p.next()
		return &Expr{File: t.text, Pos: t.pos}
	}
	p.fail(t.pos, "want a file or an operator, found %s", t.describe())
	return nil
}

func (p *parser) arg(x *Expr) {
	t := p.tok
	if t.kind == tokWord && p.peekPunct("=") {
		if x.Op != OpCut || (t.text != "reroot" && t.text != "prune") {
			p.fail(t.pos, "unknown argument %q of %s", t.text, x.Op)
			return
		}
		p.next() // the word
		p.next() // "="
		v := p.tok
		if v.kind != tokWord && v.kind != tokString {
			p.fail(v.pos, "want a region name after %s=, found %s", t.text, v.describe())
			return
		}
		p.next()
		if t.text == "reroot" {
			x.Reroot = append(x.Reroot, v.text)
		} else {
			x.Prune = append(x.Prune, v.text)
		}
		return
	}
	if a := p.expr(); a != nil {
		x.Args = append(x.Args, a)
	}
}

func (p *parser) checkArity(x *Expr) {
	if err := x.Check(); err != nil {
		p.fail(x.Pos, "%s", err.Error())
	}
}

// Check reports an operator applied to too few or too many operands, or a
// cut without region; it does not look into the operands.
func (x *Expr) Check() error {
	if x.Op == NoOp {
		return nil
	}
	o, ok := x.Op.Info()
	if !ok {
		return fmt.Errorf("unknown operator %s", x.Op)
	}
	if err := o.CheckOperands(len(x.Args)); err != nil {
		return err
	}
	if x.Op == OpCut && len(x.Reroot)+len(x.Prune) == 0 {
		return fmt.Errorf("cut needs at least one reroot=NAME or prune=NAME")
	}
	return nil
}

// Has reports whether op is applied anywhere in x.
func (x *Expr) Has(op Op) bool {
	if x == nil {
		return false
	}
	if x.Op == op {
		return true
	}
	for _, a := range x.Args {
		if a.Has(op) {
			return true
		}
	}
	return false
}

// Files returns the file operands of x, left to right.
func (x *Expr) Files() []string {
	if x.Op == NoOp {
		return []string{x.File}
	}
	var out []string
	for _, a := range x.Args {
		out = append(out, a.Files()...)
	}
	return out
}

// Opener reads the experiment in a file.
type Opener func(path string) (*model.Experiment, error)

// Eval evaluates x, reading each distinct file once with open and
// computing each distinct subexpression once.
func Eval(x *Expr, open Opener, opt Options) (*model.Experiment, error) {
	return eval(x, open, opt, map[string]*model.Experiment{})
}

// eval evaluates x; done holds the results so far by file name (key
// "file:NAME") and by expression text.
func eval(x *Expr, open Opener, opt Options, done map[string]*model.Experiment) (*model.Experiment, error) {
	key := "file:" + x.File
	if x.Op != NoOp {
		key = x.String()
	}
	if e, ok := done[key]; ok {
		return e, nil
	}
	e, err := evalOnce(x, open, opt, done)
	if err != nil {
		return nil, err
	}
	done[key] = e
	return e, nil
}

func evalOnce(x *Expr, open Opener, opt Options, done map[string]*model.Experiment) (*model.Experiment, error) {
	if x.Op == NoOp {
		e, err := open(x.File)
		if err == nil && !model.HashesContent(e) {
			startChecksum(e.Source) // for the provenance of the result
		}
		return e, err
	}
	if err := x.Check(); err != nil {
		return nil, err
	}
	args := make([]*model.Experiment, len(x.Args))
	for i, a := range x.Args {
		e, err := eval(a, open, opt, done)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	switch x.Op {
	case OpDiff:
		return Diff(args[0], args[1], opt)
	case OpMerge:
		return Merge(opt, args...)
	case OpMean:
		return Mean(opt, args...)
	case OpCut:
		return Cut(args[0], CutOptions{Reroot: x.Reroot, Prune: x.Prune})
	}
	return nil, fmt.Errorf("unknown operator %s", x.Op)
}
