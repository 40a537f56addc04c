package repo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The constraint language of searches (SCALEA's search for call paths
// whose performance meets a condition):
//
//	constraint = or
//	or         = and { "or" and }
//	and        = unary { "and" unary }
//	unary      = "not" unary | "(" or ")" | test
//	test       = value op number [ "%" ]
//	value      = metric | "excl" "(" metric ")" | "incl" "(" metric ")"
//	op         = ">=" | ">" | "<=" | "<"
//	metric     = word | string
//
// A test holds at a call path (or region) when the metric's value there
// compares as asked with the number, or, with "%", with that share of the
// run's total of the metric (runs whose total is positive). excl(m) is
// the call path's own value, incl(m) its value with callees; a bare m
// takes the query's default. A test of a metric the trial lacks is false.
// Keywords are case-insensitive; quote metric names that contain white
// space, quotes, parentheses or the characters =!<>~% ("…" or '…').

// ConstraintError reports a malformed constraint and where it went wrong.
type ConstraintError struct {
	Text string // the whole constraint
	Pos  int    // byte offset of the problem
	Msg  string
}

// Column returns the 1-based character position of the problem.
func (e *ConstraintError) Column() int { return utf8.RuneCountInString(e.Text[:e.Pos]) + 1 }

// Error shows the message, the constraint and a caret under the problem.
func (e *ConstraintError) Error() string {
	return fmt.Sprintf("constraint column %d: %s\n  %s\n  %s^", e.Column(), e.Msg, e.Text, strings.Repeat(" ", e.Column()-1))
}

// CheckConstraint reports whether text is a well-formed constraint (nil)
// or where it is not (a *ConstraintError).
func CheckConstraint(text string) error {
	_, err := parseConstraint(text, false)
	return err
}

// test is one comparison of a constraint.
type test struct {
	metric string
	incl   bool
	op     string  // ">=", ">", "<=", "<"
	value  float64 // a fraction of the run's total when share
	share  bool
	pos    int
}

// lowerBound reports whether the test asks for a value of at least (or
// above) a threshold, which the stored bounds can rule out.
func (t *test) lowerBound() bool { return t.op == ">=" || t.op == ">" }

// meets reports whether value v (of a run whose total is total) passes.
func (t *test) meets(v, total float64) bool {
	x := t.value
	if t.share {
		if !(total > 0) {
			return false
		}
		x *= total
	}
	switch t.op {
	case ">=":
		return v >= x
	case ">":
		return v > x
	case "<=":
		return v <= x
	case "<":
		return v < x
	}
	return false
}

// String renders the test as the language writes it.
func (t *test) String() string {
	v := strconv.FormatFloat(t.value, 'g', -1, 64)
	if t.share {
		v = strconv.FormatFloat(100*t.value, 'g', -1, 64) + "%"
	}
	part := "excl"
	if t.incl {
		part = "incl"
	}
	return fmt.Sprintf("%s(%s) %s %s", part, strconv.Quote(t.metric), t.op, v)
}

// expr is a parsed constraint: a test, or "and", "or", "not" of others.
type expr struct {
	op   byte // 't', '&', '|', '!'
	a, b *expr
	t    *test
}

// tests calls f with every test, left to right.
func (x *expr) tests(f func(*test)) {
	if x == nil {
		return
	}
	if x.op == 't' {
		f(x.t)
		return
	}
	x.a.tests(f)
	x.b.tests(f)
}

// conjuncts returns the expressions joined by "and" at the top.
func (x *expr) conjuncts() []*expr {
	if x.op == '&' {
		return append(x.a.conjuncts(), x.b.conjuncts()...)
	}
	return []*expr{x}
}

// eval evaluates the constraint with value giving each test's value and
// run total (ok false when the trial lacks the metric).
func (x *expr) eval(value func(*test) (v, total float64, ok bool)) bool {
	switch x.op {
	case 't':
		v, total, ok := value(x.t)
		return ok && x.t.meets(v, total)
	case '&':
		return x.a.eval(value) && x.b.eval(value)
	case '|':
		return x.a.eval(value) || x.b.eval(value)
	case '!':
		return !x.a.eval(value)
	}
	return false
}

type constraintParser struct {
	lex  filterParser // the filter language's tokens
	incl bool         // the default of a bare metric
}

// parseConstraint reads a constraint; bare metrics take incl.
func parseConstraint(text string, incl bool) (*expr, error) {
	p := &constraintParser{lex: filterParser{text: text}, incl: incl}
	p.lex.next()
	x := p.or()
	if p.lex.err == nil && p.lex.tok.kind != ftEOF {
		p.lex.fail(p.lex.tok.pos, "unexpected %s; want \"and\", \"or\" or the end of the constraint", p.lex.describe(p.lex.tok))
	}
	if p.lex.err != nil {
		fe := p.lex.err
		return nil, &ConstraintError{Text: fe.Text, Pos: fe.Pos, Msg: fe.Msg}
	}
	return x, nil
}

func (p *constraintParser) or() *expr {
	x := p.and()
	for p.lex.err == nil && p.lex.keyword("or") {
		p.lex.next()
		x = &expr{op: '|', a: x, b: p.and()}
	}
	return x
}

func (p *constraintParser) and() *expr {
	x := p.unary()
	for p.lex.err == nil && p.lex.keyword("and") {
		p.lex.next()
		x = &expr{op: '&', a: x, b: p.unary()}
	}
	return x
}

func (p *constraintParser) unary() *expr {
	l := &p.lex
	if l.err != nil {
		return &expr{op: 't', t: &test{}}
	}
	switch {
	case l.keyword("not"):
		l.next()
		return &expr{op: '!', a: p.unary()}
	case l.tok.kind == ftPunct && l.tok.text == "(":
		open := l.tok.pos
		l.next()
		x := p.or()
		if l.err == nil && !(l.tok.kind == ftPunct && l.tok.text == ")") {
			l.fail(l.tok.pos, "want \")\" to close the \"(\" at column %d, found %s", utf8.RuneCountInString(l.text[:open])+1, l.describe(l.tok))
		}
		l.next()
		return x
	}
	return &expr{op: 't', t: p.test()}
}

func (p *constraintParser) test() *test {
	l := &p.lex
	t := &test{incl: p.incl, pos: l.tok.pos}
	if l.tok.kind == ftWord && (strings.EqualFold(l.tok.text, "excl") || strings.EqualFold(l.tok.text, "incl")) && l.peekOpen() {
		t.incl = strings.EqualFold(l.tok.text, "incl")
		l.next() // the word
		l.next() // "("
		t.metric = p.metric()
		if l.err == nil && !(l.tok.kind == ftPunct && l.tok.text == ")") {
			l.fail(l.tok.pos, "want \")\" after the metric, found %s", l.describe(l.tok))
		}
		l.next()
	} else {
		t.metric = p.metric()
	}
	if l.err != nil {
		return t
	}
	switch {
	case l.tok.kind == ftOp && (l.tok.text == ">=" || l.tok.text == ">" || l.tok.text == "<=" || l.tok.text == "<"):
	default:
		l.fail(l.tok.pos, "want >=, >, <= or < after %q, found %s", t.metric, l.describe(l.tok))
		return t
	}
	t.op = l.tok.text
	l.next()
	val := l.tok
	if val.kind != ftWord {
		l.fail(val.pos, "want a number after %q, found %s", t.op, l.describe(val))
		return t
	}
	num, isShare := strings.CutSuffix(val.text, "%")
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) {
		l.fail(val.pos, "%q is not a number (a value, or a share of the run's total such as 10%%)", val.text)
		return t
	}
	t.value, t.share = f, isShare
	if isShare {
		t.value = f / 100
	}
	l.next()
	return t
}

