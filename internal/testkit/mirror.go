package testkit

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// MirrorEnv names an environment variable that, when set, overrides the
// folder of fetched repository snapshots (default: .mirror beside the
// repository root, e.g. /work/.mirror for /work/main).
const MirrorEnv = "CUBEVIEW_MIRRORS"

// repoRoot returns the folder holding go.mod above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// mirrorsDir returns the folder of fetched snapshots.
func mirrorsDir() (string, error) {
	if d := os.Getenv(MirrorEnv); d != "" {
		return d, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(root), ".mirror"), nil
}

// Mirror returns the git directory of the fetched snapshot of the public
// repository owner/name, or skips the test with a message naming it when
// no snapshot is on this machine: snapshots are never part of the
// repository.
func Mirror(t testing.TB, repo string) string {
	t.Helper()
	dir, err := mirrorsDir()
	if err != nil {
		t.Skipf("snapshot of %s not available: %v", repo, err)
	}
	base := filepath.Join(dir, strings.Replace(repo, "/", "+", 1))
	for _, cand := range []string{filepath.Join(base, "repo"), filepath.Join(base, "repo", ".git"), base} {
		if fi, err := os.Stat(filepath.Join(cand, "HEAD")); err == nil && !fi.IsDir() {
			return cand
		}
	}
	t.Skipf("no snapshot of %s under %s (fetch it with the search tool to run this test)", repo, dir)
	return ""
}

var extractMu sync.Mutex

// MirrorFiles returns local copies of the files of the snapshot of repo
// (owner/name, at its HEAD) whose path inside the repository satisfies
// match, in the order git lists them, keyed by that path. The copies live
// in a cache folder (os.UserCacheDir()/cubeview/mirror/…/<commit>/) and
// are extracted once. The test is skipped when the snapshot is absent.
// Files the snapshot lacks (large ones, Git LFS pointers) are left out.
func MirrorFiles(t testing.TB, repo string, match func(path string) bool) (paths []string, local map[string]string) {
	t.Helper()
	return MirrorFilesAt(t, repo, "HEAD", match)
}

// MirrorFilesAt is MirrorFiles at revision rev of the snapshot (a commit
// of its history), for files a repository held once but no longer does.
// The test fails when the snapshot lacks the revision.
func MirrorFilesAt(t testing.TB, repo, rev string, match func(path string) bool) (paths []string, local map[string]string) {
	t.Helper()
	gitDir := Mirror(t, repo)
	commit, err := git(gitDir, nil, "rev-parse", "--verify", rev+"^{commit}")
	if err != nil {
		t.Fatalf("snapshot of %s: %v", repo, err)
	}
	commit = strings.TrimSpace(commit)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dest := filepath.Join(cache, "cubeview", "mirror", strings.Replace(repo, "/", "+", 1), commit)
	list, err := git(gitDir, nil, "ls-tree", "-r", "-z", "--format=%(objecttype) %(objectname) %(path)", commit)
	if err != nil {
		t.Fatalf("snapshot of %s: %v", repo, err)
	}
	type blob struct{ id, path string }
	var want []blob
	for _, rec := range strings.Split(list, "\x00") {
		f := strings.SplitN(rec, " ", 3)
		if len(f) != 3 || f[0] != "blob" || !match(f[2]) {
			continue
		}
		want = append(want, blob{f[1], f[2]})
	}
	extractMu.Lock()
	defer extractMu.Unlock()
	local = make(map[string]string, len(want))
	var missing []blob
	for _, b := range want {
		p := filepath.Join(dest, filepath.FromSlash(b.path))
		local[b.path] = p
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, b)
		}
	}
	if len(missing) > 0 {
		var in bytes.Buffer
		for _, b := range missing {
			in.WriteString(b.id + "\n")
		}
		cmd := exec.Command("git", "--git-dir", gitDir, "cat-file", "--batch")
		cmd.Stdin = &in
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("snapshot of %s: %v", repo, err)
		}
		r := bufio.NewReader(out)
		for _, b := range missing {
			header, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("snapshot of %s: reading %s: %v", repo, b.path, err)
			}
			f := strings.Fields(header)
			if len(f) != 3 { // "<id> missing": the snapshot lacks the blob
				delete(local, b.path)
				continue
			}
			size, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				t.Fatalf("snapshot of %s: bad header %q", repo, header)
			}
			data := make([]byte, size+1) // content and its trailing newline
			if _, err := io.ReadFull(r, data); err != nil {
				t.Fatalf("snapshot of %s: reading %s: %v", repo, b.path, err)
			}
			p := local[b.path]
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			tmp := p + ".tmp"
			if err := os.WriteFile(tmp, data[:size], 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("snapshot of %s: %v", repo, err)
		}
	}
	for _, b := range want {
		if _, ok := local[b.path]; ok {
			paths = append(paths, b.path)
		}
	}
	return paths, local
}

func git(gitDir string, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", gitDir}, args...)...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// CorpusTimeEnv names an environment variable that sets how long a corpus
// test may start new files (a Go duration; "0" for no limit).
const CorpusTimeEnv = "CUBEVIEW_CORPUS_TIME"

// CorpusBudget returns a function that reports whether a corpus test may
// still start another file: for 10 seconds (or $CUBEVIEW_CORPUS_TIME)
// from this call, so that a corpus of hundreds of files keeps "make
// test" short; the test logs how many files it checked.
func CorpusBudget(t testing.TB) func() bool {
	t.Helper()
	d := 10 * time.Second
	if s := os.Getenv(CorpusTimeEnv); s != "" {
		v, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("%s=%q: %v", CorpusTimeEnv, s, err)
		}
		d = v
	}
	end := time.Now().Add(d)
	return func() bool { return d == 0 || time.Now().Before(end) }
}
