package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// metricLine returns the line of info output describing the metric with
// the given unique name.
func metricLine(out, uniq string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, " ["+uniq+"] ") {
			return line
		}
	}
	return ""
}

// lineTotal returns the total at the end of a metric line.
func lineTotal(line string) (float64, error) {
	return strconv.ParseFloat(line[strings.LastIndex(line, ": ")+2:], 64)
}

func TestInfoSynthetic(t *testing.T) {
	e := synthetic()
	e.Metrics[2].Unavailable = "test reason"
	e.Metrics[3].Val = "VOID"
	e.Attrs = append(e.Attrs, model.Attr{Key: "cubeview::expression", Value: "diff(a.cubex, b.cubex)"})
	var buf bytes.Buffer
	if err := writeInfo(&buf, e); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"Format:     generated\n",
		"Creator:    cubeview synth\n",
		"Metrics:    6 (1 hidden, 1 not available)\n",
		"Regions:    " + strconv.Itoa(len(e.Regions)) + "\n",
		"Cnodes:     40 (call-tree roots: 1)\n",
		"Processes:  3\n",
		"Locations:  6 (thread level shown)\n",
		"  cubeview::expression = diff(a.cubex, b.cubex)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for m := range e.Metrics {
		met := &e.Metrics[m]
		line := metricLine(out, met.UniqName)
		if line == "" {
			t.Errorf("no line for metric %q", met.UniqName)
			continue
		}
		depth := 1
		for p := met.Parent; p >= 0; p = e.Metrics[p].Parent {
			depth++
		}
		if prefix := strings.Repeat("  ", depth) + met.DispName + " "; !strings.HasPrefix(line, prefix) {
			t.Errorf("line %q does not start with %q", line, prefix)
		}
		for _, part := range []string{met.Unit, string(met.DataType), met.Aggregation.String()} {
			if !strings.Contains(line, part) {
				t.Errorf("line %q lacks %q", line, part)
			}
		}
		if met.Hidden() != strings.Contains(line, "hidden (VOID)") {
			t.Errorf("line %q: hidden mark wrong, Val %q", line, met.Val)
		}
		if met.Unavailable != "" {
			if !strings.HasSuffix(line, ": not available: "+met.Unavailable) {
				t.Errorf("line %q does not say why the metric is not available", line)
			}
			continue
		}
		got, err := lineTotal(line)
		if err != nil {
			t.Errorf("line %q: %v", line, err)
			continue
		}
		// The total over all cnodes, whichever cnode counts as a root.
		want := met.Aggregation.Identity()
		for _, r := range e.CnodeRoots {
			want = met.Aggregation.Combine(want, bruteTree(e, m, r, true))
		}
		if math.Abs(got-want) > 1e-11*math.Abs(want) {
			t.Errorf("line %q: total %v, want %v", line, got, want)
		}
		if met.IsInteger() && strings.Contains(line[strings.LastIndex(line, ": "):], ".") {
			t.Errorf("line %q: integer metric printed with decimals", line)
		}
	}
}

// TestInfoGolden writes a small synthetic experiment to a file and
// compares the info output with testdata/info.golden and with the info of
// the experiment in memory, which must agree except for the format line.
func TestInfoGolden(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 12, Locations: 4, Threads: 2, Nodes: 1, Metrics: 5, Seed: 3, MinMax: true})
	e.Metrics[2].Val = "VOID"
	e.Attrs = append(e.Attrs, model.Attr{Key: "cubeview::expression", Value: "mean(a.cubex, b.cubex)"})
	path := filepath.Join(t.TempDir(), "synth.cubex")
	if err := format.Write(path, e); err != nil {
		t.Fatalf("writing the synthetic experiment: %v", err)
	}
	status, out, errOut := run("info", path)
	if status != 0 {
		t.Fatalf("info: status %d: %s", status, errOut)
	}

	var mem bytes.Buffer
	if err := writeInfo(&mem, e); err != nil {
		t.Fatal(err)
	}
	_, fileRest, _ := strings.Cut(out, "\n")
	_, memRest, _ := strings.Cut(mem.String(), "\n")
	if fileRest != memRest {
		t.Errorf("info of the written file differs from the experiment written:\n%s", testkit.Diff(memRest, fileRest))
	}

	testkit.Golden(t, "info.golden", []byte(out))
}

