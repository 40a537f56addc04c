package hpctoolkit

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// copyDir copies the files of a database into a temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func edit(t *testing.T, path string, f func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadXMLDatabase breaks the cpi database in several ways; each must
// give an error naming the file and the problem.
func TestBadXMLDatabase(t *testing.T) {
	src := testkit.Data(t, "hpctoolkit", "cpi-database-v2")
	const rank0 = "1.cpi-000000-000-a8c00270-160443-0.metric-db"
	tests := []struct {
		name, file string
		edit       func([]byte) []byte
		want       string
	}{
		{"truncated xml", "experiment.xml", func(b []byte) []byte { return b[:len(b)/2] }, "experiment.xml:"},
		{"other xml", "experiment.xml", func([]byte) []byte { return []byte("<?xml version=\"1.0\"?>\n<cube version=\"4.0\"/>\n") }, "root element <cube>, not <HPCToolkitExperiment>"},
		{"node id twice", "experiment.xml", func(b []byte) []byte { return bytes.Replace(b, []byte(`<C i="3" `), []byte(`<C i="2" `), 1) }, "node id 2 occurs twice"},
		{"metric without name", "experiment.xml", func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`n="CPUTIME (usec) (I)"`), []byte(`n=" (I)"`))
		}, `metric 0 (" (I)") has no name`},
		{"bad value", "experiment.xml", func(b []byte) []byte { return bytes.Replace(b, []byte(`v="3.99824e+06"`), []byte(`v="lots"`), 1) }, "bad value \"lots\""},
		{"wrong magic", rank0, func(b []byte) []byte { copy(b, "HPCPROF-metricXX"); return b }, "not a metric-db file"},
		{"truncated metric-db", rank0, func(b []byte) []byte { return b[:500] }, "truncated: 60 nodes × 2 metrics need 960 bytes"},
		{"negative size", rank0, func(b []byte) []byte { binary.BigEndian.PutUint32(b[24:], 0xffffffff); return b }, "negative size"},
		{"ids out of range", rank0, func(b []byte) []byte { binary.BigEndian.PutUint32(b[24:], 10); return b }, "10 nodes, but experiment.xml has node id 60"},
		{"header only", rank0, func(b []byte) []byte { return b[:20] }, "truncated header"},
		{"long value", "experiment.xml", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`v="3.99824e+06"`), []byte(`v="`+strings.Repeat("9", 1<<20)+`x"`), 1)
		}, "bad value \"999"},
		{"long metric name", "experiment.xml", func(b []byte) []byte {
			b = bytes.ReplaceAll(b, []byte(`CPUTIME (usec)`), []byte(strings.Repeat("M", 1<<20)))
			return bytes.Replace(b, []byte(`t="exclusive" partner="0"`), []byte(`t="inclusive" partner="0"`), 1)
		}, "has two inclusive variants"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyDir(t, src)
			edit(t, filepath.Join(dir, tt.file), tt.edit)
			e, err := Read(dir, importer.Options{})
			if err == nil {
				t.Fatalf("no error (%d cnodes)", len(e.Cnodes))
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, tt.file)) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %s, want one naming %s and saying %q", importer.Quote(err.Error()), tt.file, tt.want)
			}
			if n := len(err.Error()); n > 400 {
				t.Errorf("error of %d bytes: quotes from the file must be bounded", n)
			}
		})
	}
}

// TestBadSparseDatabase does the same for the sparse layout.
func TestBadSparseDatabase(t *testing.T) {
	src := testkit.Data(t, "hpctoolkit", "vectorAdd-metadb")
	put64 := func(off int, v uint64) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }
	}
	tests := []struct {
		name, file string
		edit       func([]byte) []byte
		want       string
	}{
		{"wrong magic", "meta.db", func(b []byte) []byte { copy(b, "HPCTOOLKOT"); return b }, "wrong magic"},
		{"wrong format", "profile.db", func(b []byte) []byte { copy(b[10:], "meta"); return b }, `format "meta", want "prof"`},
		{"newer major version", "meta.db", func(b []byte) []byte { b[14] = 5; return b }, "major version 5"},
		{"truncated meta.db", "meta.db", func(b []byte) []byte { return b[:len(b)-100] }, "the footer \"_meta.db\" is missing"},
		{"section past the end", "meta.db", put64(0x48, 1<<40), "bytes needed, but the file has"},
		{"metrics past the end", "meta.db", func(b []byte) []byte {
			p := binary.LittleEndian.Uint64(b[0x38:])
			binary.LittleEndian.PutUint32(b[p+8:], 1<<30)
			return b
		}, "metrics of 32 bytes do not fit"},
		{"metric without name", "meta.db", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[metricDescr(b, 1):], 0)
			return b
		}, "metric 1 has no name"},
		{"metric name twice", "meta.db", func(b []byte) []byte {
			copy(b[metricDescr(b, 1):metricDescr(b, 1)+8], b[metricDescr(b, 0):])
			return b
		}, "metric 1 has the name \"GXCOPY:UNK (B)\" of metric 0"},
		{"profiles past the end", "profile.db", func(b []byte) []byte {
			p := binary.LittleEndian.Uint64(b[0x18:])
			binary.LittleEndian.PutUint32(b[p+8:], 1<<31)
			return b
		}, "profiles of 48 bytes do not fit"},
		{"values out of range", "profile.db", func(b []byte) []byte {
			p := binary.LittleEndian.Uint64(b[0x18:])
			pi := binary.LittleEndian.Uint64(b[p:]) + 48 // the second profile
			binary.LittleEndian.PutUint64(b[pi:], 3)     // claims 3 values only
			return b
		}, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyDir(t, src)
			edit(t, filepath.Join(dir, tt.file), tt.edit)
			e, err := Read(dir, importer.Options{})
			if err == nil {
				t.Fatalf("no error (%d cnodes)", len(e.Cnodes))
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, tt.file)) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one naming %s and saying %q", err, tt.file, tt.want)
			}
		})
	}
}

