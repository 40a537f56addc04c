package view

import (
	"fmt"
	"regexp"
	"strings"
)

// Finder is the search of a View's labels: the rows of one pane that
// match a pattern, which Row marks, and the current match the find bar
// moves through.
type Finder struct {
	v         *View
	active    bool
	dim       Dim
	pattern   string
	matches   map[Node]bool
	ancestors map[Node]bool // rows above a match
	list      []Node        // the matches in display order
	index     int
	current   Node
}

// FindMark says how a row takes part in the current search.
type FindMark uint8

const (
	// NotFound rows do not match.
	NotFound FindMark = iota
	// Found rows match.
	Found
	// FoundBelow rows are collapsed and hide a match.
	FoundBelow
	// FoundCurrent is the match last moved to.
	FoundCurrent
)

// Find searches the labels of pane d for pattern (a case-insensitive
// regular expression, or literal text if it is not one) and returns the
// matching rows in display order. The matches are marked in Row until
// Clear; the first becomes current.
func (f *Finder) Find(d Dim, pattern string) []Node {
	f.Clear()
	if pattern == "" {
		return nil
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(pattern))
	}
	v := f.v
	f.active, f.dim, f.pattern = true, d, pattern
	f.matches, f.ancestors = map[Node]bool{}, map[Node]bool{}
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			if re.MatchString(v.Label(n)) {
				f.matches[n] = true
				f.list = append(f.list, n)
				for _, a := range v.Ancestors(d, n) {
					f.ancestors[a] = true
				}
			}
			walk(v.Children(d, n))
		}
	}
	walk(v.Roots(d))
	if len(f.list) > 0 {
		f.current, f.index = f.list[0], 0
	}
	return f.list
}

// Step moves the current match forward (delta 1) or back (−1), wrapping
// around, and returns it with its position (1-based) and the number of
// matches; ok is false without matches.
func (f *Finder) step(delta int) (n Node, pos, total int, ok bool) {
	if !f.active || len(f.list) == 0 {
		return Node{}, 0, 0, false
	}
	k := len(f.list)
	f.index = ((f.index+delta)%k + k) % k
	f.current = f.list[f.index]
	return f.current, f.index + 1, k, true
}

// Move moves to the next (delta 1), previous (−1) or current (0) match
// of the search and returns it, its pane and the find bar's text; ok is
// false without matches.
func (f *Finder) Move(delta int) (d Dim, n Node, text string, ok bool) {
	d = f.dim
	n, pos, total, ok := f.step(delta)
	if !ok {
		return d, Node{}, "", false
	}
	return d, n, fmt.Sprintf("%d of %d in the %s", pos, total, strings.ToLower(d.String())), true
}

// Clear removes the marks of the last search.
func (f *Finder) Clear() {
	f.active, f.list, f.index, f.current, f.pattern = false, nil, 0, Node{}, ""
	f.matches, f.ancestors = nil, nil
}

// mark says how row n of pane d takes part in the search.
func (f *Finder) mark(d Dim, n Node) FindMark {
	if !f.active || f.dim != d {
		return NotFound
	}
	switch {
	case n == f.current:
		return FoundCurrent
	case f.matches[n]:
		return Found
	case f.ancestors[n] && !f.v.panes[d].expanded[n]:
		return FoundBelow
	}
	return NotFound
}

// FindMiss returns the find bar's text after a search for pattern in pane
// d found nothing: nothing for an empty pattern.
func FindMiss(d Dim, pattern string) string {
	if pattern == "" {
		return ""
	}
	return "no match in the " + strings.ToLower(d.String())
}
