package repo

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The filter language selects trials by their fields and attributes:
//
//	filter  = or
//	or      = and { "or" and }
//	and     = unary { "and" unary }
//	unary   = "not" unary | "(" or ")" | "has" name | name op value
//	op      = "=" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "~" | "!~"
//	name    = word | "@" word | "@" string
//	value   = word | string
//
// Keywords are case-insensitive. A word is a run of characters other than
// white space, quotes, parentheses and the operator characters =!<>~; a
// string is quoted with "…" or '…' (a doubled quote stands for itself).
// The names id, app, experiment, name, source, filesize, sha256, format
// and imported are the trial's fields; any other name is an attribute ("@name"
// means the attribute even when it is spelled like a field). An unquoted
// value that reads as a number compares numerically with attributes that
// are numbers; any other value compares as text, byte by byte. "~" matches
// a pattern where * is any run of characters and ? any one character.
// A comparison with an attribute the trial does not have is false.

// FilterError reports a malformed filter and where it went wrong.
type FilterError struct {
	Text string // the whole filter
	Pos  int    // byte offset of the problem
	Msg  string
}

// Column returns the 1-based character position of the problem.
func (e *FilterError) Column() int { return utf8.RuneCountInString(e.Text[:e.Pos]) + 1 }

// Error shows the message, the filter and a caret under the problem.
func (e *FilterError) Error() string {
	return fmt.Sprintf("filter column %d: %s\n  %s\n  %s^", e.Column(), e.Msg, e.Text, strings.Repeat(" ", e.Column()-1))
}

// field is a column of the trial (t), its experiment (x) or application (a).
type field struct {
	column  string
	numeric bool
}

var fields = map[string]field{
	"id":         {"t.id", true},
	"filesize":   {"t.size", true},
	"app":        {"a.name", false},
	"experiment": {"x.name", false},
	"name":       {"t.name", false},
	"source":     {"t.source", false},
	"sha256":     {"t.sha256", false},
	"format":     {"t.format", false},
	"imported":   {"t.imported", false},
}

// reservedField reports whether k names a trial field rather than an attribute.
func reservedField(k string) bool {
	_, ok := fields[k]
	return ok
}

type ftokKind uint8

const (
	ftEOF ftokKind = iota
	ftWord
	ftString
	ftOp    // = == != < <= > >= ~ !~
	ftPunct // ( ) @
)

type ftok struct {
	kind ftokKind
	text string
	pos  int
}

// condition is a compiled filter: SQL over the aliases t, x and a, with
// its arguments. Attribute tests are uncorrelated "t.id IN (…)" subqueries,
// which both engines evaluate once per filter rather than once per trial.
//
// Over a repository whose attribute values are indexed (attrIndex), the
// filter is one set of trial ids, "t.id IN (…)": every test selects ids
// from an index, and "and", "or" and "not" are INTERSECT, UNION and
// EXCEPT of those sets, so that the work grows with the index entries
// the tests select, not with the trials stored. While parsing, a
// condition is then such a SELECT of a column id; setOp names its
// outermost set operator ("" for none).
type condition struct {
	sql   string
	args  []any
	setOp string
	// ids, for a filter over indexed attributes, is the set of trial ids
	// alone, a SELECT of a column id (sql is "t.id IN (ids)").
	ids string
}

// attrIndex says which attribute keys and (key, text value) pairs a
// filter names are the only texts stored with their hashes, so that
// their hashes alone select their rows.
type attrIndex struct {
	key   map[string]bool
	value map[[2]string]bool
}

type filterParser struct {
	d      *dialect
	text   string
	pos    int
	tok    ftok
	err    *FilterError
	attrs  []attrRef   // attributes compared
	values [][2]string // attributes compared as equal to a text
	idx    *attrIndex  // nil: the SQL of schema 4 and earlier
}

// compileFilter turns a filter into a parameterised SQL condition; an
// empty filter selects every trial.
func compileFilter(d *dialect, text string) (condition, error) {
	_, c, err := parseFilter(d, text, nil)
	return c, err
}

