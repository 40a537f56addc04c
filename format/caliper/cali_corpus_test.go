package caliper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// caliCorpora are public repositories whose .cali files the corpus test
// reads: Hatchet's and Thicket's test data and tutorials (LULESH, RAJAPerf
// on CPUs and GPUs, SW4 with CUDA activity, time series, MPI scaling
// studies) and Caliper's own examples (one of Caliper 1.5).
var caliCorpora = []string{"LLNL/hatchet", "LLNL/hatchet-tutorial", "LLNL/thicket", "LLNL/thicket-tutorial", "LLNL/Caliper"}

// pyDump prints, per file named on the command line, the records that
// Caliper's Python reader (package caliperreader, its directory the first
// argument) expands, as one JSON object per line.
const pyDump = `
import json, sys
sys.path.insert(0, sys.argv[1])
from caliperreader.caliperstreamreader import CaliperStreamReader
for f in sys.argv[2:]:
    r = CaliperStreamReader()
    recs = []
    r.read(f, recs.append)
    print(json.dumps({"file": f, "records": [list(x.items()) for x in recs], "globals": r.globals}))
`

// pyRecords returns, per local file, the records Caliper's Python reader
// reads from it, or nil (with the reason logged) when it cannot run.
func pyRecords(t *testing.T, files []string) map[string]pyFile {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Logf("python3 not found: values are not compared with Caliper's Python reader")
		return nil
	}
	paths, local := testkit.MirrorFiles(t, "LLNL/Caliper", func(p string) bool {
		return strings.HasPrefix(p, "python/caliper-reader/caliperreader/")
	})
	if len(paths) == 0 {
		t.Logf("no caliperreader in the Caliper snapshot: values are not compared")
		return nil
	}
	dir := filepath.Dir(filepath.Dir(local[paths[0]]))
	cmd := exec.Command(python, append([]string{"-c", pyDump, dir}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Caliper's Python reader: %v: %s", err, stderr.String())
	}
	res := map[string]pyFile{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r struct {
			File string
			pyFile
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		res[r.File] = r.pyFile
	}
	return res
}

// pyFile is what Caliper's Python reader reads from a file: records as
// lists of (key, value) pairs in the reader's order (the call path's
// attributes from the root down).
type pyFile struct {
	Records [][][2]any
	Globals map[string]any
}

// TestCaliCorpus reads every .cali file of the public corpora: each must
// open as a valid experiment, and every value must equal what Caliper's
// own Python reader reads from the file's records (summed, or min/max
// combined, per call path and rank), inclusive values compared with the
// experiment's call-tree inclusive values.
func TestCaliCorpus(t *testing.T) {
	total := struct{ files, values, metrics int }{}
	for _, repo := range caliCorpora {
		t.Run(strings.ReplaceAll(repo, "/", "_"), func(t *testing.T) {
			files, local := testkit.MirrorFiles(t, repo, func(p string) bool { return strings.HasSuffix(p, ".cali") })
			if len(files) == 0 {
				t.Fatalf("no .cali file in the snapshot of %s", repo)
			}
			var paths []string
			for _, f := range files {
				paths = append(paths, local[f])
			}
			ref := pyRecords(t, paths)
			for _, f := range files {
				e, err := openCali(local[f])
				if err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				if err := e.Validate(); err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				total.files++
				if ref == nil {
					continue
				}
				n, m, err := compareRecords(t, e, ref[local[f]])
				if err != nil {
					t.Errorf("%s: %v", f, err)
				}
				total.values += n
				total.metrics += m
			}
		})
	}
	t.Run("testdata", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.cali"))
		files = append(files, filepath.Join("testdata", "handmade.cali"))
		var abs []string
		for _, f := range files {
			a, err := filepath.Abs(f)
			if err != nil {
				t.Fatal(err)
			}
			abs = append(abs, a)
		}
		ref := pyRecords(t, abs)
		for _, f := range abs {
			e, err := openCali(f)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			total.files++
			if ref == nil {
				continue
			}
			n, m, err := compareRecords(t, e, ref[f])
			if err != nil {
				t.Errorf("%s: %v", f, err)
			}
			total.values += n
			total.metrics += m
		}
	})
	t.Logf("%d files opened, %d metrics and %d values equal to Caliper's Python reader", total.files, total.metrics, total.values)
}

