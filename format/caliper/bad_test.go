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
		{"no value column", `{"data": [[0]], "columns": ["path"], "column_metadata": [{"is_value": false}], "nodes": [{"column": "path", "label": "main"}]}`, "no value column to import among the 1 columns"},
		{"long column name", `{"data": [[1]], "columns": ["` + strings.Repeat("c", 1<<20) + `"], "column_metadata": [{"is_value": true}], "nodes": []}`, "no call-tree column"},
		{"long label", `{"data": [], "columns": ["path"], "column_metadata": [{"is_value": false}], "nodes": [{"column": "path", "label": "` + strings.Repeat("l", 1<<20) + `", "parent": 5}]}`, "parent 5 is not an earlier node"},
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
				t.Errorf("error %s, want one naming %s and saying %q", importer.Quote(err.Error()), path, tt.want)
			}
			if n := len(err.Error()); n > 400 {
				t.Errorf("error of %d bytes: quotes from the file must be bounded", n)
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

// goodCali is a minimal .cali stream: an attribute "region" (nested), a
// value attribute "time.duration", a node main and one snapshot.
const goodCali = "__rec=node,id=12,attr=10,data=268,parent=3\n" +
	"__rec=node,id=13,attr=8,data=region,parent=12\n" +
	"__rec=node,id=14,attr=10,data=65,parent=5\n" +
	"__rec=node,id=15,attr=8,data=time.duration,parent=14\n" +
	"__rec=node,id=16,attr=13,data=main\n"

// TestCaliBadInput feeds broken .cali streams; each must give an error
// naming the file, the line and the problem.
func TestCaliBadInput(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "empty: no Caliper records"},
		{"no snapshots", goodCali, "no snapshot records"},
		{"truncated", goodCali + "__rec=ctx,ref=16,attr=15,data=0.5", ":6: the file ends inside a record"},
		{"not a record", goodCali + "hello\n", `:6: not a Caliper record: "hello"`},
		{"unknown kind", goodCali + "__rec=frob,id=1\n", `:6: unknown record kind "frob"`},
		{"bad id", goodCali + "__rec=ctx,ref=1x,attr=15,data=1\n", `:6: ref: bad node id "1x"`},
		{"undefined ref", goodCali + "__rec=ctx,ref=99,attr=15,data=1\n", ":6: ref: node 99 is not defined"},
		{"not an attribute", goodCali + "__rec=ctx,ref=16,attr=16,data=1\n", ":6: attr: 16 is not an attribute"},
		{"count mismatch", goodCali + "__rec=ctx,ref=16,attr=15,data=1=2\n", ":6: 1 attributes but 2 values"},
		{"not a number", goodCali + "__rec=ctx,ref=16,attr=15,data=fast\n", `:6: attribute "time.duration": value "fast" is not a number`},
		{"infinite", goodCali + "__rec=ctx,ref=16,attr=15,data=inf\n", `:6: attribute "time.duration": value "inf"`},
		{"parent undefined", "__rec=node,id=12,attr=10,data=268,parent=77\n", ":1: node 12: parent 77 is not defined before it"},
		{"node twice", goodCali + "__rec=node,id=16,attr=13,data=other\n", ":6: node 16 is defined twice, differently"},
		{"node without id", "__rec=node,attr=10,data=268\n", ":1: node record without id or attr"},
		{"field without value", goodCali + "__rec=ctx,ref\n", `:6: field "ref" has no value`},
		{"attribute undefined", goodCali + "__rec=node,id=17,attr=90,data=x\n__rec=ctx,ref=17,attr=15,data=1\n", ":7: node 17: its attribute 90 is not defined"},
		{"no measurement", goodCali + "__rec=ctx,ref=16\n", "no measurement among the 1 snapshot records"},
		{"long token", goodCali + "__rec=" + long + ",x=1\n", "unknown record kind"},
		{"long value", goodCali + "__rec=ctx,ref=16,attr=15,data=" + long + "\n", "is not a number"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".cali")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := openCali(path)
			if err == nil {
				t.Fatalf("no error (%d cnodes)", len(e.Cnodes))
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want one naming %s and saying %q", importer.Quote(msg), path, tt.want)
			}
			if len(msg) > 400 {
				t.Errorf("error of %d bytes: quotes from the file must be bounded", len(msg))
			}
		})
	}
}

// TestCaliTolerated reads streams with a byte-order mark, CRLF line ends,
// blank lines and escaped separators.
func TestCaliTolerated(t *testing.T) {
	text := "\xef\xbb\xbf" + strings.ReplaceAll(goodCali, "\n", "\r\n") + "\n" +
		"__rec=node,id=17,attr=13,data=a\\,b\\=c\\\\d\\nx,parent=16\r\n" +
		"__rec=ctx,ref=17,attr=15,data=0.25\r\n"
	e, err := ParseCali(strings.NewReader(text), "bom.cali")
	if err != nil {
		t.Fatal(err)
	}
	if got := cnodePath(e, len(e.Cnodes)-1); got != "main/a,b=c\\d\nx" {
		t.Errorf("call path %q", got)
	}
	if v := value(t, e, 0, len(e.Cnodes)-1, 0, false); v != 0.25 {
		t.Errorf("value %v, want 0.25", v)
	}
}

// FuzzReadCali checks that any input yields an experiment that validates
// or an error, never a panic.
func FuzzReadCali(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "handmade.cali")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(goodCali + "__rec=ctx,ref=16,attr=15,data=0.5\n"))
	f.Add([]byte(goodCali + "__rec=node,id=17,attr=10,data=77,parent=1\n__rec=node,id=18,attr=8,data=mpi.rank,parent=17\n" +
		"__rec=node,id=19,attr=10,data=65,parent=5\n__rec=node,id=20,attr=8,data=sum#inclusive#sum#time.duration,parent=19\n" +
		"__rec=node,id=21,attr=13,data=f,parent=16\n__rec=ctx,ref=21,attr=18=20,data=1=0.5\n__rec=ctx,ref=16,attr=18=20,data=1=2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseCali(strings.NewReader(string(data)), "fuzz.cali")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}