// parseFilter compiles a filter, for indexed attributes when idx is set,
// and returns the parser, which lists the attributes compared.
func parseFilter(d *dialect, text string, idx *attrIndex) (*filterParser, condition, error) {
	p := &filterParser{d: d, text: text, idx: idx}
	if strings.TrimSpace(text) == "" {
		return p, condition{sql: "1=1"}, nil
	}
	p.next()
	c := p.or()
	if p.err == nil && p.tok.kind != ftEOF {
		p.fail(p.tok.pos, "unexpected %s; want \"and\", \"or\" or the end of the filter", p.describe(p.tok))
	}
	if p.err != nil {
		return p, condition{}, p.err
	}
	if idx != nil {
		c = condition{sql: "t.id IN (" + c.sql + ")", args: c.args, ids: c.sql}
	}
	return p, c, nil
}

// filter compiles a filter of the repository's trials, refusing
// attributes that no trial has.
func (r *Repo) filter(ctx context.Context, text string) (condition, error) {
	p, c, err := parseFilter(r.d, text, nil)
	if err != nil {
		return c, err
	}
	if err := dictionaryOf(r).checkAttributes(ctx, text, p.attrs); err != nil || r.schema < schemaAttrIndex || strings.TrimSpace(text) == "" {
		return c, err
	}
	idx, err := lookupAttrIndex(ctx, r, p.attrs, p.values)
	if err != nil {
		return c, err
	}
	_, c, err = parseFilter(r.d, text, idx)
	return c, err
}

