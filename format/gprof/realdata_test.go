package gprof_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/format/gprof"
	"cubeview/internal/testkit"
	"cubeview/model"
)

var (
	// A flat-profile row: %time cumulative self [calls self/call total/call] name.
	flatRE = regexp.MustCompile(`^\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+(?:(\d+)\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*?)\s*$`)
	// The flat profile's header line, with the per-call unit.
	flatHeaderRE = regexp.MustCompile(`^\s*time\s+seconds\s+seconds\s+calls\s+(\w*)s/call\s+\w*s/call\s+name\s*$`)
	// An entry's own line: [N] %time self children [called] name [N].
	primaryRE = regexp.MustCompile(`^\[(\d+)\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)(?:\+\d+)?\s+)?(.*?)\s+\[\d+\]$`)
)

type want struct {
	self, calls, incl float64
	hasIncl           bool
	// selfPerCall and totalPerCall are the flat profile's columns as
	// printed, "" when blank; perSecond converts seconds to their unit.
	selfPerCall, totalPerCall string
	perSecond                 float64
}

// perSecond maps gprof's SI prefixes of "ms/call" to units per second.
var perSecond = map[string]float64{"": 1, "m": 1e3, "u": 1e6, "n": 1e9}

// reference reads a report's own numbers with regular expressions: the
// flat profile's self seconds and calls, else the call graph's, and the
// call graph's self + children as the inclusive time.
func reference(t *testing.T, path string) map[string]*want {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*want{}
	get := func(name string) *want {
		if out[name] == nil {
			out[name] = &want{}
		}
		return out[name]
	}
	inFlat := false
	flatSeen := map[string]bool{}
	unit := 0.0
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case flatHeaderRE.MatchString(line):
			inFlat = true
			unit = perSecond[flatHeaderRE.FindStringSubmatch(line)[1]]
			continue
		case inFlat && strings.TrimSpace(line) == "":
			inFlat = false
		}
		if m := flatRE.FindStringSubmatch(line); inFlat && m != nil {
			w := get(m[5])
			w.self, _ = strconv.ParseFloat(m[1], 64)
			w.calls, _ = strconv.ParseFloat(m[2], 64)
			w.selfPerCall, w.totalPerCall, w.perSecond = m[3], m[4], unit
			flatSeen[m[5]] = true
		}
		if m := primaryRE.FindStringSubmatch(line); m != nil {
			name := regexp.MustCompile(` <cycle \d+>$`).ReplaceAllString(m[5], "")
			w := get(name)
			s, _ := strconv.ParseFloat(m[2], 64)
			c, _ := strconv.ParseFloat(m[3], 64)
			w.incl, w.hasIncl = s+c, true
			if !flatSeen[name] && !strings.HasPrefix(name, "<cycle") {
				w.self = s
				w.calls, _ = strconv.ParseFloat(m[4], 64)
			}
		}
	}
	return out
}

func TestReportsMatchTheirTables(t *testing.T) {
	for _, file := range []string{"gnu1.prof", "cycle.prof", "zeros.prof"} {
		t.Run(file, func(t *testing.T) {
			path := testkit.Data(t, "gprof", file)
			e, err := format.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			ref := reference(t, path)
			if len(ref) != len(e.Regions) {
				t.Errorf("%d regions, the report lists %d functions and cycles", len(e.Regions), len(ref))
			}
			excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("time"), Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			calls, _, _ := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("visits"), Inclusive: true})
			for r, reg := range e.Regions {
				w := ref[reg.Name]
				if w == nil {
					t.Errorf("region %q is not in the report", reg.Name)
					continue
				}
				if excl[r] != w.self || calls[r] != w.calls {
					t.Errorf("%s: self %v calls %v, the report says %v and %v", reg.Name, excl[r], calls[r], w.self, w.calls)
				}
				// gprof's inclusive time rounds to the call graph's self +
				// children (each printed to 0.01 s) and is exactly that
				// where that sum already gives the total ms/call column.
				if w.hasIncl && (math.Abs(incl[r]-w.incl) > 0.01+1e-12 ||
					incl[r] != w.incl && (w.totalPerCall == "" || printed(w.incl/w.calls*w.perSecond, w.totalPerCall) == w.totalPerCall)) {
					t.Errorf("%s: inclusive %v, the report's self + children %v (total/call %q)", reg.Name, incl[r], w.incl, w.totalPerCall)
				}
			}
			t.Logf("%d functions compared", len(e.Regions))
		})
	}
}

