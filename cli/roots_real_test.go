package cli

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// TestDiffRealRunsWithRenamedRoot: two LULESH runs, the second copied with
// its call-tree root region renamed in anchor.xml (Score-P names the root
// after the executable). diff matches the roots and gives the difference
// of the unrenamed pair, value for value; --strict-roots keeps them apart.
func TestDiffRealRunsWithRenamedRoot(t *testing.T) {
	a := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	b := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size30.r1.cubex")
	dir := t.TempDir()
	renamed := filepath.Join(dir, "lulesh_optimized.cubex")
	copyCubexEditing(t, b, renamed, func(anchor string) string {
		const root = "<name>lulesh2.0</name>"
		if strings.Count(anchor, root) != 1 {
			t.Fatalf("anchor.xml of %s does not name the root once", b)
		}
		return strings.Replace(anchor, root, "<name>lulesh2.0_optimized</name>", 1)
	})
	want, got := filepath.Join(dir, "want.cubex"), filepath.Join(dir, "got.cubex")
	if status, _, stderr := run("diff", a, b, "-o", want); status != 0 {
		t.Fatal(stderr)
	}
	status, summary, stderr := run("diff", a, renamed, "-o", got)
	if status != 0 {
		t.Fatal(stderr)
	}
	if !strings.Contains(summary, `roots are matched whatever their names: "lulesh2.0"`) || !strings.Contains(summary, "lulesh2.0_optimized") {
		t.Errorf("summary does not say the roots were matched:\n%s", summary)
	}
	_, wantDump, _ := run("dump", "--incl", want)
	_, gotDump, _ := run("dump", "--incl", got)
	if len(wantDump) < 1000 || gotDump != wantDump {
		t.Errorf("difference with the renamed root differs from the unrenamed pair's (%d and %d bytes of dump)", len(gotDump), len(wantDump))
	}
	_, tree, _ := run("tree", got)
	if !strings.Contains(tree, "lulesh2.0") || strings.Contains(tree, "lulesh2.0_optimized") {
		t.Errorf("result's root is not the first operand's:\n%s", firstLines(tree, 4))
	}

	strict := filepath.Join(dir, "strict.cubex")
	status, summary, stderr = run("diff", a, renamed, "-o", strict, "--strict-roots")
	if status != 0 {
		t.Fatal(stderr)
	}
	if !strings.Contains(summary, "24 of 24 call paths") || strings.Contains(summary, "roots are matched") {
		t.Errorf("with --strict-roots every call path should be in one operand only:\n%s", summary)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// copyCubexEditing copies the .cubex archive src to dst with its
// anchor.xml changed by edit.
func copyCubexEditing(t *testing.T, src, dst string, edit func(string) string) {
	t.Helper()
	in, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	tr, tw := tar.NewReader(bytes.NewReader(in)), tar.NewWriter(&out)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "anchor.xml" {
			body = []byte(edit(string(body)))
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