// lookupAttrIndex finds which of the keys and values no other stored
// text of r shares a hash with.
func lookupAttrIndex(ctx context.Context, r *Repo, keys []attrRef, values [][2]string) (*attrIndex, error) {
	idx := &attrIndex{key: map[string]bool{}, value: map[[2]string]bool{}}
	alone := func(query string, args ...any) (bool, error) {
		var n int
		err := r.db.QueryRowContext(ctx, r.d.q(query), args...).Scan(&n)
		if err != nil {
			return false, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
		return n == 0, nil
	}
	for _, k := range keys {
		if _, done := idx.key[k.name]; done {
			continue
		}
		ok, err := alone(`SELECT COUNT(*) FROM attr_key WHERE key_hash = ? AND key <> ?`, textHash(k.name), r.d.text(k.name))
		if err != nil {
			return nil, err
		}
		idx.key[k.name] = ok
	}
	for _, kv := range values {
		if _, done := idx.value[kv]; done {
			continue
		}
		ok, err := alone(`SELECT COUNT(*) FROM attr_value WHERE key_hash = ? AND value_hash = ? AND value <> ?`,
			textHash(kv[0]), textHash(kv[1]), r.d.text(kv[1]))
		if err != nil {
			return nil, err
		}
		idx.value[kv] = ok
	}
	return idx, nil
}

// setOf combines two sets of trial ids with a set operator.
func setOf(op string, a, b condition) condition {
	left := a.sql
	if a.setOp != "" && a.setOp != op {
		left = "SELECT id FROM (" + a.sql + ") AS s"
	}
	right := b.sql
	if b.setOp != "" {
		right = "SELECT id FROM (" + b.sql + ") AS s"
	}
	return condition{sql: left + " " + op + " " + right, args: append(append([]any(nil), a.args...), b.args...), setOp: op}
}

// allTrials is the set of every trial's id.
const allTrials = "SELECT t.id AS id FROM trial t"

// attrSet returns the set of trials with attribute key meeting cmp on
// alias v (none: having the key).
func (p *filterParser) attrSet(key, cmp string, args []any) condition {
	sql := "SELECT v.trial AS id FROM trial_attr v WHERE v.key_hash = ?"
	all := []any{textHash(key)}
	if !p.idx.key[key] {
		sql += " AND v.key = ?"
		all = append(all, p.d.text(key))
	}
	if cmp != "" {
		sql += " AND " + cmp
		all = append(all, args...)
	}
	return condition{sql: sql, args: all}
}

func (p *filterParser) fail(pos int, format string, args ...any) {
	if p.err == nil {
		p.err = &FilterError{Text: p.text, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *filterParser) describe(t ftok) string {
	switch t.kind {
	case ftEOF:
		return "end of filter"
	case ftString:
		return fmt.Sprintf("string %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *filterParser) next() {
	for p.pos < len(p.text) {
		r, n := utf8.DecodeRuneInString(p.text[p.pos:])
		if !unicode.IsSpace(r) {
			break
		}
		p.pos += n
	}
	start := p.pos
	if p.pos >= len(p.text) {
		p.tok = ftok{kind: ftEOF, pos: start}
		return
	}
	c := p.text[p.pos]
	switch {
	case c == '(' || c == ')' || c == '@':
		p.pos++
		p.tok = ftok{kind: ftPunct, text: string(c), pos: start}
		return
	case strings.IndexByte("=!<>~", c) >= 0:
		end := p.pos + 1
		if end < len(p.text) && (p.text[end] == '=' || (c == '!' && p.text[end] == '~')) {
			end++
		}
		op := p.text[start:end]
		if op == "!" {
			p.fail(start, "unknown operator \"!\"; want != or !~")
		}
		p.pos = end
		p.tok = ftok{kind: ftOp, text: op, pos: start}
		return
	case c == '"' || c == '\'':
		var sb strings.Builder
		i := p.pos + 1
		for {
			if i >= len(p.text) {
				p.fail(start, "string is not closed")
				p.pos = len(p.text)
				p.tok = ftok{kind: ftEOF, pos: len(p.text)}
				return
			}
			if p.text[i] == c {
				if i+1 < len(p.text) && p.text[i+1] == c {
					sb.WriteByte(c)
					i += 2
					continue
				}
				break
			}
			sb.WriteByte(p.text[i])
			i++
		}
		p.pos = i + 1
		p.tok = ftok{kind: ftString, text: sb.String(), pos: start}
		return
	}
	for p.pos < len(p.text) {
		r, n := utf8.DecodeRuneInString(p.text[p.pos:])
		if unicode.IsSpace(r) || strings.ContainsRune("()@=!<>~\"'", r) {
			break
		}
		p.pos += n
	}
	p.tok = ftok{kind: ftWord, text: p.text[start:p.pos], pos: start}
}

func (p *filterParser) keyword(k string) bool {
	return p.tok.kind == ftWord && strings.EqualFold(p.tok.text, k)
}

func (p *filterParser) or() condition {
	c := p.and()
	for p.err == nil && p.keyword("or") {
		p.next()
		d := p.and()
		if p.idx != nil {
			c = setOf("UNION", c, d)
			continue
		}
		c = condition{sql: "(" + c.sql + " OR " + d.sql + ")", args: append(c.args, d.args...)}
	}
	return c
}

func (p *filterParser) and() condition {
	c := p.unary()
	for p.err == nil && p.keyword("and") {
		p.next()
		d := p.unary()
		if p.idx != nil {
			c = setOf("INTERSECT", c, d)
			continue
		}
		c = condition{sql: "(" + c.sql + " AND " + d.sql + ")", args: append(c.args, d.args...)}
	}
	return c
}

func (p *filterParser) unary() condition {
	if p.err != nil {
		return condition{}
	}
	switch {
	case p.keyword("not"):
		p.next()
		c := p.unary()
		if p.idx != nil {
			return setOf("EXCEPT", condition{sql: allTrials}, c)
		}
		return condition{sql: "NOT " + c.sql, args: c.args}
	case p.tok.kind == ftPunct && p.tok.text == "(":
		open := p.tok.pos
		p.next()
		c := p.or()
		if p.err == nil && !(p.tok.kind == ftPunct && p.tok.text == ")") {
			p.fail(p.tok.pos, "want \")\" to close the \"(\" at column %d, found %s", utf8.RuneCountInString(p.text[:open])+1, p.describe(p.tok))
		}
		p.next()
		return c
	case p.keyword("has"):
		p.next()
		name, isAttr, _ := p.name()
		if p.err != nil {
			return condition{}
		}
		switch {
		case !isAttr && p.idx != nil:
			return condition{sql: allTrials}
		case !isAttr:
			return condition{sql: "1=1"} // every trial has its fields
		case p.idx != nil:
			return p.attrSet(name, "", nil)
		}
		return condition{sql: "t.id IN (SELECT v.trial FROM trial_attr v WHERE v.key_hash = ? AND v.key = ?)",
			args: []any{textHash(name), p.d.text(name)}}
	}
	return p.comparison()
}

// name reads a field or attribute name.
func (p *filterParser) name() (name string, isAttr bool, pos int) {
	pos = p.tok.pos
	forced := false
	if p.tok.kind == ftPunct && p.tok.text == "@" {
		forced = true
		p.next()
	}
	t := p.tok
	switch {
	case t.kind == ftWord && (forced || !isKeyword(t.text)):
	case t.kind == ftString && forced:
	default:
		p.fail(t.pos, "want a field or attribute name, found %s", p.describe(t))
		return "", false, pos
	}
	p.next()
	if forced {
		return t.text, true, pos
	}
	return t.text, !reservedField(t.text), pos
}

func isKeyword(w string) bool {
	switch strings.ToLower(w) {
	case "and", "or", "not", "has":
		return true
	}
	return false
}

var sqlOps = map[string]string{"=": "=", "==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

func (p *filterParser) comparison() condition {
	name, isAttr, namePos := p.name()
	if p.err != nil {
		return condition{}
	}
	if p.tok.kind != ftOp {
		p.fail(p.tok.pos, "want an operator (= != < <= > >= ~ !~) after %q, found %s", name, p.describe(p.tok))
		return condition{}
	}
	op := p.tok
	p.next()
	val := p.tok
	if val.kind != ftWord && val.kind != ftString {
		p.fail(val.pos, "want a value after %q, found %s", op.text, p.describe(val))
		return condition{}
	}
	p.next()
	num, isNum := 0.0, false
	if val.kind == ftWord {
		num, isNum = parseNumber(val.text)
	}
	var column string
	numeric := false
	if isAttr {
		numeric = isNum && op.text != "~" && op.text != "!~"
		column = "v.value"
		if numeric {
			column = "v.num"
		}
	} else {
		f := fields[name]
		column, numeric = f.column, f.numeric
		if numeric && !isNum {
			p.fail(val.pos, "%s is a number; %s is not", name, p.describe(val))
			return condition{}
		}
		if numeric && (op.text == "~" || op.text == "!~") {
			p.fail(op.pos, "%s is a number: use = != < <= > >=, not %s", name, op.text)
			return condition{}
		}
	}
	if isAttr {
		p.attrs = append(p.attrs, attrRef{name: name, pos: namePos})
	}
	var cmp string
	var arg any
	switch op.text {
	case "~", "!~":
		cmp = p.d.globMatch(column)
		if op.text == "!~" {
			cmp = "NOT " + cmp
		}
		arg = p.d.text(p.d.globPattern(val.text))
	default:
		cmp = column + " " + sqlOps[op.text] + " ?"
		if numeric {
			arg = num
		} else {
			arg = p.d.text(val.text)
		}
	}
	if isAttr && !numeric && (op.text == "=" || op.text == "==") {
		p.values = append(p.values, [2]string{name, val.text})
	}
	switch {
	case !isAttr && p.idx != nil:
		return condition{sql: "SELECT t.id AS id" + trialFrom + " WHERE " + cmp, args: []any{arg}}
	case !isAttr:
		return condition{sql: cmp, args: []any{arg}}
	case p.idx != nil && !numeric && (op.text == "=" || op.text == "=="):
		if p.idx.value[[2]string{name, val.text}] {
			return p.attrSet(name, "v.value_hash = ?", []any{textHash(val.text)})
		}
		return p.attrSet(name, "v.value_hash = ? AND v.value = ?", []any{textHash(val.text), arg})
	case p.idx != nil:
		return p.attrSet(name, cmp, []any{arg})
	}
	return condition{sql: "t.id IN (SELECT v.trial FROM trial_attr v WHERE v.key_hash = ? AND v.key = ? AND " + cmp + ")",
		args: []any{textHash(name), p.d.text(name), arg}}
}

// globMatch returns the SQL that matches column against a pattern made by
// globPattern.
func (d *dialect) globMatch(column string) string {
	if d.name == "postgres" {
		return column + " LIKE ?"
	}
	return column + " GLOB ?"
}

// globPattern translates a pattern with * and ? into the engine's
// case-sensitive matcher, every other character standing for itself.
func (d *dialect) globPattern(pat string) string {
	var sb strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		if d.name == "postgres" {
			switch c {
			case '*':
				sb.WriteByte('%')
			case '?':
				sb.WriteByte('_')
			case '%', '_', '\\':
				sb.WriteByte('\\')
				sb.WriteByte(c)
			default:
				sb.WriteByte(c)
			}
			continue
		}
		if c == '[' {
			sb.WriteString("[[]")
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String()
}
