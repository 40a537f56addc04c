package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/internal/testkit/testrepo"
)

// TestRepoStrictCommands, on SQLite and PostgreSQL: mistyped metrics,
// kinds and attributes are usage errors (status 2) that suggest the
// name; constraints of several tests search; and a result computed from
// trials records the repository and each trial's checksum.
func TestRepoStrictCommands(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			loc := filepath.Join(t.TempDir(), "repo.db")
			if engine == "postgres" {
				loc = testrepo.Postgres(t)
			}
			t.Setenv("CUBEVIEW_REPO", loc)
			cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
			lulesh := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
			status, out, errOut := run("repo", "init", loc)
			_, identity, found := strings.Cut(strings.TrimSuffix(out, ")\n"), "identity ")
			if status != 0 || !found || len(identity) != 36 {
				t.Fatalf("init: %d %q %q", status, out, errOut)
			}
			if status, out, errOut := run("repo", "import", cpi, lulesh); status != 0 || out != "1\n2\n" {
				t.Fatalf("import: %d %q %q", status, out, errOut)
			}
			for _, tc := range []struct {
				args []string
				want string
			}{
				{[]string{"find", "--metric", "tiem", "--min", "0"}, `no trial has a metric "tiem"; did you mean time?`},
				{[]string{"find", "time > 0 and vists > 2"}, `no trial has a metric "vists"; did you mean visits?`},
				{[]string{"find", "--metric", "time", "--min", "0", "--kind", "mpii"}, `no trial has a region kind "mpii"; did you mean mpi?`},
				{[]string{"ls", "--where", "prcos >= 64"}, `no trial has an attribute "prcos"; did you mean procs?`},
				{[]string{"find", "--metric", "time", "--min", "0", "--where", "prcos > 1"}, `did you mean procs?`},
				{[]string{"find", "time >> 3"}, "constraint column 7"},
			} {
				status, _, errOut := run(append([]string{"repo"}, tc.args...)...)
				if status != 2 || !strings.Contains(errOut, tc.want) {
					t.Errorf("%v: status %d, %q; want status 2 and %q", tc.args, status, errOut, tc.want)
				}
			}
			status, out, errOut = run("repo", "find", "--kind", "MPI", "--metric", "time", "--min", "0", "--csv")
			if status != 0 || !strings.Contains(out, "MPI_") {
				t.Errorf("--kind MPI: %d %q\n%s", status, errOut, out)
			}
			status, out, errOut = run("repo", "find", "--csv", "time >= 1% and not incl(visits) > 100", "--region", "MPI_*")
			if status != 0 || !strings.Contains(out, "MPI_") || strings.Contains(out, ",main") {
				t.Errorf("constraint: %d %q\n%s", status, errOut, out)
			}
			status, out, errOut = run("repo", "check")
			if status != 0 || !strings.Contains(out, "2 trials") {
				t.Errorf("check: %d %q %q", status, out, errOut)
			}

			res := filepath.Join(t.TempDir(), "d.cubex")
			if status, _, errOut := run("calc", "diff(repo:1, repo:2)", "-o", res); status != 0 {
				t.Fatalf("calc: %q", errOut)
			}
			e, err := format.Open(res)
			if err != nil {
				t.Fatal(err)
			}
			for i, file := range []string{cpi, lulesh} {
				rec, _ := e.Attr("cubeview::operand::" + string(rune('0'+i)))
				b, _ := os.ReadFile(file)
				sum := sha256.Sum256(b)
				if !strings.Contains(rec, "sha256="+hex.EncodeToString(sum[:])) || !strings.Contains(rec, ";repository="+identity+";") ||
					!strings.HasSuffix(rec, "path=repo:"+string(rune('1'+i))) {
					t.Errorf("operand %d recorded as %q", i, rec)
				}
			}
		})
	}
}
