package sourceview_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/sourceview"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	text, err := sourceview.Read(filepath.Join("testdata", name), 0)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func highlight(t testing.TB, name string) ([]sourceview.Line, string) {
	t.Helper()
	lines, lexer, err := sourceview.Highlight(context.Background(), name, readTestdata(t, name))
	if err != nil {
		t.Fatalf("Highlight(%s): %v", name, err)
	}
	return lines, lexer
}

func TestLexer(t *testing.T) {
	tests := []struct{ file, lexer string }{
		{"jacobi.c", "C"},
		{"stencil.cpp", "C++"},
		{"relax.f", "FortranFixed"},
		{"smooth.f90", "Fortran"},
		{"legacy.f", "Fortran"}, // .f in free form
		{"main.go", "Go"},
		{"plot.py", "Python"},
		{"runscript", "Python"}, // no extension: "#!/usr/bin/env python3"
		{"notes.txt", "plaintext"},
	}
	for _, tt := range tests {
		if _, got := highlight(t, tt.file); got != tt.lexer {
			t.Errorf("%s: lexer %q, want %q", tt.file, got, tt.lexer)
		}
	}
}

// TestLexerByContent checks files whose name says nothing about the language.
func TestLexerByContent(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // acceptable lexers
	}{
		{"fixed", "      PROGRAM MAIN\n      PRINT *, 'HI'\n      END\n", []string{"FortranFixed"}},
		{"free", "program main\n  implicit none\n  print *, 'hi'\nend program main\n", []string{"Fortran"}},
		{"cfile", "#include <stdio.h>\nint main(void) { return 0; }\n", []string{"C", "C++"}},
		{"text", "just some words\n", []string{"plaintext"}},
	}
	for _, tt := range tests {
		if got := sourceview.Language(tt.name, tt.text); !contains(tt.want, got) {
			t.Errorf("Language(%q) = %q, want one of %q", tt.text, got, tt.want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestHighlightKeepsText checks that every file's spans give back its
// lines exactly, numbered from 1.
func TestHighlightKeepsText(t *testing.T) {
	files, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			continue
		}
		name := filepath.Base(f)
		text := readTestdata(t, name)
		lines, _ := highlight(t, name)
		want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) != len(want) {
			t.Errorf("%s: %d lines, want %d", name, len(lines), len(want))
			continue
		}
		for i := range lines {
			if lines[i].Number != i+1 {
				t.Errorf("%s: line %d numbered %d", name, i+1, lines[i].Number)
			}
			if got := lines[i].Text(); got != want[i] {
				t.Errorf("%s:%d: spans give %q, want %q", name, i+1, got, want[i])
			}
			for _, s := range lines[i].Spans {
				if s.Text == "" || strings.Contains(s.Text, "\n") {
					t.Errorf("%s:%d: bad span %q", name, i+1, s.Text)
				}
			}
		}
	}
}

// TestHighlightCategories spot-checks tokens whose category is beyond doubt.
func TestHighlightCategories(t *testing.T) {
	tests := []struct {
		file     string
		line     int
		text     string
		category sourceview.Category
	}{
		{"jacobi.c", 1, "/* jacobi.c -- one Jacobi sweep with a halo exchange */", sourceview.Comment},
		{"jacobi.c", 2, "#include", sourceview.Preprocessor},
		{"jacobi.c", 9, "static", sourceview.Keyword},
		{"jacobi.c", 9, "void", sourceview.Type},
		{"jacobi.c", 13, "0.25", sourceview.Number},
		{"jacobi.c", 27, `"jacobi"`, sourceview.String},
		{"jacobi.c", 29, "return", sourceview.Keyword},
		{"relax.f", 1, "C     RELAX.F -- FIXED-FORM RELAXATION SWEEP", sourceview.Comment},
		{"relax.f", 2, "SUBROUTINE", sourceview.Keyword},
		{"relax.f", 8, "0.5D0", sourceview.Number},
		{"relax.f", 10, "CALL", sourceview.Keyword},
		{"smooth.f90", 1, "! smooth.f90 -- free-form smoother", sourceview.Comment},
		{"smooth.f90", 5, "subroutine", sourceview.Keyword},
		{"smooth.f90", 13, `"smoothed"`, sourceview.String},
		{"main.go", 5, "func", sourceview.Keyword},
		{"plot.py", 4, "def", sourceview.Keyword},
		{"stencil.cpp", 7, "// accumulate", sourceview.Comment},
	}
	for _, tt := range tests {
		lines, _ := highlight(t, tt.file)
		found := false
		for _, s := range lines[tt.line-1].Spans {
			if strings.TrimSpace(s.Text) == tt.text {
				found = true
				if s.Category != tt.category {
					t.Errorf("%s:%d: %q is %s, want %s", tt.file, tt.line, tt.text, s.Category, tt.category)
				}
			}
		}
		if !found {
			t.Errorf("%s:%d: no span %q in %q", tt.file, tt.line, tt.text, dumpLine(lines[tt.line-1]))
		}
	}
}

func dumpLine(l sourceview.Line) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%4d", l.Number)
	for _, s := range l.Spans {
		fmt.Fprintf(&sb, " %s:%q", s.Category, s.Text)
	}
	for _, a := range l.Annotations {
		fmt.Fprintf(&sb, " [%s]", a)
	}
	return sb.String()
}

// TestGolden compares complete span dumps with testdata/golden; run
// "go test ./sourceview -update" to rewrite them after checking the diff.
func TestGolden(t *testing.T) {
	for _, name := range []string{"jacobi.c", "relax.f", "smooth.f90"} {
		lines, lexer := highlight(t, name)
		var sb strings.Builder
		fmt.Fprintf(&sb, "lexer %s\n", lexer)
		for _, l := range lines {
			sb.WriteString(dumpLine(l))
			sb.WriteByte('\n')
		}
		testkit.Golden(t, filepath.Join("golden", name+".spans"), []byte(sb.String()))
	}
}

func TestHighlightCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := sourceview.Highlight(ctx, "jacobi.c", readTestdata(t, "jacobi.c"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Highlight with a cancelled context: error %v, want context.Canceled", err)
	}
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"a\n", []string{"a"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"\n\n", []string{"", ""}},
	}
	for _, tt := range tests {
		lines := sourceview.SplitLines(tt.text)
		if len(lines) != len(tt.want) {
			t.Errorf("SplitLines(%q): %d lines, want %d", tt.text, len(lines), len(tt.want))
			continue
		}
		for i, l := range lines {
			if l.Number != i+1 || l.Text() != tt.want[i] {
				t.Errorf("SplitLines(%q) line %d = %d %q, want %d %q", tt.text, i, l.Number, l.Text(), i+1, tt.want[i])
			}
			for _, s := range l.Spans {
				if s.Category != sourceview.Plain {
					t.Errorf("SplitLines(%q) line %d has a %s span", tt.text, i+1, s.Category)
				}
			}
		}
	}
}
