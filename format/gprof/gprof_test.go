package gprof

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"cubeview/format/importer"
	"cubeview/model"
)

const small = `Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              self     total           
 time   seconds   seconds    calls  ms/call  ms/call  name    
 60.00      0.03     0.03        2    15.00    20.00  work
 20.00      0.04     0.01        1    10.00    50.00  main
 20.00      0.05     0.01                             helper_not_profiled

		     Call graph (explanation follows)


granularity: each sample hit covers 4 byte(s) for 20.00% of 0.05 seconds

index % time    self  children    called     name
                                                 <spontaneous>
[1]    100.0    0.01    0.04                 main [1]
                0.03    0.01       2/2           work [2]
-----------------------------------------------
                0.03    0.01       2/2           main [1]
[2]     80.0    0.03    0.01       2+3       work [2]
                                   3             work [2]
                0.01    0.00       4/4           leaf [3]
-----------------------------------------------
                0.01    0.00       4/4           work [2]
[3]     20.0    0.01    0.00       4         leaf [3]
-----------------------------------------------

 This table describes the call tree of the program.
`

func TestSmallReport(t *testing.T) {
	rep, err := parse(small, "small.prof")
	if err != nil {
		t.Fatal(err)
	}
	e, err := rep.experiment("small.prof")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, r := range e.Regions {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "main,work,leaf,helper_not_profiled" {
		t.Errorf("regions %v", names)
	}
	b, _ := e.Block(metricVisits)
	// work: the flat profile's 2 calls (the 3 recursive ones are an arc);
	// leaf is only in the call graph; helper has no calls column.
	for r, want := range []float64{1, 2, 4, 0} {
		if got := b.Value(r, 0); got != want {
			t.Errorf("%s: visits %v, want %v", names[r], got, want)
		}
	}
	incl := e.CallGraph.Inclusive[metricTime]
	for r, want := range []float64{0.05, 0.04, 0.01, 0.01} {
		if d := incl[r] - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: inclusive %v, want %v", names[r], incl[r], want)
		}
	}
	if n := len(e.CallGraph.Arcs); n != 4 {
		t.Errorf("%d arcs, want main→work, work→leaf, work→work, <spontaneous>→main: %+v", n, e.CallGraph.Arcs)
	}
}