// metricDescr returns the offset of metric i's description in meta.db.
func metricDescr(b []byte, i uint64) uint64 {
	p := binary.LittleEndian.Uint64(b[0x38:])
	return binary.LittleEndian.Uint64(b[p:]) + i*uint64(b[p+0x0c])
}

// FuzzXML reads experiment.xml and one metric-db file from arbitrary
// bytes: an experiment that validates or an error, never a panic.
func FuzzXML(f *testing.F) {
	if dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data", "hpctoolkit", "cpi-database-v2")); err == nil {
		x, err1 := os.ReadFile(filepath.Join(dir, "experiment.xml"))
		m, err2 := os.ReadFile(filepath.Join(dir, "1.cpi-000000-000-a8c00270-160443-0.metric-db"))
		if err1 == nil && err2 == nil {
			f.Add(x, m)
		}
	}
	small := `<?xml version="1.0"?><HPCToolkitExperiment version="2.0"><Header n="x"/><SecCallPathProfile i="0" n="x"><SecHeader>
<MetricDBTable><MetricDB i="0" n="T (I)" t="inclusive" partner="1" db-id="0" db-num-metrics="2"/><MetricDB i="1" n="T (E)" t="exclusive" partner="0" db-id="1" db-num-metrics="2"/></MetricDBTable>
<ProcedureTable><Procedure i="1" n="main"/></ProcedureTable><FileTable><File i="1" n="a.c"/></FileTable></SecHeader>
<SecCallPathProfileData><PF i="2" n="1" f="1" l="3"><L i="3" l="5" f="1"><S i="4" l="6"/></L><C i="5" l="7"><PF i="6" n="1" f="1" l="3"/></C></PF></SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>`
	db := append([]byte(metricDBTag+"00.10b"), 0, 0, 0, 6, 0, 0, 0, 2)
	for i := 0; i < 12; i++ {
		db = binary.BigEndian.AppendUint64(db, 0x3ff0000000000000) // 1.0
	}
	f.Add([]byte(small), db)
	// databases without metric-db files: summary statistics, per-thread metrics
	for _, name := range []string{"summary-2012", "per-thread"} {
		if x, err := os.ReadFile(filepath.Join("testdata", name, "experiment.xml")); err == nil {
			f.Add(x, []byte{})
		}
	}
	f.Fuzz(func(t *testing.T, xmlData, metricDB []byte) {
		x, err := parseExperimentXML(bytes.NewReader(xmlData), "experiment.xml")
		if err != nil {
			return
		}
		pf := []profileFile{{path: "1.x-000000-000-0-1-0.metric-db"}}
		if len(metricDB) == 0 {
			pf = nil // experiment.xml alone
		}
		e, _, err := xmlExperiment(x, pf, func(p profileFile) ([]float64, error) {
			rows, _, err := parseMetricDB(p.path, metricDB, x.numDB, x.maxID)
			return rows, err
		})
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}

// FuzzSparse reads meta.db and profile.db from arbitrary bytes.
func FuzzSparse(f *testing.F) {
	if dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data", "hpctoolkit", "vectorAdd-metadb")); err == nil {
		m, err1 := os.ReadFile(filepath.Join(dir, "meta.db"))
		p, err2 := os.ReadFile(filepath.Join(dir, "profile.db"))
		if err1 == nil && err2 == nil {
			f.Add(m, p)
		}
	}
	f.Add([]byte("HPCTOOLKITmeta\x04\x00_meta.db"), []byte("HPCTOOLKITprof\x04\x00_prof.db"))
	f.Fuzz(func(t *testing.T, metaData, profData []byte) {
		mb, err := newBlob("meta.db", metaData, "meta", "_meta.db")
		if err != nil {
			return
		}
		meta, err := parseMeta(mb)
		if err != nil {
			return
		}
		pb, err := newBlob("profile.db", profData, "prof", "_prof.db")
		if err != nil {
			return
		}
		profiles, err := parseProfiles(pb)
		if err != nil {
			return
		}
		e, _ := sparseExperiment(meta, profiles)
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}
