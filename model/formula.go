package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Formula is the parsed expression of a derived metric: numbers, metric
// references, the four arithmetic operators with parentheses and CubePL's
// functions sqrt and abs (a standard deviation from sums). It is
// immutable and refers to metrics by uniq_name, so one Formula can serve
// several experiments.
//
// The grammar, white space allowed between tokens:
//
//	expr    = term { ("+" | "-" | "−") term }
//	term    = unary { ("*" | "×" | "·" | "/" | "÷") unary }
//	unary   = ("-" | "−" | "+") unary | primary
//	primary = number | name | "metric::" name "(" ")" | "(" expr ")"
//	        | ("sqrt" | "abs") "(" expr ")"
//	name    = letter-or-"_" { letter | digit | "_" | "." } | double-quoted string
//
// The metric::name() form is CubePL's reference to a metric; the plain
// name is the same reference. Division follows CubePL: 0 divided by
// anything is 0 (nothing measured), any other number divided by 0 is NaN,
// an undefined value that displays show as such.
type Formula struct {
	root *fnode
}

type fnode struct {
	op   byte // 'n' number, 'm' metric, 'q' sqrt(a), 'a' abs(a), or one of + - * /
	num  float64
	name string
	a, b *fnode
}

// FormulaError reports a malformed formula and where it went wrong.
type FormulaError struct {
	Text string // the whole formula
	Pos  int    // byte offset of the problem
	Msg  string
}

// Error shows the message, the formula and a caret under the problem.
func (e *FormulaError) Error() string {
	col := utf8.RuneCountInString(e.Text[:e.Pos])
	return fmt.Sprintf("formula column %d: %s\n  %s\n  %s^", col+1, e.Msg, e.Text, strings.Repeat(" ", col))
}

// ParseFormula parses a derived-metric expression such as
// "PAPI_TOT_INS / PAPI_TOT_CYC" or the CubePL
// "metric::PAPI_TOT_INS() / metric::PAPI_TOT_CYC()".
func ParseFormula(text string) (*Formula, error) {
	p := &formulaParser{text: text}
	p.next()
	root, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.tok != tkEnd {
		return nil, p.errorf("unexpected %s after the end of the expression", p.describe())
	}
	return &Formula{root: root}, nil
}

// ParseDefinition parses "name = expression" into the new metric's name
// and its formula.
func ParseDefinition(text string) (name string, f *Formula, err error) {
	lhs, rhs, ok := strings.Cut(text, "=")
	if !ok {
		return "", nil, fmt.Errorf("derived metric %q: want NAME = EXPRESSION", text)
	}
	name = strings.TrimSpace(lhs)
	if !isPlainName(name) {
		return "", nil, fmt.Errorf("derived metric %q: the name %q must start with a letter or _ and hold only letters, digits, _ and dots", text, name)
	}
	f, err = ParseFormula(strings.TrimSpace(rhs))
	if err != nil {
		return "", nil, fmt.Errorf("derived metric %s: %w", name, err)
	}
	return name, f, nil
}

// Metrics returns the uniq_names the formula refers to, each once, in
// order of first appearance.
func (f *Formula) Metrics() []string {
	var out []string
	f.root.walk(func(n *fnode) {
		if n.op == 'm' && !containsString(out, n.name) {
			out = append(out, n.name)
		}
	})
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (n *fnode) walk(fn func(*fnode)) {
	if n == nil {
		return
	}
	fn(n)
	n.a.walk(fn)
	n.b.walk(fn)
}

// String renders the formula with plain metric names, in the syntax
// ParseFormula reads.
func (f *Formula) String() string {
	var sb strings.Builder
	f.root.render(&sb, false)
	return sb.String()
}

// CubePL renders the formula as a CubePL expression for a CUBE 4
// POSTDERIVED metric, so that the Cube tools compute it too. CubePL names
// a metric only by a plain name (see CubePLNames).
func (f *Formula) CubePL() string {
	var sb strings.Builder
	f.root.render(&sb, true)
	return sb.String()
}

func precedence(op byte) int {
	switch op {
	case '+', '-':
		return 1
	case '*', '/':
		return 2
	}
	return 3
}

func (n *fnode) render(sb *strings.Builder, cubepl bool) {
	switch n.op {
	case 'n':
		sb.WriteString(strconv.FormatFloat(n.num, 'f', -1, 64))
	case 'q', 'a':
		sb.WriteString(funcNames[n.op] + "(")
		n.a.render(sb, cubepl)
		sb.WriteString(")")
	case 'm':
		switch {
		case cubepl:
			sb.WriteString("metric::" + n.name + "()")
		case isPlainName(n.name):
			sb.WriteString(n.name)
		default:
			sb.WriteString(strconv.Quote(n.name))
		}
	default:
		p := precedence(n.op)
		n.a.renderOperand(sb, cubepl, precedence(n.a.op) < p)
		sb.WriteString(" " + string(n.op) + " ")
		// The right operand keeps its parentheses at equal precedence,
		// so the rendering evaluates in exactly the parsed order.
		n.b.renderOperand(sb, cubepl, precedence(n.b.op) <= p)
	}
}

func (n *fnode) renderOperand(sb *strings.Builder, cubepl, parens bool) {
	if parens {
		sb.WriteByte('(')
	}
	n.render(sb, cubepl)
	if parens {
		sb.WriteByte(')')
	}
}

// CubePLNames reports whether every metric the formula names can be
// written in CubePL: letters, digits, _ and ., not starting with a digit.
func (f *Formula) CubePLNames() bool {
	for _, name := range f.Metrics() {
		if !isPlainName(name) && name != "metric" {
			return false
		}
	}
	return true
}

// isPlainName reports whether s can be written without quotes.
func isPlainName(s string) bool {
	if s == "" || s == "metric" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || r == '.'))) {
			return false
		}
	}
	return true
}

