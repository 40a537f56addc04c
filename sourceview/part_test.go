package sourceview_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"cubeview/sourceview"
)

// TestHighlightPart checks that lexing a part of a file from the start of
// a top-level definition gives exactly the spans of the whole file's
// highlighting, numbered as in the file.
func TestHighlightPart(t *testing.T) {
	tests := []struct {
		file        string
		first, last int
	}{
		{"jacobi.c", 1, 30},
		{"jacobi.c", 9, 15},  // sweep
		{"jacobi.c", 17, 30}, // main
		{"jacobi.c", 17, 99}, // clipped at the end
		{"jacobi.c", -5, 3},  // clipped at the start
		{"smooth.f90", 1, 15},
		{"relax.f", 1, 12},
		{"main.go", 3, 7},
		{"plot.py", 1, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s:%d-%d", tt.file, tt.first, tt.last), func(t *testing.T) {
			all, lexer := highlight(t, tt.file)
			part, partLexer, err := sourceview.HighlightPart(context.Background(), tt.file, readTestdata(t, tt.file), tt.first, tt.last)
			if err != nil {
				t.Fatal(err)
			}
			if partLexer != lexer {
				t.Errorf("lexer %q, Highlight uses %q", partLexer, lexer)
			}
			first, last := max(tt.first, 1), min(tt.last, len(all))
			if len(part) != last-first+1 {
				t.Fatalf("%d lines, want %d", len(part), last-first+1)
			}
			for i, l := range part {
				want := all[first-1+i]
				if !reflect.DeepEqual(l, want) {
					t.Errorf("line %d:\n got %s\nwant %s", first+i, dumpLine(l), dumpLine(want))
				}
			}
		})
	}
}

func TestHighlightPartOutside(t *testing.T) {
	text := readTestdata(t, "jacobi.c")
	for _, r := range [][2]int{{31, 40}, {20, 19}} {
		part, lexer, err := sourceview.HighlightPart(context.Background(), "jacobi.c", text, r[0], r[1])
		if err != nil || len(part) != 0 || lexer != "C" {
			t.Errorf("HighlightPart(lines %d–%d) = %d lines, %q, %v; want none, \"C\", nil", r[0], r[1], len(part), lexer, err)
		}
	}
}

func TestHighlightPartCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	text, _ := generatedC("kernels.c")
	if _, _, err := sourceview.HighlightPart(ctx, "kernels.c", text, 1, 20000); err != context.Canceled {
		t.Errorf("HighlightPart with a cancelled context: %v, want %v", err, context.Canceled)
	}
}
