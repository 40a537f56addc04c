package caliper

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// caliQuery returns Caliper's cali-query (CALI_QUERY, else on PATH), or
// skips: Caliper is built from source at HPC sites and in no Debian
// package.
func caliQuery(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CALI_QUERY"); p != "" {
		return p
	}
	p, err := exec.LookPath("cali-query")
	if err != nil {
		t.Skip("cali-query not found (set CALI_QUERY to Caliper's cali-query to compare with it)")
	}
	return p
}

// TestCaliQueryCorpus compares every .cali file of the corpora with what
// Caliper's own cali-query reads from it ("format json-split", the
// records as they are), the same way TestCaliCorpus compares with the
// Python reader.
func TestCaliQueryCorpus(t *testing.T) {
	cq := caliQuery(t)
	var files, values, metrics, refused int
	for _, repo := range caliCorpora {
		t.Run(strings.ReplaceAll(repo, "/", "_"), func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, repo, func(p string) bool { return strings.HasSuffix(p, ".cali") })
			for _, f := range paths {
				out, err := exec.Command(cq, "-q", "format json-split", local[f]).Output()
				if err != nil || len(out) == 0 {
					refused++ // Caliper 2 refuses Caliper 1.5 files
					t.Logf("%s: cali-query: %v", f, err)
					continue
				}
				py, err := splitRecords(out)
				if err != nil {
					t.Fatalf("%s: cali-query output: %v", f, err)
				}
				e, err := openCali(local[f])
				if err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				files++
				n, m, err := compareRecords(t, e, py)
				if err != nil {
					t.Errorf("%s: %v", f, err)
				}
				values += n
				metrics += m
			}
		})
	}
	t.Logf("%d files: %d metrics and %d values equal to cali-query's; %d files cali-query refuses", files, metrics, values, refused)
}

// splitRecords turns json-split output into records as the Python reader
// gives them: a path of node labels, other node columns as labels, value
// columns as numbers.
func splitRecords(out []byte) (pyFile, error) {
	var s struct {
		Data     [][]any
		Columns  []string
		Metadata []struct {
			IsValue bool `json:"is_value"`
		} `json:"column_metadata"`
		Nodes []struct {
			Label  any
			Column string
			Parent *int
		}
	}
	if err := json.Unmarshal(out, &s); err != nil {
		return pyFile{}, err
	}
	var py pyFile
	py.Globals = map[string]any{}
	var top map[string]any
	if err := json.Unmarshal(out, &top); err == nil {
		for k, v := range top {
			py.Globals[k] = v
		}
	}
	for _, row := range s.Data {
		var rec [][2]any
		for c, v := range row {
			if v == nil {
				continue
			}
			if s.Metadata[c].IsValue {
				rec = append(rec, [2]any{s.Columns[c], v})
				continue
			}
			i := int(v.(float64))
			if s.Columns[c] != "path" {
				rec = append(rec, [2]any{s.Columns[c], s.Nodes[i].Label})
				continue
			}
			var path []any
			for n := &i; n != nil; n = s.Nodes[*n].Parent {
				path = append([]any{s.Nodes[*n].Label}, path...)
			}
			rec = append(rec, [2]any{"path", path})
		}
		py.Records = append(py.Records, rec)
	}
	return py, nil
}
