package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
)

// TestRepoCommands drives every verb of "cubeview repo" on a fresh
// SQLite repository named by $CUBEVIEW_REPO, as references are.
func TestRepoCommands(t *testing.T) {
	data := testkit.DataDir(t)
	dir := t.TempDir()
	loc := filepath.Join(dir, "repo.db")
	t.Setenv("CUBEVIEW_REPO", loc)
	a := filepath.Join(data, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	b := filepath.Join(data, "cube4", "lulesh", "lulesh.p64.size25.r1.cubex")
	c := filepath.Join(data, "cube4", "cpi", "profile.cubex")

	status, _, errOut := run("repo", "import", c)
	if status != 1 || !strings.Contains(errOut, "repo init") {
		t.Fatalf("import into a repository not made yet: %d %q", status, errOut)
	}
	if status, _, errOut = run("repo", "init"); status != 0 {
		t.Fatalf("init: %d %q", status, errOut)
	}
	status, out, errOut := run("repo", "import", "--app", "lulesh", "--experiment", "scaling", "--attr", "compiler=gcc-13", a, b)
	if status != 0 || out != "1\n2\n" {
		t.Fatalf("import: status %d, stdout %q, stderr %q", status, out, errOut)
	}
	status, out, _ = run("repo", "--repo", loc, "import", "--name", "pi", c)
	if status != 0 || out != "3\n" {
		t.Fatalf("import with --repo: %d %q", status, out)
	}
	status, _, errOut = run("repo", "import", c)
	if status != 1 || !strings.Contains(errOut, "already stored as trial 3") || !strings.Contains(errOut, "--force") {
		t.Fatalf("duplicate import: %d %q", status, errOut)
	}
	if status, out, _ = run("repo", "import", "--force", c); status != 0 || out != "4\n" {
		t.Fatalf("import --force: %d %q", status, out)
	}

	status, out, _ = run("repo", "ls", "--where", "app = lulesh and procs >= 64")
	if status != 0 || !strings.Contains(out, "2   lulesh  scaling") || strings.Contains(out, "\n1 ") {
		t.Fatalf("ls --where: %d\n%s", status, out)
	}
	status, out, _ = run("repo", "ls", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if status != 0 || err != nil || len(recs) != 5 || strings.Join(recs[0][:4], ",") != "id,app,experiment,name" || recs[3][3] != "pi" {
		t.Fatalf("ls --csv: %d %v\n%s", status, err, out)
	}
	status, _, errOut = run("repo", "ls", "--where", "procs >> 3")
	if status != 2 || !strings.Contains(errOut, "filter column 8") || !strings.Contains(errOut, "       ^") {
		t.Fatalf("bad filter: %d %q", status, errOut)
	}

	status, out, _ = run("repo", "show", "repo:app=lulesh,procs=27")
	if status != 0 || !strings.Contains(out, "source: "+mustAbs(t, a)+"\n") || !strings.Contains(out, "attr compiler: gcc-13 (text, user)") ||
		!strings.Contains(out, "attr procs: 27 (number, auto)") {
		t.Fatalf("show: %d\n%s", status, out)
	}
	if status, _, errOut = run("repo", "set", "1", "compiler=gcc-14", "size=25"); status != 0 {
		t.Fatalf("set: %s", errOut)
	}
	if status, out, _ = run("repo", "ls", "--where", "compiler = gcc-14 and size = 25"); status != 0 || !strings.Contains(out, "\n1 ") {
		t.Fatalf("ls after set: %s", out)
	}

	status, out, _ = run("repo", "find", "--metric", "time", "--share", "10%", "--kind", "mpi", "--where", "app = lulesh")
	if status != 0 || !strings.Contains(out, "MPI_Allreduce") || strings.Count(out, "\n") != 3 {
		t.Fatalf("find: %d\n%s", status, out)
	}
	status, out, _ = run("repo", "find", "--metric", "time", "--min", "1", "--incl", "--flat", "--csv", "--limit", "2")
	if recs, err := csv.NewReader(strings.NewReader(out)).ReadAll(); status != 0 || err != nil || len(recs) != 3 || recs[0][5] != "region" {
		t.Fatalf("find --csv: %d %v\n%s", status, err, out)
	}
	status, out, errOut = run("repo", "find", "--derive", "tpv = time / visits", "--metric", "tpv", "--min", "1e-3", "--csv")
	if recs, err := csv.NewReader(strings.NewReader(out)).ReadAll(); status != 0 || err != nil || len(recs) < 2 {
		t.Fatalf("find --derive: %d %v %q\n%s", status, err, errOut, out)
	}
	if status, _, errOut = run("repo", "find", "--metric", "time"); status != 2 || !strings.Contains(errOut, "--share") {
		t.Fatalf("find without a constraint: %d %q", status, errOut)
	}

	out1 := filepath.Join(dir, "t3.cubex")
	if status, _, errOut = run("repo", "export", "3", out1); status != 0 {
		t.Fatalf("export: %s", errOut)
	}
	e, err := format.Open(out1)
	if err != nil || len(e.Cnodes) != 11 {
		t.Fatalf("exported trial: %v", err)
	}
	// References wherever a file is read, calc included.
	diff := filepath.Join(dir, "d.cube")
	status, out, errOut = run("calc", `diff(repo:2, "repo:app=lulesh,procs=27")`, "-o", diff)
	// The reference is quoted as typed, so that the recorded expression
	// reads back as the same two operands.
	if status != 0 || !strings.Contains(out, `diff(repo:2, "repo:app=lulesh,procs=27")`) {
		t.Fatalf("calc over references: %d %q %q", status, out, errOut)
	}
	if status, out, _ = run("info", "repo:3"); status != 0 || !strings.Contains(out, "CUBE 4") {
		t.Fatalf("info repo:3: %d\n%s", status, out)
	}

	refs, st, ok := WindowRequest([]string{"repo", "--repo", loc, "open", "repo:3", "app=lulesh,procs=64"}, Env{Stderr: os.Stderr})
	if !ok || st != 0 || strings.Join(refs, " ") != "repo:3 repo:2" {
		t.Fatalf("open: %v %d %v", refs, st, ok)
	}
	if got := ReferenceLocation(); got != loc {
		t.Errorf("the windows would browse %q, not %q", got, loc)
	}
	if _, st, ok = WindowRequest([]string{"repo", "open", "77"}, Env{Stderr: new(strings.Builder)}); !ok || st != 1 {
		t.Fatalf("open of a missing trial: %d %v", st, ok)
	}
	if _, _, ok = WindowRequest([]string{"repo", "ls"}, Env{}); ok {
		t.Fatal("ls taken for a window request")
	}

	if status, _, errOut = run("repo", "rm", "1", "4"); status != 0 {
		t.Fatalf("rm: %s", errOut)
	}
	if status, out, _ = run("repo", "ls", "--csv"); status != 0 || strings.Count(out, "\n") != 3 {
		t.Fatalf("ls after rm:\n%s", out)
	}
	if status, _, errOut = run("repo", "show", "1"); status != 1 || !strings.Contains(errOut, "no trial 1") {
		t.Fatalf("show of a removed trial: %d %q", status, errOut)
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
