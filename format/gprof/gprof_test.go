package gprof

import (
	"cubeview/format/importer"
	"strings"
	"testing"
	"unicode/utf16"
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
		{"non-numeric flat", strings.Replace(small, " 0.03        2", " 0.0x        2", 1), `r.prof:6: flat profile: column 3: "0.0x" is not a number`},
		{"bad calls", strings.Replace(small, "0.03        2    15.00", "0.03        2.5    15.00", 1), "r.prof:6: flat profile: calls: \"2.5\" is not a count"},
		{"truncated entry", small[:strings.Index(small, "[3]     20.0")], "r.prof:25: call-graph entry without its [index] line (truncated?)"},
		{"truncated line", small[:strings.Index(small, "[3]")], `r.prof:23: call graph: cannot read "0.01    0.00       4/4           leaf"`},
		{"unknown index", strings.Replace(small, "4/4           leaf [3]\n-", "4/4           leaf [9]\n-", 1), "r.prof:23: call graph: leaf [9] has no entry of its own"},
		{"renamed", strings.Replace(small, "2/2           work [2]\n-", "2/2           wrk [2]\n-", 1), `r.prof:18: call graph: [2] is "wrk" here but "work" in its entry`},
		{"bad count", strings.Replace(small, "2/2           work", "2/x           work", 1), `r.prof:18: call graph: bad call count "2/x"`},
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

func TestPerCallUnit(t *testing.T) {
	for _, tt := range []struct {
		header string
		exp    int
		ok     bool
	}{
		{" time   seconds   seconds    calls  ms/call  ms/call  name", 3, true},
		{" time   seconds   seconds    calls   s/call   s/call  name", 0, true},
		{" time   seconds   seconds    calls  us/call  us/call  name", 6, true},
		{" time   seconds   seconds    calls  Ts/call  Ts/call  name", -12, true}, // "no time accumulated"
		{" time   seconds   seconds    calls  xs/call  xs/call  name", 0, false},
		{" time   seconds   seconds    calls  ms/call  us/call  name", 0, false},
		{" time   seconds   seconds    calls  name", 0, false},
	} {
		exp, ok := perCallUnit(tt.header)
		if exp != tt.exp || ok != tt.ok {
			t.Errorf("perCallUnit(%q) = %d, %v, want %d, %v", tt.header, exp, ok, tt.exp, tt.ok)
		}
	}
}

// TestRefineInclusive: the flat profile's total per call corrects the
// call graph's inclusive time only where it is finer and consistent.
func TestRefineInclusive(t *testing.T) {
	for _, tt := range []struct {
		name  string
		cg    float64
		calls int64
		total string
		exp   int
		want  float64
	}{
		{"agrees", 0.18, 37, "4.86", 3, 0.18},
		{"finer column", 0.18, 37, "4.76", 3, 0.17612},
		{"zero in the graph", 0, 5, "0.63", 3, 0.00315},
		{"coarser column", 0.06, 23480, "0.00", 3, 0.06},
		{"contradiction", 0.5, 37, "4.76", 3, 0.5},
		{"no calls", 0.18, 0, "", 3, 0.18},
		{"seconds", 0.71, 1, "0.70", 0, 0.7},
		{"coarser in seconds", 2.0, 3, "0.70", 0, 2.0},
	} {
		row := flatRow{calls: tt.calls, totalPerCall: tt.total}
		if got := refineInclusive(tt.cg, row, tt.exp); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
