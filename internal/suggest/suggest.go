// Package suggest offers the names a mistyped word was probably meant to
// be ("did you mean …?"), for every message about an unknown name.
package suggest

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxSuggestions is how many names a "did you mean" offers at most.
const MaxSuggestions = 5

// Names returns up to MaxSuggestions of the candidates that word was
// probably meant to be, closest first: those that start with it or that
// it starts with, and those within a few typing mistakes (edit distance,
// ignoring case). Ties keep the candidates' order.
func Names(word string, candidates []string) []string {
	w := strings.ToLower(word)
	if w == "" {
		return nil
	}
	type scored struct {
		name string
		cost int
	}
	var found []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if seen[c] || lc == "" {
			continue
		}
		seen[c] = true
		d := editDistance(w, lc)
		limit := max(1, min(utf8.RuneCountInString(w), utf8.RuneCountInString(lc))/3)
		switch {
		case d <= limit:
		case len(w) >= 2 && (strings.HasPrefix(lc, w) || strings.HasPrefix(w, lc) && len(lc) >= 3):
			d = limit + 1 // a prefix is a weaker hint than a typo
		default:
			continue
		}
		found = append(found, scored{c, d})
	}
	slices.SortStableFunc(found, func(a, b scored) int { return a.cost - b.cost })
	out := make([]string, 0, min(len(found), MaxSuggestions))
	for i := 0; i < len(found) && i < MaxSuggestions; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// DidYouMean renders suggestions as "; did you mean a, b or c?", or ""
// when there are none.
func DidYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "; did you mean " + names[0] + "?"
	}
	return "; did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?"
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, in runes.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}

// BriefList joins up to MaxSuggestions names and says how many more
// there are: "a, b, c, d, e and 2 more".
func BriefList(names []string) string {
	if len(names) <= MaxSuggestions {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:MaxSuggestions], ", "), len(names)-MaxSuggestions)
}
