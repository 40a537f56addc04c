package elide

import (
	"slices"
	"strings"
)

// Middle shortens s until fits accepts it by replacing its middle with
// "…", keeping as much of both ends as fits: call paths and file names
// differ at either end. It returns s when s fits, and "…" when nothing does.
func Middle(s string, fits func(string) bool) string {
	if fits(s) {
		return s
	}
	rs := []rune(s)
	fit := func(k int) string { return string(rs[:(k+1)/2]) + "…" + string(rs[len(rs)-k/2:]) }
	lo, hi := 0, len(rs)-1 // fit(lo) fits (or nothing does); fit(hi+1) does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(fit(mid)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return fit(lo)
}

// Path shortens a path "main/solve/exchange" (or a system path
// "node 3/rank 12") until fits accepts it, keeping its last part — the
// leaf that names the row — whole and as much of its start as fits:
// "main/…/exchange". When even "…/" and the leaf do not fit, the leaf
// itself is elided in the middle. Slashes inside parentheses (C++
// signatures) do not separate parts.
func Path(s string, fits func(string) bool) string {
	if fits(s) {
		return s
	}
	cut := lastSeparator(s)
	if cut < 0 {
		return Middle(s, fits)
	}
	head, leaf := []rune(s[:cut]), "…/"+s[cut+1:]
	if !fits(leaf) {
		return Middle(leaf, fits)
	}
	lo, hi := 0, len(head) // head[:lo] fits before the leaf; head[:hi+1] does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(string(head[:mid]) + leaf) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(head[:lo]) + leaf
}

// lastSeparator returns the index of the last "/" of s outside
// parentheses, or -1.
func lastSeparator(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
		case '/':
			if depth == 0 && i < len(s)-1 {
				return i
			}
		}
	}
	return -1
}

// Distinct returns names with what they all share at the start and
// at the end replaced by "…", so that each keeps the part that tells it
// from the others: "scorep_tea_leaf_baseline_8x12_trace" and
// "scorep_tea_leaf_optimized_8x12_trace" become "…baseline…" and
// "…optimized…". Shared parts are cut at separators (_ - . / space) and
// only when longer than the "…" that replaces them; names that do not
// differ, or a single name, are returned as they are.
func Distinct(names []string) []string {
	out := slices.Clone(names)
	if len(names) < 2 {
		return out
	}
	rs := make([][]rune, len(names))
	for i, n := range names {
		rs[i] = []rune(n)
	}
	shortest := len(rs[0])
	for _, r := range rs {
		shortest = min(shortest, len(r))
	}
	same := func(at func(r []rune) rune) bool {
		for _, r := range rs[1:] {
			if at(r) != at(rs[0]) {
				return false
			}
		}
		return true
	}
	pre := 0
	for pre < shortest && same(func(r []rune) rune { return r[pre] }) {
		pre++
	}
	if pre == shortest && slices.Equal(rs[0], rs[len(rs)-1]) && same(func(r []rune) rune { return rune(len(r)) }) {
		return out // all equal
	}
	// Back to just after a separator, keeping a separator-less name whole.
	for pre > 0 && !isNameSeparator(rs[0][pre-1]) {
		pre--
	}
	suf := 0
	for suf < shortest-pre && same(func(r []rune) rune { return r[len(r)-1-suf] }) {
		suf++
	}
	for suf > 0 && !isNameSeparator(rs[0][len(rs[0])-suf]) {
		suf--
	}
	const minCut = 3 // "…" is worth cutting only more than this
	if pre <= minCut {
		pre = 0
	}
	if suf <= minCut {
		suf = 0
	}
	for i, r := range rs {
		mid := string(r[pre : len(r)-suf])
		if pre > 0 {
			mid = "…" + mid
		}
		if suf > 0 {
			mid += "…"
		}
		out[i] = mid
	}
	return out
}

func isNameSeparator(r rune) bool { return strings.ContainsRune("_-./ ", r) }
