package cli

import (
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
	_, rows := readCSV(t, mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.01", "--relative", "--csv"))
	var paths []string
	for _, r := range rows {
		if r[0] == "differs" {
			paths = append(paths, r[1])
		}
	}
	text := mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.01", "--relative")
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	head := -1
	for i, l := range lines {
		if strings.HasSuffix(l, "call path") && strings.Contains(l, "A − B") {
			head = i
		}
	}
	if head < 0 || len(lines)-head-1 != len(paths) || len(paths) < 10 {
		t.Fatalf("no table of %d foci ending in a call path column:\n%s", len(paths), text)
	}
	lead := utf8.RuneCountInString(lines[head]) - utf8.RuneCountInString("call path")
	for i, l := range lines[head+1:] {
		p := paths[i]
		if !strings.HasSuffix(l, "  "+p) || utf8.RuneCountInString(l)-utf8.RuneCountInString(p) != lead {
			t.Errorf("row %d %q does not end in its call path %q at column %d", i, l, p, lead)
		}
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("padded line %q", l)
		}
	}
}
