package repo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"cubeview/internal/testkit"
)

// TestImportChecksumWhileReading: a file whose size no stored trial has
// is hashed by its reader while the import reads it (the staged trial
// has no checksum yet; the published one has the file's SHA-256), and
// importing it again is refused as a duplicate; with --force it is
// stored again under the same checksum. Real files: three Score-P
// .cubex and a CUBE 3 XML file.
func TestImportChecksumWhileReading(t *testing.T) {
	data := testkit.DataDir(t)
	files := []string{
		filepath.Join(data, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex"),
		filepath.Join(data, "cube4", "lulesh", "lulesh.p64.size25.r1.cubex"),
		filepath.Join(data, "cube4", "cpi", "profile.cubex"),
		filepath.Join(data, "cube3", "example3.cube"),
	}
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		var staged []string
		testHookStaged = func() {
			var sum string
			if err := r.db.QueryRowContext(ctx, `SELECT sha256 FROM trial WHERE state = 1`).Scan(r.d.str(&sum)); err != nil {
				t.Error(err)
			}
			staged = append(staged, sum)
		}
		defer func() { testHookStaged = nil }()
		for _, f := range files {
			content, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256(content)
			want := hex.EncodeToString(h[:])
			staged = nil
			id, err := r.Import(ctx, f, ImportOptions{})
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			tr, err := r.Trial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if tr.SHA256 != want || tr.Size != int64(len(content)) {
				t.Errorf("%s: stored %s, %d bytes; want %s, %d", f, tr.SHA256, tr.Size, want, len(content))
			}
			if len(staged) != 1 || staged[0] != "" {
				t.Errorf("%s: staged with checksum %q: the file was hashed before it was read", f, staged)
			}
			var dup *DuplicateError
			if _, err := r.Import(ctx, f, ImportOptions{}); !errors.As(err, &dup) || dup.Trial != id {
				t.Errorf("%s imported again: %v, want a duplicate of trial %d", f, err, id)
			}
			again, err := r.Import(ctx, f, ImportOptions{Force: true})
			if err != nil {
				t.Fatal(err)
			}
			if tr, _ := r.Trial(ctx, again); tr.SHA256 != want {
				t.Errorf("%s with force: stored %s, want %s", f, tr.SHA256, want)
			}
		}
	})
}