func (p *constraintParser) metric() string {
	l := &p.lex
	t := l.tok
	if t.kind == ftString || t.kind == ftWord && !isKeyword(t.text) {
		l.next()
		return t.text
	}
	l.fail(t.pos, "want a metric name, found %s", l.describe(t))
	return ""
}

// peekOpen reports whether the next token is "(".
func (p *filterParser) peekOpen() bool {
	i := p.pos
	for i < len(p.text) {
		r, n := utf8.DecodeRuneInString(p.text[i:])
		if !unicode.IsSpace(r) {
			return p.text[i] == '('
		}
		i += n
	}
	return false
}

// globMatch reports whether s matches pattern, where * is any run of
// characters and ? any one character, every other character itself.
func globMatch(pattern, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, 0 // the last * and where its run ends
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			switch c := pattern[px]; {
			case c == '*':
				starP, starS = px, sx
				px++
				continue
			case c == '?' && sx < len(s):
				_, n := utf8.DecodeRuneInString(s[sx:])
				px, sx = px+1, sx+n
				continue
			case c != '?' && sx < len(s) && s[sx] == c:
				px, sx = px+1, sx+1
				continue
			}
		}
		if starP >= 0 && starS < len(s) {
			_, n := utf8.DecodeRuneInString(s[starS:])
			starS += n
			px, sx = starP+1, starS
			continue
		}
		return false
	}
	return true
}
