package caliper

import (
	"cubeview/format/importer"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodTables = `"columns": ["path", "count"], "column_metadata": [{"is_value": false}, {"is_value": true}], "nodes": [{"column": "path", "label": "main"}]`

// TestBadInput feeds broken files; each must give an error naming the
// file and the problem.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"not json", "hello", "not Caliper JSON"},
		{"truncated", `{"data": [[0, 1]], ` + goodTables[:40], "not Caliper JSON: line 1"},
		{"missing nodes", `{"data": [], "columns": [], "column_metadata": []}`, `no "nodes" table`},
		{"row too short", `{"data": [[0]], ` + goodTables + `}`, "data[0] has 1 entries for 2 columns"},
		{"node out of range", `{"data": [[7, 1]], ` + goodTables + `}`, `data[0] column "path": node index 7 out of range (1 nodes)`},
		{"negative node", `{"data": [[-1, 1]], ` + goodTables + `}`, "node index -1 out of range"},
		{"parent after child", `{"data": [], "columns": ["path"], "column_metadata": [{"is_value": false}], "nodes": [{"column": "path", "label": "a", "parent": 1}, {"column": "path", "label": "b"}]}`, "nodes[0] (\"a\"): parent 1 is not an earlier node"},
		{"metadata mismatch", `{"data": [], "columns": ["path", "count"], "column_metadata": [{"is_value": false}], "nodes": []}`, "2 columns but 1 column_metadata entries"},
		{"no path column", `{"data": [[1]], "columns": ["count"], "column_metadata": [{"is_value": true}], "nodes": []}`, "no call-tree column"},
		{"wrong type", `{"data": "x", ` + goodTables + `}`, `table "data"`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := Read(path, importer.Options{})
			if err == nil {
				t.Fatalf("no error (%d cnodes)", len(e.Cnodes))
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one naming %s and saying %q", err, path, tt.want)
			}
		})
	}
}

// FuzzRead checks that any input yields an experiment that validates or
// an error, never a panic.
func FuzzRead(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "handmade.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"data": [[0, 1], [null, 2]], ` + goodTables + `}`))
	f.Add([]byte(`{"data": [[0, 0, 1.5, 2.5]], "columns": ["source.function#callpath.address", "mpi.rank", "min#time.duration", "max#time.duration"], "column_metadata": [{"is_value": false}, {"is_value": true}, {"is_value": true}, {"is_value": true}], "nodes": [{"column": "source.function#callpath.address", "label": "f"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}