func TestDetect(t *testing.T) {
	utf16le := func(s string) []byte {
		b := []byte{0xff, 0xfe}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	for _, tt := range []struct {
		head string
		raw  []byte
		want bool
	}{
		{head: "Flat profile:\n\nEach sample", want: true},
		{head: "\n\t\t     Call graph (explanation follows)\n", want: true},
		{head: "index  % time    self  children called     name\n", want: true},
		{raw: utf16le("Flat profile:\r\n"), want: true},
		{head: "<?xml version", want: false},
		{head: "1 templated_functions", want: false},
	} {
		raw := tt.raw
		if raw == nil {
			raw = []byte(tt.head)
		}
		if got := Detect(raw, "x.prof") == importer.Certain; got != tt.want {
			t.Errorf("Detect(%q) = %v", raw, got)
		}
	}
}

// TestBadInput: errors name the file and the line.
func TestBadInput(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"not a report", "hello\n", "r.prof: not a gprof report"},
		{"non-numeric flat", strings.Replace(small, " 0.03        2", " 0.0x        2", 1), `r.prof:6: flat profile: not a row of the table: "60.00      0.03     0.0x`},
		{"bad calls", strings.Replace(small, "0.03        2    15.00", "0.03        2.5    15.00", 1), "r.prof:6: flat profile: calls: \"2.5\" is not a count"},
		{"truncated entry", small[:strings.Index(small, "[3]     20.0")], "r.prof:25: call-graph entry without its [index] line (truncated?)"},
		{"truncated line", small[:strings.Index(small, "[3]")], `r.prof:23: call graph: cannot read "0.01    0.00       4/4           leaf"`},
		{"renamed", strings.Replace(small, "2/2           work [2]\n-", "2/2           wrk [2]\n-", 1), `r.prof:18: call graph: [2] is "wrk" here but "work" elsewhere`},
		{"bad count", strings.Replace(small, "2/2           work", "2/x           work", 1), `r.prof:18: call graph: "2/x" is neither a time, a call count nor a name`},
		{"two entries", strings.Replace(small, "-----------------------------------------------\n                0.01    0.00       4/4           work", "                0.01    0.00       4/4           work", 1), "a second [index] line in one entry"},
		{"index mismatch", strings.Replace(small, "[3]     20.0    0.01    0.00       4         leaf [3]", "[3]     20.0    0.01    0.00       4         leaf [4]", 1), "r.prof:26: call graph: entry [3] names index [4]"},
	} {
		rep, err := parse(tt.text, "r.prof")
		if err == nil {
			_, err = rep.experiment("r.prof")
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func FuzzGprof(f *testing.F) {
	f.Add([]byte(small))
	f.Add([]byte("index % time    self  children    called     name\n[1] 100.0 0.00 0.00 0+1 <cycle 1 as a whole> [1]\n                0 a <cycle 1> [2]\n---\n[2] 1.0 0.00 0.00 1 a <cycle 1> [2]\n"))
	f.Add([]byte("\xff\xfeF\x00l\x00a\x00t\x00"))
	for _, name := range []string{"no-entry-caller.prof", "aix-dot-names.prof", "cycles-k.prof"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := parse(decode(data), "fuzz.prof")
		if err != nil {
			return
		}
		e, err := rep.experiment("fuzz.prof")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}

func TestPerCallFactor(t *testing.T) {
	for _, tt := range []struct {
		dim, unit string
		want      float64
		ok        bool
	}{
		{"seconds", "ms/call", 1e-3, true},
		{"seconds", "s/call", 1, true},
		{"seconds", "us/call", 1e-6, true},
		{"seconds", "Ts/call", 1e12, true}, // "no time accumulated"
		{"seconds", "xs/call", 0, false},
		{"cycles", "/call", 1, true},
		{"cycles", "Kc/call", 1e3, true},
	} {
		got, ok := perCallFactor(tt.dim, tt.unit)
		if ok != tt.ok || ok && math.Abs(got-tt.want) > 1e-9*tt.want {
			t.Errorf("perCallFactor(%q, %q) = %v, %v, want %v, %v", tt.dim, tt.unit, got, ok, tt.want, tt.ok)
		}
	}
}

func TestHeaders(t *testing.T) {
	for _, tt := range []struct {
		line        string
		graph, flat bool
	}{
		{"index % time    self  children    called     name", true, false},
		{"index  %time    self descendents  called+self    name    \tindex", true, false},
		{"index  %time    self descendants  called+self    name    \tindex", true, false},
		{"index    %      self  children    called     name", true, false},
		{" time   seconds   seconds    calls  ms/call  ms/call  name    ", false, true},
		{"  %      cycles     cycles    calls     /call      /call  name    ", false, true},
		{"  %   cumulative   self              self     total           ", false, false},
		{"index     the index of the function in the call graph", false, false},
	} {
		_, _, flat := flatHeader(tt.line)
		if g := isGraphHeader(tt.line); g != tt.graph || flat != tt.flat {
			t.Errorf("%q: graph %v flat %v, want %v %v", tt.line, g, flat, tt.graph, tt.flat)
		}
	}
}

// TestQuirks reads small reports that reproduce what real ones showed:
// callers without an entry (gprof2dot's gnu2.prof, shedskin.prof,
// dan.skorupski.prof, PHY905's Fortran reports), AIX's layout and names
// beginning with a dot (gprof2dot's ibm.prof), a cycle-counting target's
// histogram in thousands (gprof2dot's embedded.prof), and a report
// without any function (gprof2dot's issue88.prof, NPB's is.S.gp).
func TestQuirks(t *testing.T) {
	type fn struct {
		name               string
		self, incl, visits float64
	}
	for _, tt := range []struct {
		file, metric string
		want         []fn
		arcs         int
		err          string
	}{
		{file: "no-entry-caller.prof", metric: "time", arcs: 3, want: []fn{
			{"MAIN__", 0.01, 0.04, 1}, {"solve", 0.03, 0.03, 2}, {"init_table", 0, 0, 1},
			{"main", 0, 0.04, 0}, {"__do_global_ctors_aux", 0, 0, 0}}},
		{file: "aix-dot-names.prof", metric: "time", arcs: 5, want: []fn{
			{".main", 0.44, 1.16, 1}, {".__start", 0, 1.16, 0}, {".fft", 0.59, 0.72, 1024},
			{".bit_reverse", 0.13, 0.13, 1024}, {".gettimeofday", 0, 0, 8}, {".__mcount", 0.01, 0.01, 0}}},
		{file: "cycles-k.prof", metric: "cycles", arcs: 3, want: []fn{
			{"_start", 100, 1000100, 1}, {"main", 400000, 1000000, 1}, {"memchr", 600000, 600000, 100},
			{"_ResetHandler", 100, 100, 0}}},
		{file: "no-functions.prof", err: "no-functions.prof: the gprof report lists no function (gprof says \"no time accumulated\""},
	} {
		t.Run(tt.file, func(t *testing.T) {
			e, err := Read(filepath.Join("testdata", tt.file), importer.Options{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			m := e.MetricByName(tt.metric)
			if m < 0 {
				t.Fatalf("no metric %q", tt.metric)
			}
			excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			visits, _, _ := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("visits"), Inclusive: true})
			if len(e.Regions) != len(tt.want) {
				t.Errorf("%d regions, want %d", len(e.Regions), len(tt.want))
			}
			for _, w := range tt.want {
				r := -1
				for i, reg := range e.Regions {
					if reg.Name == w.name {
						r = i
					}
				}
				if r < 0 {
					t.Errorf("no region %q", w.name)
					continue
				}
				if math.Abs(excl[r]-w.self) > 1e-9 || math.Abs(incl[r]-w.incl) > 1e-9 || visits[r] != w.visits {
					t.Errorf("%s: self %v incl %v visits %v, want %v %v %v", w.name, excl[r], incl[r], visits[r], w.self, w.incl, w.visits)
				}
			}
			if n := len(e.CallGraph.Arcs); n != tt.arcs {
				t.Errorf("%d arcs, want %d", n, tt.arcs)
			}
		})
	}
}

// TestLongTokenAndBOM: an error quotes a bounded part of a hostile line
// (here 4 MB), and a UTF-8 byte-order mark is no obstacle.
func TestLongTokenAndBOM(t *testing.T) {
	long := strings.Replace(small, " 60.00      0.03", " 60.00      "+strings.Repeat("9x", 2<<20), 1)
	_, err := Parse(strings.NewReader(long), "r.prof")
	if err == nil || !strings.Contains(err.Error(), "r.prof:6: flat profile: not a row of the table") || len(err.Error()) > 300 {
		t.Errorf("error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
	bom := "\ufeff" + small
	if Detect([]byte(bom), "r.prof") != importer.Certain {
		t.Error("a report with a byte-order mark is not recognised")
	}
	e, err := Parse(strings.NewReader(bom), "r.prof")
	if err != nil || len(e.Regions) != 4 {
		t.Errorf("with a byte-order mark: %v", err)
	}
}
