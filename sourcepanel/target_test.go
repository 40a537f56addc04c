package sourcepanel

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cubeview/internal/testkit/handmade"
	"cubeview/sourceview"
	"cubeview/view"
)

func TestSourceTarget(t *testing.T) {
	tests := []struct {
		name string
		edit func(v *view.View)
		sel  view.Node
		want Target
	}{
		{"definition", nil, cFoo,
			Target{File: "foo.c", Focus: 3, Begin: 3, End: 9, LexFrom: 3, What: "region foo, lines 3–9"}},
		{"one-line definition", func(v *view.View) { v.Experiment().Regions[1].End = 0 }, cFoo,
			Target{File: "foo.c", Focus: 3, Begin: 3, End: 3, LexFrom: 3, What: "region foo, line 3"}},
		// bar without lines: its call site in foo.c, lexed from foo's definition.
		{"call site", func(v *view.View) { v.Experiment().Regions[2].Module, v.Experiment().Regions[2].Begin = "MPI", 0 }, cBar3,
			Target{File: "foo.c", Focus: 6, Begin: 6, End: 6, LexFrom: 3, What: "call of bar, line 6"}},
		{"region file only", func(v *view.View) { v.Experiment().Regions[0].Begin = 0 }, cMain,
			Target{File: "main.c", What: "region main"}},
		{"nothing recorded", func(v *view.View) { v.Experiment().Regions[0].Module, v.Experiment().Regions[0].Begin = "MPI", 0 }, cMain,
			Target{None: "No source location is recorded for main."}},
		{"flat region: its definition", func(v *view.View) { v.SetFlat(true) }, rFoo,
			Target{File: "foo.c", Focus: 3, Begin: 3, End: 9, LexFrom: 3, What: "region foo, lines 3–9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := view.NewView(handMade())
			if tt.edit != nil {
				tt.edit(v)
			}
			mustUpdate(t, v)
			v.Select(view.CallPane, tt.sel)
			if got := targetOf(v); got != tt.want {
				t.Errorf("Target() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSourceTargetLines(t *testing.T) {
	tgt := Target{File: "/src/foo.c", Focus: 10, Begin: 10, End: 12, What: "region foo, lines 10–12"}
	if got := tgt.title(); got != "foo.c — region foo, lines 10–12" {
		t.Errorf("Title() = %q", got)
	}
	if (Target{}).title() != "Source" {
		t.Errorf("empty target's title %q", (Target{}).title())
	}
	for line, want := range map[int]bool{9: false, 10: true, 12: true, 13: false} {
		if tgt.Shaded(line) != want {
			t.Errorf("Shaded(%d) = %v", line, !want)
		}
	}
	if (Target{}).Shaded(0) {
		t.Error("a target without lines shades line 0")
	}
	if got := tgt.TopRow(); got != 10-1-contextAbove {
		t.Errorf("TopRow() = %d, want %d", got, 10-1-contextAbove)
	}
	if got := (Target{Focus: 2}).TopRow(); got != 0 {
		t.Errorf("TopRow near the top = %d, want 0", got)
	}
}

func TestLooksLikeFile(t *testing.T) {
	for s, want := range map[string]bool{"": false, "MPI": false, "solver.c": true, "src/solver": true, `C:\x`: true} {
		if LooksLikeFile(s) != want {
			t.Errorf("LooksLikeFile(%q) = %v", s, !want)
		}
	}
}

func TestSourceInfoAndProblem(t *testing.T) {
	tgt := Target{File: "foo.c"}
	f := &File{Path: "/src/foo.c", Lexer: "C"}
	tests := []struct {
		f       *File
		err     error
		dropped int
		values  string
		want    string
	}{
		{f, nil, 0, "", "C · highlighting … · /src/foo.c"},
		{&File{Path: "/src/foo.c", Lexer: "C", Exact: true}, nil, 2, "Time, inclusive, absolute",
			"2 annotations beyond the last line: the file differs from the measured one · values: Time, inclusive, absolute · C · /src/foo.c"},
		{nil, nil, 0, "", "reading …"},
		{nil, errors.New("permission denied"), 0, "", "permission denied"},
	}
	for _, tt := range tests {
		if got := infoLine(tgt, tt.f, tt.err, tt.dropped, tt.values); got != tt.want {
			t.Errorf("infoLine = %q, want %q", got, tt.want)
		}
	}
	if got := infoLine(Target{}, f, nil, 1, "x"); got != "" {
		t.Errorf("infoLine without a target = %q", got)
	}
	notFound := fmt.Errorf("foo.c: %w", sourceview.ErrNotFound)
	if got := problem("foo.c", notFound); !strings.Contains(got, "foo.c was not found") || !strings.Contains(got, "Locate it") {
		t.Errorf("problem(not found) = %q", got)
	}
	if got := problem("foo.c", errors.New("binary file")); got != "The source file cannot be shown: binary file" {
		t.Errorf("problem = %q", got)
	}
}

func TestNoteTexts(t *testing.T) {
	e := handMade()
	notes := []Note{
		{Annotation: sourceview.Annotation{Kind: sourceview.RegionBegin, Index: 1, Name: "foo"}, Cell: view.Cell{Text: "13"}},
		{Annotation: sourceview.Annotation{Kind: sourceview.CallSite, Index: 3, Name: "bar"}, Cell: view.Cell{Text: "2"}},
	}
	if got, want := NoteText(notes), "◂ region foo · call bar 2"; got != want {
		t.Errorf("NoteText = %q, want %q", got, want)
	}
	if NoteText(nil) != "" {
		t.Error("NoteText(nil) is not empty")
	}
	want := "region foo: 13 · call of bar (" + e.CallPath(3) + "): 2 — Time; double-click selects the call"
	if got := DescribeNotes(e, notes, "Time"); got != want {
		t.Errorf("DescribeNotes = %q, want %q", got, want)
	}
	if c, ok := FirstCallSite(notes); !ok || c != 3 {
		t.Errorf("FirstCallSite = %d, %v; want 3", c, ok)
	}
	if _, ok := FirstCallSite(notes[:1]); ok {
		t.Error("FirstCallSite found a call site among region beginnings")
	}
	if got := LineNumberSample(12345); got != "00000" {
		t.Errorf("LineNumberSample(12345) = %q", got)
	}
}

func TestExpandTabs(t *testing.T) {
	tests := []struct {
		in      string
		col     int
		want    string
		wantCol int
	}{
		{"abc", 0, "abc", 3},
		{"\tx", 0, "        x", 9},
		{"\tx", 3, "     x", 9},
		{"ab\tc", 6, "ab        c", 17},
		{"é\t", 0, "é       ", 8}, // columns count runes, not bytes
	}
	for _, tt := range tests {
		got, col := expandTabs(tt.in, tt.col)
		if got != tt.want || col != tt.wantCol {
			t.Errorf("expandTabs(%q, %d) = %q, %d; want %q, %d", tt.in, tt.col, got, col, tt.want, tt.wantCol)
		}
	}
}

func TestDrawnSpans(t *testing.T) {
	line := &sourceview.Line{Spans: []sourceview.Span{{Text: "\tint", Category: sourceview.Type}, {Text: "\tx;"}}}
	got := DrawnSpans(line)
	want := []sourceview.Span{{Text: "        int", Category: sourceview.Type}, {Text: "     x;"}}
	if !slices.Equal(got, want) {
		t.Errorf("DrawnSpans = %q, want %q", got, want)
	}
	long := &sourceview.Line{}
	for range maxLineRunes/100 + 5 {
		long.Spans = append(long.Spans, sourceview.Span{Text: strings.Repeat("x", 100)})
	}
	if got := len(DrawnSpans(long)); got != maxLineRunes/100 {
		t.Errorf("a long line draws %d spans, want %d", got, maxLineRunes/100)
	}
}

func TestSyntaxColor(t *testing.T) {
	fg := color.NRGBA{1, 2, 3, 255}
	if SyntaxColor(sourceview.Plain, true, fg) != fg || SyntaxColor(sourceview.Plain, false, fg) != fg {
		t.Error("plain text does not take the foreground colour")
	}
	for _, c := range []sourceview.Category{sourceview.Keyword, sourceview.Type, sourceview.Builtin, sourceview.Function,
		sourceview.String, sourceview.Number, sourceview.Comment, sourceview.Preprocessor} {
		light, dark := SyntaxColor(c, false, fg), SyntaxColor(c, true, fg)
		if light == fg || light == dark {
			t.Errorf("%v: light %v, dark %v", c, light, dark)
		}
		// Text must stand out from its background.
		if IsDark(light) == IsDark(color.White) || IsDark(dark) == IsDark(color.Black) {
			t.Errorf("%v: light %v or dark %v does not contrast with its background", c, light, dark)
		}
	}
	if !IsDark(color.Black) || IsDark(color.White) {
		t.Error("IsDark mixes up black and white")
	}
}

func TestLoadSource(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.c")
	if err := os.WriteFile(small, []byte("int main(void)\n{\n\treturn 0;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &sourceview.Resolver{Base: dir}
	var cache cache
	res := load(t.Context(), r, Target{File: "small.c"}, &cache)
	if res.Err != nil || !res.File.Exact || len(res.File.Lines) != 4 || res.File.Path != small || res.File.Lexer != "C" {
		t.Fatalf("load(small) = %+v", res)
	}
	if again := load(t.Context(), r, Target{File: "small.c"}, &cache); again.File != res.File {
		t.Error("an unchanged file is read again")
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(small, later, later); err != nil {
		t.Fatal(err)
	}
	if again := load(t.Context(), r, Target{File: "small.c"}, &cache); again.File == res.File {
		t.Error("a changed file comes from the cache")
	}
	if res := load(t.Context(), r, Target{File: "missing.c"}, &cache); !errors.Is(res.Err, sourceview.ErrNotFound) {
		t.Errorf("missing file: %v, want ErrNotFound", res.Err)
	}

	// A large file: the lines around the target first, then all.
	const functions = 1000
	path, _ := handmade.BigSource(t, functions)
	begin := 10*900 + 2
	tgt := Target{File: path, Focus: begin, Begin: begin, End: begin + 7, LexFrom: begin}
	res = load(t.Context(), r, tgt, &cache)
	if res.Err != nil || res.File.Exact || len(res.File.Lines) != 10*functions || res.Text == "" {
		t.Fatalf("load(large) = %v, exact %v, want %d lines not yet highlighted completely", res.Err, res.File != nil && res.File.Exact, 10*functions)
	}
	category := func(f *File, line int, text string) sourceview.Category {
		for _, s := range f.Lines[line-1].Spans {
			if strings.Contains(s.Text, text) {
				return s.Category
			}
		}
		t.Fatalf("line %d has no span with %q", line, text)
		return 0
	}
	if c := category(res.File, begin+3, "for"); c != sourceview.Keyword {
		t.Errorf("line %d: \"for\" is %v around the target, want keyword", begin+3, c)
	}
	if c := category(res.File, 5, "for"); c != sourceview.Plain {
		t.Errorf("line 5: \"for\" is %v before the complete highlighting, want plain", c)
	}
	full := highlightAll(t.Context(), res, &cache)
	if full == nil || !full.Exact || category(full, 5, "for") != sourceview.Keyword {
		t.Fatal("highlightAll left line 5 plain")
	}
	if again := load(t.Context(), r, tgt, &cache); again.File != full {
		t.Error("the complete highlighting is not cached")
	}
}

func TestSourceCacheKeepsRecent(t *testing.T) {
	var c cache
	for i := range cachedSources + 2 {
		c.put(&File{Path: fmt.Sprint(i)})
	}
	c.put(&File{Path: "3"}) // again: moves to the end, no duplicate
	var paths []string
	for _, f := range c.files {
		paths = append(paths, f.Path)
	}
	if want := []string{"2", "4", "5", "6", "7", "3"}; !slices.Equal(paths, want) {
		t.Errorf("cached %v, want %v", paths, want)
	}
}

// BenchmarkSourceFirstView50k measures how long a 50k-line file takes
// until the panel can show the selected region (reading, plain lines,
// highlighting around the region); the complete highlighting follows.
func BenchmarkSourceFirstView50k(b *testing.B) {
	path, _ := handmade.BigSource(b, 5000)
	t := Target{File: path, Focus: 40002, Begin: 40002, End: 40009, LexFrom: 40002}
	r := &sourceview.Resolver{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var cache cache
		res := load(b.Context(), r, t, &cache)
		if res.Err != nil || res.File.Exact || len(res.File.Lines) != 50000 {
			b.Fatalf("load: %v", res.Err)
		}
	}
}
