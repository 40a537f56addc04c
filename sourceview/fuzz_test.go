package sourceview_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/sourceview"
)

// FuzzHighlight checks that any decodable input highlights under any
// name without error and that the spans give back the text.
func FuzzHighlight(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(filepath.Base(p), data)
		}
	}
	f.Add("x.f", []byte("      X = 1\n\tY = 2 &\n"))
	f.Add("x.c", []byte("/* unterminated"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
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
