package perf

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"cubeview/format/importer"
	"cubeview/model"
)

func TestParseHeader(t *testing.T) {
	for _, tt := range []struct {
		line                  string
		comm, pid, tid, event string
		period                float64
		ok                    bool
	}{
		// The layouts of FlameGraph's, speedscope's and gprof2dot's samples.
		{"java 25607 4794564.109216: 1 cycles:", "java", "", "25607", "cycles", 1, true},
		{"java 12688 [002] 6544038.708352: 235 cpu-clock:", "java", "", "12688", "cpu-clock", 235, true},
		{"V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:", "V8 WorkerThread", "24636", "25607", "cycles", 100, true},
		{"func_ab 15294 cpu-clock: ", "func_ab", "", "15294", "cpu-clock", 0, true},
		{"noploop 21796 [001] 1410597.984841: instructions: ", "noploop", "", "21796", "instructions", 0, true},
		{"emulator  4152 75695.008865:          1 cycles:u: ", "emulator", "", "4152", "cycles:u", 1, true},
		{"simple-terminat     9/9     198791.127353: cpu-clock: ", "simple-terminat", "9", "9", "cpu-clock", 0, true},
		{"perf_3.0.0  1326 48625.215888: cycles: ", "perf_3.0.0", "", "1326", "cycles", 0, true},
		{"trace    6061 150520.991529:   16949152 task-clock:ppp: ", "trace", "", "6061", "task-clock:ppp", 16949152, true},
		{"sh 25975  1587.598493:    1001001 cpu-clock:ppp: ", "sh", "", "25975", "cpu-clock:ppp", 1001001, true},
		// Not sample lines: folded stacks, text, call-chain lines.
		{"a;b;c 12", "", "", "", "", 0, false},
		{"Flat profile:", "", "", "", "", 0, false},
		{"\t  400570 func_b (/root/lang/func_ab)", "", "", "", "", 0, false},
	} {
		h, ok := parseHeader(tt.line)
		if ok != tt.ok || ok && (h.comm != tt.comm || h.pid != tt.pid || h.tid != tt.tid || h.event != tt.event || h.period != tt.period || h.hasPeriod != (tt.period != 0)) {
			t.Errorf("parseHeader(%q) = %+v, %v", tt.line, h, ok)
		}
	}
}

func TestParseFrame(t *testing.T) {
	for _, tt := range []struct {
		line, name, module string
		ok                 bool
	}{
		{"\t          400570 func_b (/root/lang/func_ab)", "func_b", "/root/lang/func_ab", true},
		{"  7fffab39798b perf_event_exec+0x800054e0213b ([kernel.kallsyms])", "perf_event_exec", "[kernel.kallsyms]", true},
		{"\t 6ce258d4c544155 [unknown] ([unknown])", "[unknown]", "[unknown]", true},
		{"\t            52c4 [unknown] (/usr/bin/dash)", "[dash]", "/usr/bin/dash", true},
		{"\t    7f1e2162ad6f StealTask::do_it(GCTaskManager*, unsigned int) (/lib/libjvm.so)", "StealTask::do_it(GCTaskManager*, unsigned int)", "/lib/libjvm.so", true},
		{"\t    7f1e21 foo (/usr/lib/libfoo.so (deleted))", "foo", "/usr/lib/libfoo.so (deleted)", true},
		{"\t  4005b1 main", "main", "", true},
		{"  uniform_int_dist.h:300", "", "", false},
	} {
		f, ok := parseFrame(tt.line)
		if ok != tt.ok || f.name != tt.name || f.module != tt.module {
			t.Errorf("parseFrame(%q) = %+v, %v", tt.line, f, ok)
		}
	}
}

// pathValues returns, per location name and call path ("a;b;c"), the
// values of metric m.
func pathValues(t *testing.T, e *model.Experiment, m int) map[string]float64 {
	t.Helper()
	b, err := e.Block(m)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for c := range e.Cnodes {
		var names []string
		for x := c; x >= 0; x = e.Cnodes[x].Parent {
			names = append([]string{e.CnodeRegion(x).Name}, names...)
		}
		for l := 0; l < e.NumLocations(); l++ {
			if v := b.Value(c, l); v != 0 {
				loc := e.System[e.Locations[l]]
				out[e.System[loc.Parent].Name+"/"+loc.Name+":"+strings.Join(names, ";")] += v
			}
		}
	}
	return out
}