// Eval evaluates the formula element-wise over vectors of length n: get
// returns the values of a referenced metric, a vector of length n.
func (f *Formula) Eval(n int, get func(uniq string) ([]float64, error)) ([]float64, error) {
	return f.root.eval(n, get)
}

func (n *fnode) eval(size int, get func(string) ([]float64, error)) ([]float64, error) {
	switch n.op {
	case 'n':
		out := make([]float64, size)
		for i := range out {
			out[i] = n.num
		}
		return out, nil
	case 'm':
		v, err := get(n.name)
		if err != nil {
			return nil, err
		}
		if len(v) != size {
			return nil, fmt.Errorf("metric %q: %d values, want %d", n.name, len(v), size)
		}
		return append([]float64(nil), v...), nil
	}
	x, err := n.a.eval(size, get)
	if err != nil {
		return nil, err
	}
	if n.b == nil {
		for i := range x {
			x[i] = applyFunc(n.op, x[i])
		}
		return x, nil
	}
	y, err := n.b.eval(size, get)
	if err != nil {
		return nil, err
	}
	for i := range x {
		x[i] = applyOp(n.op, x[i], y[i])
	}
	return x, nil
}

// EvalScalar evaluates the formula for single values.
func (f *Formula) EvalScalar(get func(uniq string) (float64, error)) (float64, error) {
	v, err := f.root.eval(1, func(name string) ([]float64, error) {
		x, err := get(name)
		return []float64{x}, err
	})
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// funcNames are the functions a formula may call, by op.
var funcNames = map[byte]string{'q': "sqrt", 'a': "abs"}

// applyFunc applies function op to x: the square root of a negative
// number is NaN, an undefined value.
func applyFunc(op byte, x float64) float64 {
	if op == 'q' {
		return math.Sqrt(x)
	}
	return math.Abs(x)
}

func applyOp(op byte, x, y float64) float64 {
	switch op {
	case '+':
		return x + y
	case '-':
		return x - y
	case '*':
		return x * y
	}
	switch {
	case x == 0:
		return 0 // CubePL: nothing measured, also over nothing
	case y == 0:
		return math.NaN() // CubePL: undefined
	}
	return x / y
}

// MetricRef returns the formula that is just a reference to metric name.
func MetricRef(name string) *Formula { return &Formula{root: &fnode{op: 'm', name: name}} }

// Difference returns the formula a − b.
func Difference(a, b *Formula) *Formula {
	return &Formula{root: &fnode{op: '-', a: a.root, b: b.root}}
}

// Replace returns the formula with every reference to a metric for which
// with returns a formula replaced by that formula (in parentheses where
// needed); f itself is not changed.
func (f *Formula) Replace(with func(name string) *Formula) *Formula {
	return &Formula{root: f.root.replace(with)}
}

func (n *fnode) replace(with func(string) *Formula) *fnode {
	switch n.op {
	case 'n':
		return n
	case 'm':
		if r := with(n.name); r != nil {
			return r.root
		}
		return n
	}
	c := *n
	c.a = n.a.replace(with)
	if n.b != nil {
		c.b = n.b.replace(with)
	}
	return &c
}

// Unit infers the unit of the formula's value from the units of the
// metrics it refers to: a ratio of equal units is unitless, a product or
// quotient of different ones is written out ("bytes/sec"); a sum keeps
// its operands' unit when they agree.
func (f *Formula) Unit(unitOf func(uniq string) string) string {
	u, _ := f.root.unit(unitOf)
	return u
}

// unit returns the unit of a sub-expression and whether it is a pure number.
func (n *fnode) unit(unitOf func(string) string) (string, bool) {
	switch n.op {
	case 'n':
		return "", true
	case 'm':
		return unitOf(n.name), false
	case 'a':
		return n.a.unit(unitOf)
	case 'q':
		u, num := n.a.unit(unitOf)
		if u == "" {
			return "", num
		}
		return "sqrt(" + u + ")", false
	}
	ua, na := n.a.unit(unitOf)
	ub, nb := n.b.unit(unitOf)
	switch {
	case na && nb:
		return "", true
	case nb:
		return ua, false
	case na && n.op != '/':
		return ub, false
	}
	switch n.op {
	case '+', '-':
		if ua == ub {
			return ua, false
		}
		return "", false
	case '*':
		switch {
		case ua == "":
			return ub, false
		case ub == "":
			return ua, false
		}
		return wrapUnit(ua) + "·" + wrapUnit(ub), false
	}
	switch {
	case ua == ub:
		return "", false
	case ub == "":
		return ua, false
	case ua == "":
		return "1/" + wrapUnit(ub), false
	}
	return wrapUnit(ua) + "/" + wrapUnit(ub), false
}

func wrapUnit(u string) string {
	if strings.ContainsAny(u, "/·") {
		return "(" + u + ")"
	}
	return u
}

// tokens
type ftoken uint8

const (
	tkEnd ftoken = iota
	tkNum
	tkName
	tkMetric // metric::name() with its name
	tkOp     // + - * /
	tkOpen
	tkClose
	tkBad
)

type formulaParser struct {
	text  string
	pos   int // offset after the current token
	start int // offset of the current token
	tok   ftoken
	op    byte
	num   float64
	name  string
	msg   string // for tkBad
	depth int    // open parentheses
}

func (p *formulaParser) errorf(format string, args ...any) error {
	return &FormulaError{Text: p.text, Pos: p.start, Msg: fmt.Sprintf(format, args...)}
}

func (p *formulaParser) describe() string {
	switch p.tok {
	case tkEnd:
		return "end of expression"
	case tkNum, tkName, tkMetric:
		return fmt.Sprintf("%q", p.text[p.start:p.pos])
	case tkOp:
		return fmt.Sprintf("operator %q", p.text[p.start:p.pos])
	case tkOpen:
		return `"("`
	case tkClose:
		return `")"`
	}
	return p.msg
}

func (p *formulaParser) next() {
	for p.pos < len(p.text) {
		r, w := utf8.DecodeRuneInString(p.text[p.pos:])
		if !unicode.IsSpace(r) {
			break
		}
		p.pos += w
	}
	p.start = p.pos
	if p.pos >= len(p.text) {
		p.tok = tkEnd
		return
	}
	rest := p.text[p.pos:]
	r, w := utf8.DecodeRuneInString(rest)
	switch r {
	case '+':
		p.tok, p.op = tkOp, '+'
	case '-', '−':
		p.tok, p.op = tkOp, '-'
	case '*', '×', '·':
		p.tok, p.op = tkOp, '*'
	case '/', '÷':
		p.tok, p.op = tkOp, '/'
	case '(':
		p.tok = tkOpen
	case ')':
		p.tok = tkClose
	case '"':
		s, err := strconv.QuotedPrefix(rest)
		if err != nil {
			p.tok, p.msg = tkBad, "unterminated quoted name"
			p.pos = len(p.text)
			return
		}
		p.name, _ = strconv.Unquote(s)
		p.tok, p.pos = tkName, p.pos+len(s)
		return
	default:
		switch {
		case unicode.IsDigit(r) || r == '.':
			p.number()
			return
		case r == '_' || unicode.IsLetter(r):
			p.word()
			return
		}
		p.tok, p.msg = tkBad, fmt.Sprintf("unexpected character %q", r)
		p.pos += w
		return
	}
	p.pos += w
}

func (p *formulaParser) number() {
	i := p.pos
	s := p.text
	digits := func() {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	digits()
	if i < len(s) && s[i] == '.' {
		i++
		digits()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			i = j
			digits()
		}
	}
	v, err := strconv.ParseFloat(s[p.pos:i], 64)
	if err != nil || math.IsInf(v, 0) {
		p.tok, p.msg, p.pos = tkBad, fmt.Sprintf("bad number %q", s[p.pos:i]), i
		return
	}
	p.tok, p.num, p.pos = tkNum, v, i
}

func (p *formulaParser) word() {
	i := p.pos
	for i < len(p.text) {
		r, w := utf8.DecodeRuneInString(p.text[i:])
		if !(r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		i += w
	}
	word := p.text[p.pos:i]
	p.pos = i
	if word != "metric" || !strings.HasPrefix(p.text[i:], "::") {
		p.tok, p.name = tkName, word
		return
	}
	// CubePL metric::name(): only the form without flavour arguments,
	// which takes the flavour of the place where the value is shown.
	j := i + 2
	k := j
	for k < len(p.text) {
		r, w := utf8.DecodeRuneInString(p.text[k:])
		if !(r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		k += w
	}
	name := p.text[j:k]
	rest := strings.TrimLeftFunc(p.text[k:], unicode.IsSpace)
	if name == "" || !strings.HasPrefix(rest, "(") {
		p.tok, p.msg, p.pos = tkBad, "want metric::NAME()", k
		return
	}
	args, _, ok := strings.Cut(rest[1:], ")")
	if !ok {
		p.tok, p.msg, p.pos = tkBad, "metric::"+name+"( is not closed", len(p.text)
		return
	}
	if strings.TrimSpace(args) != "" {
		p.tok, p.msg, p.pos = tkBad, fmt.Sprintf("metric::%s(%s): call-tree and system flavour arguments are not supported", name, args), k
		return
	}
	p.tok, p.name = tkMetric, name
	p.pos = len(p.text) - len(rest) + 1 + len(args) + 1
}

func (p *formulaParser) expr() (*fnode, error) {
	left, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.tok == tkOp && (p.op == '+' || p.op == '-') {
		op := p.op
		p.next()
		right, err := p.term()
		if err != nil {
			return nil, err
		}
		left = &fnode{op: op, a: left, b: right}
	}
	return left, nil
}

func (p *formulaParser) term() (*fnode, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.tok == tkOp && (p.op == '*' || p.op == '/') {
		op := p.op
		p.next()
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		left = &fnode{op: op, a: left, b: right}
	}
	return left, nil
}

// maxFormulaDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxFormulaDepth = 200

func (p *formulaParser) unary() (*fnode, error) {
	depth := 0
	neg := false
	for p.tok == tkOp && (p.op == '-' || p.op == '+') {
		if depth++; depth > maxFormulaDepth {
			return nil, p.errorf("too many signs")
		}
		if p.op == '-' {
			neg = !neg
		}
		p.next()
	}
	n, err := p.primary()
	if err != nil {
		return nil, err
	}
	if neg {
		// 0 − x: the same value as −x, and it reads the same in CubePL.
		n = &fnode{op: '-', a: &fnode{op: 'n'}, b: n}
	}
	return n, nil
}

func (p *formulaParser) primary() (*fnode, error) {
	switch p.tok {
	case tkNum:
		n := &fnode{op: 'n', num: p.num}
		p.next()
		return n, nil
	case tkName, tkMetric:
		if p.name == "" {
			return nil, p.errorf("empty metric name")
		}
		n := &fnode{op: 'm', name: p.name}
		tok := p.tok
		p.next()
		if p.tok == tkOpen {
			op := funcOp(n.name)
			if tok != tkName || op == 0 {
				return nil, p.errorf("%q is not a function: the functions are sqrt and abs; a metric is referred to by its name", n.name)
			}
			p.tok = tkOpen
			arg, err := p.primary() // the parenthesised argument
			if err != nil {
				return nil, err
			}
			return &fnode{op: op, a: arg}, nil
		}
		return n, nil
	case tkOpen:
		if p.depth++; p.depth > maxFormulaDepth {
			return nil, p.errorf("parentheses nested too deeply")
		}
		p.next()
		n, err := p.expr()
		p.depth--
		if err != nil {
			return nil, err
		}
		if p.tok != tkClose {
			return nil, p.errorf("want \")\", got %s", p.describe())
		}
		p.next()
		return n, nil
	case tkBad:
		return nil, p.errorf("%s", p.msg)
	}
	return nil, p.errorf("want a number, a metric name or \"(\", got %s", p.describe())
}

// funcOp returns the op of function name, 0 when there is none.
func funcOp(name string) byte {
	for op, f := range funcNames {
		if f == name {
			return op
		}
	}
	return 0
}
