package caliper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
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

// TestCaliQueryJSONReader reads each .cali file of the corpora twice: with
// the .cali reader, and as cali-query's json-split output with the JSON
// reader. Both must give every metric the JSON shows the same values at
// every call path and location (json-split leaves out the attributes
// Caliper marks hidden, such as a mean's sum and count).
func TestCaliQueryJSONReader(t *testing.T) {
	cq := caliQuery(t)
	var files, values int
	for _, repo := range caliCorpora {
		t.Run(strings.ReplaceAll(repo, "/", "_"), func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, repo, func(p string) bool { return strings.HasSuffix(p, ".cali") })
			for _, f := range paths {
				out, err := exec.Command(cq, "-q", "format json-split", local[f]).Output()
				if err != nil || len(out) == 0 {
					continue // Caliper 2 refuses Caliper 1.5 files
				}
				if bytes.Contains(out, []byte(`"cupti.activity.kind"`)) {
					continue // the JSON reader does not place GPU activities under their call path
				}
				j, err := Parse(bytes.NewReader(out), f+" (json-split)")
				if err != nil {
					t.Errorf("%v", err)
					continue
				}
				c, err := openCali(local[f])
				if err != nil {
					t.Errorf("%v", err)
					continue
				}
				n, err := sameValues(t, j, c)
				if err != nil {
					t.Errorf("%s: %v", f, err)
				}
				files++
				values += n
			}
		})
	}
	t.Logf("%d files: %d values of the JSON reader equal to the .cali reader's", files, values)
}

// sameValues compares every metric of j with the metric of the same name
// in c, per call path (by names) and location (by position).
func sameValues(t *testing.T, j, c *model.Experiment) (int, error) {
	t.Helper()
	if j.NumLocations() != c.NumLocations() {
		return 0, fmt.Errorf("%d locations from the JSON, %d from the .cali", j.NumLocations(), c.NumLocations())
	}
	cpaths := cnodeByPath(c)
	n := 0
	for m := range j.Metrics {
		cm := c.MetricByName(j.Metrics[m].UniqName)
		if cm < 0 {
			return n, fmt.Errorf("metric %s of the JSON is not in the .cali experiment", j.Metrics[m].UniqName)
		}
		jb, err := j.Block(m)
		if err != nil {
			return n, err
		}
		cb, err := c.Block(cm)
		if err != nil {
			return n, err
		}
		for jc := range j.Cnodes {
			p := cnodePath(j, jc)
			if strings.HasPrefix(p, "<no ") {
				p = "<outside annotated regions>"
			}
			cc, ok := cpaths[p]
			if !ok {
				return n, fmt.Errorf("call path %q of the JSON is not in the .cali experiment", p)
			}
			for l := 0; l < j.NumLocations(); l++ {
				a, b := jb.Value(jc, l), cb.Value(cc, l)
				if math.Abs(a-b) > 1e-9*math.Max(math.Abs(a), math.Abs(b)) && math.Abs(a-b) > 1e-12 {
					return n, fmt.Errorf("%s at %s, location %d: JSON %v, .cali %v", j.Metrics[m].UniqName, p, l, a, b)
				}
				n++
			}
		}
	}
	return n, nil
}