// compareRecords compares e with the records Caliper's Python reader
// expanded from the same file. It returns how many values and metrics
// it compared.
func compareRecords(t *testing.T, e *model.Experiment, py pyFile) (values, metrics int, err error) {
	paths := cnodeByPath(e)
	recs := make([]map[string]any, len(py.Records))
	for i, pairs := range py.Records {
		recs[i] = map[string]any{}
		for _, kv := range pairs {
			recs[i][fmt.Sprint(kv[0])] = kv[1]
		}
	}
	version := fmt.Sprint(py.Globals["cali.caliper.version"])
	if len(recs) > 0 && py.Globals["cali.caliper.version"] == nil {
		version = fmt.Sprint(recs[0]["cali.caliper.version"])
	}
	// Caliper 1.x marks no attribute nested: the annotations in the
	// records, from the root down, are the call path.
	legacyPath := func(pairs [][2]any) []string {
		var path []string
		for _, kv := range pairs {
			k := fmt.Sprint(kv[0])
			if strings.HasPrefix(k, "cali.") || strings.HasPrefix(k, "event.") || strings.Contains(k, "duration") {
				continue
			}
			switch v := kv[1].(type) {
			case []any:
				for _, x := range v {
					path = append(path, fmt.Sprint(x))
				}
			default:
				path = append(path, fmt.Sprint(v))
			}
		}
		return path
	}
	type key struct {
		path, rank, thread string
	}
	for m := range e.Metrics {
		met := &e.Metrics[m]
		attr := ""
		for _, a := range met.Attrs {
			if a.Key == "Caliper attribute" {
				attr = a.Value
			}
		}
		ops, _ := splitOps(attr)
		incl := (strings.Contains(attr, "inclusive#") || strings.Contains(attr, "time.inclusive.")) &&
			met.Aggregation == model.Sum && !(len(ops) > 0 && countOps[ops[0]])
		want := map[key]float64{}
		for ri, r := range recs {
			raw, ok := r[attr]
			if !ok {
				continue
			}
			if ch, ok := r["spot.channel"].(string); ok && ch != "regionprofile" {
				continue
			}
			var v float64
			if _, err := fmt.Sscan(fmt.Sprint(raw), &v); err != nil {
				return values, metrics, fmt.Errorf("attribute %s: value %v", attr, raw)
			}
			var path []string
			switch p := r["path"].(type) {
			case string:
				path = []string{p}
			case []any:
				for _, x := range p {
					path = append(path, fmt.Sprint(x))
				}
			}
			if strings.HasPrefix(version, "1.") {
				path = legacyPath(py.Records[ri])
			}
			if kind, ok := r["cupti.activity.kind"].(string); ok {
				if k, ok := r["cupti.kernel.name"].(string); ok && kind == "kernel" {
					kind = k
				}
				path = append(path, kind)
			}
			if len(path) == 0 {
				path = []string{"<outside annotated regions>"}
			}
			k := key{path: strings.Join(path, "/")}
			if rank, ok := r["mpi.rank"]; ok {
				k.rank = fmt.Sprint(rank)
			}
			for _, ta := range caliThreadAttrs {
				if th, ok := r[ta]; ok {
					k.thread = fmt.Sprint(th)
					break
				}
			}
			if old, ok := want[k]; ok {
				v = met.Aggregation.Combine(old, v)
			}
			want[k] = v
		}
		if len(want) == 0 {
			continue // a hidden attribute: the Python reader leaves it out
		}
		metrics++
		keys := make([]key, 0, len(want))
		for k := range want {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		// Caliper 2 measures time in seconds or, in .ns attributes,
		// nanoseconds; Caliper 1 in microseconds.
		factor, scale := 1.0, 0.0
		switch {
		case strings.Contains(attr, ".ns") && !strings.Contains(attr, "scale#"): // scale# is in seconds
			factor = 1e-9
		case strings.HasPrefix(version, "1.") && strings.Contains(attr, "time."):
			factor = 1e-6
		}
		for _, k := range keys {
			scale = math.Max(scale, math.Abs(want[k]))
		}
		for _, k := range keys {
			c, ok := paths[k.path]
			if !ok {
				return values, metrics, fmt.Errorf("call path %q of the records is not in the experiment", k.path)
			}
			l := -1
			for col := range e.Locations {
				loc := e.Location(col)
				proc := e.System[loc.Parent].Name
				if (k.rank == "" || proc == "rank "+k.rank) && (k.thread == "" || loc.Name == "thread "+k.thread) {
					l = col
					break
				}
			}
			if l < 0 {
				return values, metrics, fmt.Errorf("no location for rank %q thread %q", k.rank, k.thread)
			}
			got := value(t, e, m, c, l, incl)
			if w := want[k] * factor; math.Abs(got-w) > 1e-9*scale*factor {
				return values, metrics, fmt.Errorf("metric %s (inclusive %v) at %s rank %q thread %q: %v, Caliper's reader: %v", attr, incl, k.path, k.rank, k.thread, got, w)
			}
			values++
		}
	}
	return values, metrics, nil
}