func TestScript(t *testing.T) {
	e, err := ReadScript(filepath.Join("testdata", "two-events.perf-script"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(e.Metrics) != 2 || e.Metrics[0].UniqName != "cycles" || e.Metrics[1].UniqName != "instructions" {
		t.Fatalf("metrics %+v", e.Metrics)
	}
	if e.Metrics[0].Identity != "PAPI_TOT_CYC" || e.Metrics[1].Identity != "PAPI_TOT_INS" {
		t.Errorf("identities %q, %q", e.Metrics[0].Identity, e.Metrics[1].Identity)
	}
	got := pathValues(t, e, 0)
	want := map[string]float64{
		"solver (process 4711)/thread 4711:__libc_start_main;main;kernel_step":    2000,
		"solver (process 4711)/thread 4712:__libc_start_main;main;kernel_step":    3000,
		"solver (process 4711)/thread 4711:__libc_start_main;main;[libc-2.19.so]": 1000,
		"solver (process 4711)/thread 4711:[no stack]":                            700,
	}
	if len(got) != len(want) {
		t.Errorf("values %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	if got := pathValues(t, e, 1)["solver (process 4711)/thread 4711:__libc_start_main;main;kernel_step"]; got != 500 {
		t.Errorf("instructions %v", got)
	}
	if v, _ := e.Attr("perf hostname"); v != "test-host" {
		t.Errorf("hostname attribute %q", v)
	}
	if r := e.Regions[e.Cnodes[e.CnodeRoots[0]].Region]; r.Module != "/lib/x86_64-linux-gnu/libc-2.19.so" {
		t.Errorf("root region %+v", r)
	}
}

// TestScriptWithoutCallChains: perf record without -g prints each sample
// on one line; perf's default output names threads, not processes, and
// cpu-clock periods are nanoseconds. (The input begins with a UTF-8
// byte-order mark.)
func TestScriptWithoutCallChains(t *testing.T) {
	in := "\ufeffprog  8074  1587.598493:    1001001 cpu-clock:ppp:           401136 leaf+0x1a (/tmp/prog)\n" +
		"prog  8074  1587.599493:    1001001 cpu-clock:ppp:           401200 fib (/tmp/prog)\n" +
		"prog  8075  1587.600493:    1001001 cpu-clock:ppp:           401136 leaf+0x20 (/tmp/prog)\n"
	e, err := ParseScript(strings.NewReader(in), "x")
	if err != nil {
		t.Fatal(err)
	}
	if m := e.Metrics[0]; m.UniqName != "cpu-clock:ppp" || m.Unit != "sec" || m.Identity != model.IdentityCPUTime {
		t.Errorf("metric %+v", m)
	}
	got := pathValues(t, e, 0)
	for k, v := range map[string]float64{
		"prog (thread 8074, process not recorded)/thread 8074:leaf": 0.001001001,
		"prog (thread 8074, process not recorded)/thread 8074:fib":  0.001001001,
		"prog (thread 8075, process not recorded)/thread 8075:leaf": 0.001001001,
	} {
		if math.Abs(got[k]-v) > 1e-15 {
			t.Errorf("%s: %v, want %v (all %v)", k, got[k], v, got)
		}
	}
}

func utf16le(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func TestFolded(t *testing.T) {
	simple := "a;b;c 1\na;b;c 1\na;b;d 4\na;b;c 3\na;b 5"
	for _, tt := range []struct {
		name, in string
		want     map[string]float64
		warn     string
	}{
		{"simple", simple, map[string]float64{"process/thread 0:a;b;c": 5, "process/thread 0:a;b;d": 4, "process/thread 0:a;b": 5}, ""},
		{"CRLF and BOM", "\ufeff" + strings.ReplaceAll(simple, "\n", "\r\n"), map[string]float64{"process/thread 0:a;b;c": 5, "process/thread 0:a;b;d": 4, "process/thread 0:a;b": 5}, ""},
		{"UTF-16", string(utf16le(strings.ReplaceAll(simple, "\n", "\r\n"))), map[string]float64{"process/thread 0:a;b;c": 5, "process/thread 0:a;b;d": 4, "process/thread 0:a;b": 5}, ""},
		{"comments and invalid lines", "# extra info\n// other\n" + simple + "\ninvalid line\n", map[string]float64{"process/thread 0:a;b;c": 5, "process/thread 0:a;b;d": 4, "process/thread 0:a;b": 5}, "x: 1 lines are not stacks and are left out (the first on line 8)"},
		{"BOM and tabs", "\ufeffa;b;c\t5\n", map[string]float64{"process/thread 0:a;b;c": 5}, ""},
		{"stackcollapse --tid", "func_ab-15294/15294;main;func_a 112\nfunc_ab-15294/15295;main;func_b 116\n",
			map[string]float64{"func_ab (process 15294)/thread 15294:main;func_a": 112, "func_ab (process 15294)/thread 15295:main;func_b": 116}, ""},
		{"stackcollapse --pid", "func_ab-15294;main;func_a 112\nfunc_ab-15294;main;func_b 116\n",
			map[string]float64{"func_ab (process 15294)/threads:main;func_a": 112, "func_ab (process 15294)/threads:main;func_b": 116}, ""},
		{"fractional counts", "a;b 0.5\na;c 1.25\n", map[string]float64{"process/thread 0:a;b": 0.5, "process/thread 0:a;c": 1.25}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseFolded(strings.NewReader(tt.in), "x")
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			got := pathValues(t, e, 0)
			if len(got) != len(tt.want) {
				t.Errorf("values %v", got)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s: %v, want %v (all %v)", k, got[k], v, got)
				}
			}
			if tt.warn == "" && len(e.Warnings) > 0 || tt.warn != "" && (len(e.Warnings) != 1 || e.Warnings[0] != tt.warn) {
				t.Errorf("warnings %q, want %q", e.Warnings, tt.warn)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	script, _ := os.ReadFile(filepath.Join("testdata", "two-events.perf-script"))
	for _, tt := range []struct {
		name           string
		head           []byte
		script, folded bool
	}{
		{"perf script with header", script, true, false},
		{"perf script", []byte("func_ab 15294 cpu-clock: \n\t  400570 func_b (/root/lang/func_ab)\n\t  4005b1 main (/root/lang/func_ab)\n"), true, false},
		{"perf script, no call chains", []byte("prog  8074  1587.598493:    1001001 cpu-clock:ppp:  401136 leaf+0x1a (/tmp/prog)\nprog  8074  1587.599493:    1001001 cpu-clock:ppp:  401200 fib (/tmp/prog)\n"), true, false},
		{"perf script with a byte-order mark", []byte("\ufefffunc_ab 15294 cpu-clock: \n\t  400570 func_b (/root/lang/func_ab)\n"), true, false},
		{"folded", []byte("a;b;c 1\na;b;d 4\n"), false, true},
		{"folded, UTF-16", utf16le("a;b;c 1\r\na;b;d 4\r\n"), false, true},
		{"folded, comment", []byte("# comment\na;b;c 1\na;b 5\n"), false, true},
		{"one frame each", []byte("main 5\nfoo 4\n"), false, false},
		{"folded with an invalid line", []byte("a;b;c 1\na;b 5\ninvalid line\n"), false, true},
		{"text with one stack-like line", []byte("hello world\nsee a;b 5\n"), false, false},
		{"gprof", []byte("Flat profile:\n\nEach sample counts as 0.01 seconds.\n"), false, false},
		{"mpiP", []byte("@ mpiP\n@ Command : ./a\n"), false, false},
		{"TAU", []byte("2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"), false, false},
		{"empty", nil, false, false},
	} {
		if got := DetectScript(tt.head, "x") != importer.No; got != tt.script {
			t.Errorf("%s: DetectScript = %v", tt.name, got)
		}
		if got := DetectFolded(tt.head, "x") != importer.No; got != tt.folded {
			t.Errorf("%s: DetectFolded = %v", tt.name, got)
		}
	}
}

// TestBadInput: errors name the input and the line.
func TestBadInput(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
		folded         bool
	}{
		{"garbage line", "prog 1 1.0: 5 cycles: \n\t400 main (/a)\nhello world\n", "x:3: neither a sample's first line", false},
		{"frame outside a sample", "\t400 main (/a)\n", "x:1: a call-chain line outside a sample", false},
		{"periods mixed", "prog 1 1.0: 5 cycles: \n\t400 main (/a)\n\nprog 1 2.0: cycles: \n\t400 main (/a)\n", "x:4: a sample of \"cycles\" without a period, though the one on line 1 has one", false},
		{"header only", "# ========\n# captured on : now\n# ========\n", "x: no samples", false},
		{"long token", "prog 1 1.0: 5 cycles: \n" + strings.Repeat("x", 4<<20) + "\n", "… (4194304 bytes)", false},
		{"long folded token", strings.Repeat("x", 4<<20) + "\n", "x:1: not a folded stack", true},
		{"no stack", "hello\nworld\n", "x:1: not a folded stack", true},
		{"empty", "", "x: no stacks", true},
	} {
		var err error
		if tt.folded {
			_, err = ParseFolded(strings.NewReader(tt.in), "x")
		} else {
			_, err = ParseScript(strings.NewReader(tt.in), "x")
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 300 {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func FuzzScript(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "two-events.perf-script")); err == nil {
		f.Add(data)
	}
	f.Add([]byte("prog  8074  1587.598493:    1001001 cpu-clock:ppp:  401136 leaf+0x1a (/tmp/prog)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseScript(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}

func FuzzFolded(f *testing.F) {
	f.Add([]byte("a;b;c 1\na;b;d 4\n# c\nx 2.5\n"))
	f.Add([]byte("func_ab-15294/15294;main;func_a 112\n"))
	f.Add(utf16le("a;b 1\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseFolded(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}