// printed formats v with as many decimals as the report's column has.
func printed(v float64, column string) string {
	decimals := 0
	if dot := strings.IndexByte(column, '.'); dot >= 0 {
		decimals = len(column) - dot - 1
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// TestPerCallMatchesReport: the derived metric "s/call" at each function
// of the flat profile gives the report's self ms/call (exclusive) and
// total ms/call (inclusive) to the printed precision, through every query
// that shows a flat profile.
func TestPerCallMatchesReport(t *testing.T) {
	for _, file := range []string{"gnu1.prof", "cycle.prof", "zeros.prof", "issue88.prof"} {
		t.Run(file, func(t *testing.T) {
			path := testkit.Data(t, "gprof", file)
			e, err := format.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			m := e.MetricByName("s/call")
			if m < 0 || !e.Metrics[m].IsDerived() || e.Metrics[m].Unit != "sec" {
				t.Fatalf("no derived metric s/call in seconds: %+v", e.Metrics)
			}
			ref := reference(t, path)
			excl, incl, err := e.RegionValues(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			excl2, incl2, err := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			compared := 0
			for r, reg := range e.Regions {
				if !sameValue(excl[r], excl2[r]) || !sameValue(incl[r], incl2[r]) {
					t.Errorf("%s: RegionValues %v/%v, FlatProfileOf %v/%v", reg.Name, excl[r], incl[r], excl2[r], incl2[r])
				}
				w := ref[reg.Name]
				if w == nil || w.selfPerCall == "" {
					// Time over no calls: undefined (NaN), or 0 where no
					// time either, as CubePL divides.
					if w != nil && w.calls == 0 && !(noValue(excl[r]) && noValue(incl[r])) {
						t.Errorf("%s: no calls but s/call %v/%v", reg.Name, excl[r], incl[r])
					}
					continue
				}
				if w.perSecond == 0 {
					t.Fatalf("unknown per-call unit in %s", file)
				}
				compared++
				if got := printed(excl[r]*w.perSecond, w.selfPerCall); got != w.selfPerCall {
					t.Errorf("%s: self per call %s (%v s), the report says %s", reg.Name, got, excl[r], w.selfPerCall)
				}
				if got := printed(incl[r]*w.perSecond, w.totalPerCall); got != w.totalPerCall {
					t.Errorf("%s: total per call %s (%v s), the report says %s", reg.Name, got, incl[r], w.totalPerCall)
				}
			}
			t.Logf("%d functions with per-call columns compared", compared)
		})
	}
}

func TestCallGraphArcs(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	region := map[string]int{}
	for r, reg := range e.Regions {
		region[reg.Name] = r
	}
	arc := func(caller, callee string) *model.CallArc {
		c := -1
		if caller != "" {
			c = region[caller]
		}
		for i, a := range e.CallGraph.Arcs {
			if a.Caller == c && a.Callee == region[callee] {
				return &e.CallGraph.Arcs[i]
			}
		}
		t.Fatalf("no arc %q → %q", caller, callee)
		return nil
	}
	time := e.MetricByName("time")
	if a := arc("main", "read_all_makefiles"); a.Calls != 5 || a.Values[time] != 0.18 {
		t.Errorf("main → read_all_makefiles: %+v", a)
	}
	if a := arc("", "main"); a.Calls != -1 || a.Values != nil {
		t.Errorf("<spontaneous> → main: %+v", a)
	}
	if a := arc("pattern_search", "pattern_search"); a.Calls != 421 {
		t.Errorf("recursive pattern_search: %+v", a)
	}
	if a := arc("eval", "find_char_unquote"); a.Calls != 12980 || a.Values[time] != 0.03 {
		t.Errorf("eval → find_char_unquote: %+v", a)
	}
	if v, _ := e.Attr("gprof sample period"); v != "0.01 seconds" {
		t.Errorf("sample period attribute %q", v)
	}
	ps := e.Regions[region["pattern_search"]]
	if len(ps.Attrs) < 2 || ps.Attrs[1] != (model.Attr{Key: "gprof recursive calls", Value: "421"}) {
		t.Errorf("pattern_search attributes %v", ps.Attrs)
	}
}

// TestZeroTimeUTF16: a UTF-16 report without any function opens.
func TestZeroTimeUTF16(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "gprof", "issue88.prof"))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Regions) != 0 || e.NumLocations() != 1 {
		t.Errorf("%d regions, %d locations", len(e.Regions), e.NumLocations())
	}
	if v, _ := e.Attr("gprof note"); v != "no time accumulated" {
		t.Errorf("note %q", v)
	}
}

// TestRoundTrip: the call graph survives both writers.
func TestRoundTrip(t *testing.T) {
	e, err := gprof.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := e.Dump(&want); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"g.cubex", "g.cube"} {
		out := filepath.Join(t.TempDir(), name)
		if err := format.Write(out, e); err != nil {
			t.Fatal(err)
		}
		back, err := format.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		back.Dump(&got)
		if d := testkit.Diff(want.String(), got.String()); d != "" {
			t.Errorf("%s: %s", name, d)
		}
		// The per-call metric comes back as a POSTDERIVED formula with
		// gprof's values.
		m, bm := e.MetricByName("s/call"), back.MetricByName("s/call")
		if bm < 0 || !back.Metrics[bm].IsDerived() || back.Metrics[bm].Type != model.PostDerived || back.Metrics[bm].Unit != "sec" {
			t.Fatalf("%s: s/call read back as %+v", name, back.Metrics[max(bm, 0)])
		}
		we, wi, _ := e.RegionValues(model.MetricSel{Metric: m, Inclusive: true})
		ge, gi, err := back.RegionValues(model.MetricSel{Metric: bm, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		for r := range we {
			if !sameValue(ge[r], we[r]) || !sameValue(gi[r], wi[r]) {
				t.Errorf("%s: %s: s/call %v/%v, before writing %v/%v", name, e.Regions[r].Name, ge[r], gi[r], we[r], wi[r])
			}
		}
	}
}

func BenchmarkReadGNU1(b *testing.B) {
	path := testkit.Data(b, "gprof", "gnu1.prof")
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := gprof.Open(path); err != nil {
			b.Fatal(err)
		}
	}
}

// sameValue reports whether a and b are equal, or both undefined (NaN).
func sameValue(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// noValue reports whether a derived value says nothing: 0 or undefined.
func noValue(v float64) bool { return v == 0 || math.IsNaN(v) }
