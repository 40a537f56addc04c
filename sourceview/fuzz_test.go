package sourceview_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/sourceview"
)

// fuzzNames are the file names FuzzHighlight tries: one per language the
// tests know, and names that leave the choice to the content. The name is
// picked by a byte rather than fuzzed as a string: every new name would
// send chroma through all its lexers' patterns, which left the fuzzer a
// few hundred executions in its ten seconds.
var fuzzNames = []string{"jacobi.c", "relax.f", "smooth.f90", "legacy.f", "main.go", "plot.py", "notes.txt", "kernel.cu", "x.F", "README", "run.zz"}

// maxFuzzText bounds the inputs fuzzed: longer ones take lexing time
// without reaching code that short ones do not.
const maxFuzzText = 512

// FuzzHighlight checks that any decodable input highlights under any
// name without error and that the spans give back the text.
func FuzzHighlight(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(nameIndex(filepath.Base(p)), data)
		}
	}
	f.Add(nameIndex("x.F"), []byte("      X = 1\n\tY = 2 &\n"))
	f.Add(nameIndex("jacobi.c"), []byte("/* unterminated"))
	f.Add(nameIndex("run.zz"), []byte("#!/usr/bin/env python3\nprint(1)\n"))
	f.Fuzz(func(t *testing.T, pick uint8, data []byte) {
		name := fuzzNames[int(pick)%len(fuzzNames)]
		if len(data) > maxFuzzText {
			return // chroma lexes some 40 bytes a millisecond
		}
		text, err := sourceview.Decode(name, data)
		if err != nil {
			return
		}
		lines, _, err := sourceview.Highlight(context.Background(), name, text)
		if err != nil {
			t.Fatalf("Highlight: %v", err)
		}
		var sb strings.Builder
		for _, l := range lines {
			sb.WriteString(l.Text())
			sb.WriteByte('\n')
		}
		if got := strings.TrimSuffix(sb.String(), "\n"); got != strings.TrimSuffix(text, "\n") {
			t.Fatalf("spans give %q, want %q", got, text)
		}
	})
}

// nameIndex returns the index of name in fuzzNames, or of the last name.
func nameIndex(name string) uint8 {
	for i, n := range fuzzNames {
		if n == name {
			return uint8(i)
		}
	}
	return uint8(len(fuzzNames) - 1)
}
