package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"cubeview/internal/testkit"
)

// TestPerfDiffTextWidth checks that perfdiff's table prints each focus's
// call path last and unpadded, so that one deep call path does not widen
// every line (lines were padded to the longest, 215 characters on a
// Scalasca run): every row ends with its call path, the columns before it
// are aligned, and no line ends in spaces.
func TestPerfDiffTextWidth(t *testing.T) {
	dir := "lulesh"
	a := testkit.Data(t, "cube4", dir, "lulesh.p27.size25.r1.cubex")
	b := testkit.Data(t, "cube4", dir, "lulesh.p27.size30.r1.cubex")
	// Ranked (held, --top 100 ≥ all) and streamed in call-tree order
	// (--top 0): the CSV has the text's order in both.
	for _, top := range []string{"100", "0"} {
		_, rows := readCSV(t, mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.01", "--relative", "--csv", "--top", top))
		var paths []string
		for _, r := range rows {
			if r[0] == "differs" {
				paths = append(paths, r[1])
			}
		}
		text := mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.01", "--relative", "--top", top)
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		head := -1
		for i, l := range lines {
			if strings.HasSuffix(l, "call path") && strings.Contains(l, "A − B") {
				head = i
			}
		}
		if head < 0 || len(lines)-head-1 < len(paths) || len(paths) < 10 {
			t.Fatalf("--top %s: no table of %d foci ending in a call path column:\n%s", top, len(paths), text)
		}
		lead := utf8.RuneCountInString(lines[head]) - utf8.RuneCountInString("call path")
		for i, l := range lines[head+1 : head+1+len(paths)] {
			p := paths[i]
			if !strings.HasSuffix(l, "  "+p) || utf8.RuneCountInString(l)-utf8.RuneCountInString(p) != lead {
				t.Errorf("--top %s: row %d %q does not end in its call path %q at column %d", top, i, l, p, lead)
			}
		}
		if rest := lines[head+1+len(paths):]; top == "100" && len(rest) != 0 || top == "0" && (len(rest) != 3 || rest[0] != "" ||
			!strings.HasPrefix(rest[2], fmt.Sprintf("%d differing foci, ", len(paths)))) {
			t.Errorf("--top %s: after the table: %q", top, rest)
		}
		for _, l := range lines {
			if strings.HasSuffix(l, " ") {
				t.Errorf("padded line %q", l)
			}
		}
	}
}

// TestPerfDiffStreamedCSV: the CSV written focus by focus as the search
// finds them (--top 0, the default) has the rows of the held one, and
// reads back with encoding/csv (LULESH's call paths hold commas, quoted).
func TestPerfDiffStreamedCSV(t *testing.T) {
	a := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	b := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size30.r1.cubex")
	streamed := mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.001", "--relative", "--csv")
	hs, rs := readCSV(t, streamed)
	hh, rh := readCSV(t, mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.001", "--relative", "--csv", "--top", "1000000"))
	if !slices.Equal(hs, hh) || len(rs) != len(rh) || len(rs) < 100 {
		t.Fatalf("streamed: %v, %d rows; held: %v, %d rows", hs, len(rs), hh, len(rh))
	}
	key := func(r []string) string { return strings.Join(r, "\x00") }
	var ks, kh []string
	for i := range rs {
		ks, kh = append(ks, key(rs[i])), append(kh, key(rh[i]))
	}
	slices.Sort(ks)
	slices.Sort(kh)
	if !slices.Equal(ks, kh) {
		t.Error("streamed and held CSV rows differ")
	}
	if !strings.Contains(streamed, `"lulesh2.0/int main(int, char**)`) {
		t.Error("no quoted call path in the streamed CSV")
	}
}
