package elide

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestMiddle(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int // in characters
		want  string
	}{
		{"main/solve/exchange", 40, "main/solve/exchange"},
		{"main/solve/exchange", 19, "main/solve/exchange"},
		{"main/solve/exchange", 18, "main/solv…exchange"},
		{"abcdefghij", 5, "ab…ij"},
		{"abcdefghij", 4, "ab…j"},
		{"äöüßéàèù", 6, "äöü…èù"},
		{"abcdefghij", 1, "…"},
		{"abcdefghij", 0, "…"},
	} {
		fits := func(s string) bool { return utf8.RuneCountInString(s) <= tc.width }
		if got := Middle(tc.s, fits); got != tc.want {
			t.Errorf("Middle(%q, %d chars) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

func TestPath(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int // in characters
		want  string
	}{
		{"main/solve/exchange", 40, "main/solve/exchange"},
		{"main/solve/exchange", 18, "main/sol…/exchange"},
		{"main/solve/exchange", 12, "ma…/exchange"},
		{"main/solve/exchange", 10, "…/exchange"},
		{"main/solve/exchange", 6, "…/e…ge"},
		{"main/f(a/b)", 9, "m…/f(a/b)"}, // the signature's slash is not a separator
		{"MPI_Allreduce", 8, "MPI_…uce"},
		{"node 3/rank 12", 12, "nod…/rank 12"},
	} {
		fits := func(s string) bool { return utf8.RuneCountInString(s) <= tc.width }
		if got := Path(tc.s, fits); got != tc.want {
			t.Errorf("Path(%q, %d chars) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

func TestDistinctNameParts(t *testing.T) {
	for _, tc := range []struct {
		names, want []string
	}{
		{[]string{"scorep_tea_leaf_baseline_8x12_trace", "scorep_tea_leaf_optimized_8x12_trace"}, []string{"…baseline…", "…optimized…"}},
		{[]string{"lulesh.p27.size25.r1", "lulesh.p27.size30.r1"}, []string{"…size25.r1", "…size30.r1"}},
		{[]string{"before", "after"}, []string{"before", "after"}},
		{[]string{"run1", "run2", "run3"}, []string{"run1", "run2", "run3"}}, // no separator: whole
		{[]string{"a_x", "a_y"}, []string{"a_x", "a_y"}},                     // too short to cut
		{[]string{"same_name", "same_name"}, []string{"same_name", "same_name"}},
		{[]string{"p64/summary.cubex", "p128/summary.cubex"}, []string{"p64…", "p128…"}},
		{[]string{"only"}, []string{"only"}},
	} {
		if got := Distinct(tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("Distinct(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