// experimentFiles lists every experiment file below dir.
func experimentFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name := d.Name(); !d.IsDir() && (strings.HasSuffix(name, ".cubex") || strings.HasSuffix(name, ".cube") || strings.HasSuffix(name, ".cube.gz")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no experiment files below %s", dir)
	}
	return files
}

var countLine = regexp.MustCompile(`(?m)^Metrics: +(\d+) .*\n^Regions: +(\d+)\n^Cnodes: +(\d+) .*\n^Processes: +(\d+)\n^Locations: +(\d+) `)

func TestInfoSharedFiles(t *testing.T) {
	data := testkit.DataDir(t)
	for _, file := range experimentFiles(t, data) {
		name, _ := filepath.Rel(data, file)
		t.Run(name, func(t *testing.T) {
			status, out, errOut := run("info", file)
			if status != 0 {
				t.Fatalf("info %s: status %d: %s", file, status, errOut)
			}
			m := countLine.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("info %s: no counts in output:\n%s", file, out)
			}
			e, err := format.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			groups := 0
			for i := range e.System {
				if e.System[i].Kind == model.Group {
					groups++
				}
			}
			want := []int{len(e.Metrics), len(e.Regions), len(e.Cnodes), groups, e.NumLocations()}
			for i, w := range want {
				if m[i+1] != strconv.Itoa(w) {
					t.Errorf("count %d is %s, want %d", i, m[i+1], w)
				}
			}
			for i := range e.Metrics {
				if metricLine(out, e.Metrics[i].UniqName) == "" {
					t.Errorf("no line for metric %q", e.Metrics[i].UniqName)
				}
			}
		})
	}
}

// anchorMetrics reads the uniq_name and dtype of every metric straight
// from a .cubex file's anchor.xml.
func anchorMetrics(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s: no anchor.xml: %v", path, err)
		}
		if h.Name != "anchor.xml" {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("<")) {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		metrics := map[string]string{}
		dec := xml.NewDecoder(bytes.NewReader(data))
		var elem, uniq string
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				return metrics
			}
			if err != nil {
				t.Fatal(err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				elem = tok.Name.Local
			case xml.EndElement:
				elem = ""
			case xml.CharData:
				switch elem {
				case "uniq_name":
					uniq = strings.TrimSpace(string(tok))
				case "dtype":
					metrics[uniq] = strings.TrimSpace(string(tok))
				}
			}
		}
	}
}

// TestInfoUnsupportedTypes checks that metrics whose data type is not a
// single number are reported by name and type, with the reason.
func TestInfoUnsupportedTypes(t *testing.T) {
	file := filepath.Join(testkit.DataDir(t), "cube4", "quirks", "cube-values_example.cubex")
	metrics := anchorMetrics(t, file)
	status, out, errOut := run("info", file)
	if status != 0 {
		t.Fatalf("info: status %d: %s", status, errOut)
	}
	single := regexp.MustCompile(`^(U?INT(8|16|32|64)|DOUBLE|MINDOUBLE|MAXDOUBLE)$`)
	unsupported := 0
	for uniq, dtype := range metrics {
		line := metricLine(out, uniq)
		if line == "" || !strings.Contains(line, ", "+dtype+", ") {
			t.Errorf("metric %q of type %s: line %q does not name it with its type", uniq, dtype, line)
			continue
		}
		if single.MatchString(dtype) {
			if strings.Contains(line, "not available") {
				t.Errorf("single-number metric %q reported as not available: %q", uniq, line)
			}
			continue
		}
		unsupported++
		if !strings.Contains(line, ": not available: ") {
			t.Errorf("metric %q of type %s is not reported as not available: %q", uniq, dtype, line)
		}
	}
	if unsupported < 6 {
		t.Errorf("anchor.xml lists only %d metrics of unsupported types; expected COMPLEX, RATE, NDOUBLES, HISTOGRAM, SCALE_FUNC, TAU_ATOMIC", unsupported)
	}
}

// TestInfoPrintsWarnings checks that info shows what a reader tolerated:
// CubeLib's file with surplus rows in its .data members.
func TestInfoPrintsWarnings(t *testing.T) {
	file := testkit.Data(t, "cube4", "quirks", "cubelib-surplus-data-row.cubex")
	status, out, errOut := run("info", file)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, member := range []string{"0.data", "1.data", "2.data"} {
		want := "Warning:    metric "
		found := false
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, want) && strings.Contains(line, member+" holds") && strings.Contains(line, "surplus is ignored") {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning line for %s:\n%s", member, out)
		}
	}
}
