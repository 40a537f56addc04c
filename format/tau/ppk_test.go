package tau

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/model"
)

// ppkFunc, ppkThreadData describe what writePPK packs.
type testFunc struct {
	name   string
	groups []int
}

type testFP struct {
	fn          int
	calls, subr float64
	vals        []float64 // exclusive, inclusive per metric
}

type testUE struct {
	ue                     int
	count                  int32
	min, max, mean, sumsqr float64
}

type testThread struct {
	n, c, t int32
	meta    [][2]string
	fps     []testFP
	ues     []testUE
}

type testPPK struct {
	trialMeta  [][2]string
	metrics    []string
	groups     []string
	funcs      []testFunc
	userEvents []string
	threads    []testThread
}

// ppkWriter writes big-endian values as Java's DataOutputStream does.
type ppkWriter struct{ bytes.Buffer }

func (w *ppkWriter) i32(v int32) { binary.Write(&w.Buffer, binary.BigEndian, v) }
func (w *ppkWriter) f64(v float64) {
	binary.Write(&w.Buffer, binary.BigEndian, math.Float64bits(v))
}
func (w *ppkWriter) utf(s string) {
	binary.Write(&w.Buffer, binary.BigEndian, uint16(len(s)))
	w.WriteString(s)
}

// bytes returns the packed profile's uncompressed bytes in the layout of
// ParaProf's DataSourceExport.writePacked (version 2, compatible 1).
func (p testPPK) bytes() []byte {
	var w, h ppkWriter
	w.Write(ppkMagic)
	w.i32(2)
	w.i32(1)
	h.i32(0)
	h.i32(int32(len(p.trialMeta)))
	for _, kv := range p.trialMeta {
		h.utf(kv[0])
		h.utf(kv[1])
	}
	h.i32(int32(len(p.threads)))
	for _, t := range p.threads {
		h.i32(t.n)
		h.i32(t.c)
		h.i32(t.t)
		h.i32(int32(len(t.meta)))
		for _, kv := range t.meta {
			h.utf(kv[0])
			h.utf(kv[1])
		}
	}
	w.i32(int32(h.Len()))
	w.Write(h.Bytes())
	w.i32(int32(len(p.metrics)))
	for _, m := range p.metrics {
		w.utf(m)
	}
	w.i32(int32(len(p.groups)))
	for _, g := range p.groups {
		w.utf(g)
	}
	w.i32(int32(len(p.funcs)))
	for _, f := range p.funcs {
		w.utf(f.name)
		w.i32(int32(len(f.groups)))
		for _, g := range f.groups {
			w.i32(int32(g))
		}
	}
	w.i32(int32(len(p.userEvents)))
	for _, u := range p.userEvents {
		w.utf(u)
	}
	w.i32(int32(len(p.threads)))
	for _, t := range p.threads {
		w.i32(t.n)
		w.i32(t.c)
		w.i32(t.t)
		w.i32(int32(len(t.fps)))
		for _, fp := range t.fps {
			w.i32(int32(fp.fn))
			w.f64(fp.calls)
			w.f64(fp.subr)
			for _, v := range fp.vals {
				w.f64(v)
			}
		}
		w.i32(int32(len(t.ues)))
		for _, u := range t.ues {
			w.i32(int32(u.ue))
			w.i32(u.count)
			w.f64(u.min)
			w.f64(u.max)
			w.f64(u.mean)
			w.f64(u.sumsqr)
		}
	}
	return w.Bytes()
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// samplePPK is the data of treeEvents (tau_test.go) for two threads and
// two metrics, with a user event, as ParaProf packs it.
func samplePPK() testPPK {
	p := testPPK{
		trialMeta:  [][2]string{{"TAU Version", "2.33"}, {"Note", "a & b"}},
		metrics:    []string{"TIME", "PAPI_TOT_CYC"},
		groups:     []string{"TAU_DEFAULT", "TAU_USER", "TAU_CALLPATH", "MPI", "TAU_CALLPATH_DERIVED"},
		userEvents: []string{"Message size : .TAU application => MPI_Send()"},
	}
	type ev struct {
		name              string
		groups            []int
		calls, excl, incl float64
	}
	evs := []ev{
		{".TAU application", []int{0}, 1, 100, 1000},
		{"foo()", []int{1}, 3, 300, 800},
		{".TAU application => foo()", []int{2, 1}, 2, 200, 600},
		{"bar() [{bar.c} {12,1}-{40,2}]", []int{1}, 1, 200, 200},
		{".TAU application => foo() => bar() [{bar.c} {12,1}-{40,2}]", []int{2, 1}, 1, 200, 200},
		{"MPI_Send()", []int{3}, 4, 100, 100},
		{".TAU application => MPI_Send()", []int{2, 3}, 4, 100, 100},
		{"foo() => bar() [{bar.c} {12,1}-{40,2}]", []int{2, 1, 4}, 1, 200, 200}, // ParaProf's reverse data
	}
	for _, e := range evs {
		p.funcs = append(p.funcs, testFunc{e.name, e.groups})
	}
	for th := int32(0); th < 2; th++ {
		t := testThread{n: th, meta: [][2]string{{"Hostname", "n" + string(rune('0'+th))}}}
		for i, e := range evs {
			t.fps = append(t.fps, testFP{fn: i, calls: e.calls, vals: []float64{e.excl, e.incl, 10 * e.excl, 10 * e.incl}})
		}
		t.ues = []testUE{{ue: 0, count: 2, min: 16, max: 64, mean: 40, sumsqr: 4352}}
		p.threads = append(p.threads, t)
	}
	return p
}

// TestPackedSameAsProfiles: a packed profile and the profile directory
// it was packed from are one experiment.
func TestPackedSameAsProfiles(t *testing.T) {
	p := samplePPK()
	file := filepath.Join(t.TempDir(), "run.ppk")
	if err := os.WriteFile(file, gzipped(p.bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := ReadPacked(file, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	cyc := make([]string, len(treeEvents))
	for i, ev := range treeEvents { // the counter holds ten times the time
		f := strings.Fields(ev[strings.LastIndex(ev, `" `)+2:])
		excl, incl := f[2], f[3]
		cyc[i] = strings.Replace(ev, " "+excl+" "+incl+" ", " "+excl+"0 "+incl+"0 ", 1)
	}
	user := []string{`"Message size : .TAU application => MPI_Send()" 2 64 16 40 4352`}
	files := map[string]string{}
	for th, host := range []string{"n0", "n1"} {
		meta := map[string]string{"TAU Version": "2.33", "Note": "a &amp; b", "Hostname": host}
		name := "profile." + string(rune('0'+th)) + ".0.0"
		files["MULTI__TIME/"+name] = prof("templated_functions_MULTI_TIME", meta, treeEvents, user)
		files["MULTI__PAPI_TOT_CYC/"+name] = prof("templated_functions_MULTI_PAPI_TOT_CYC", meta, cyc, nil)
	}
	d := mustRead(t, files)
	var want, got bytes.Buffer
	d.Format, e.Format = "", ""
	d.Attrs, e.Attrs = nil, nil
	if err := d.Dump(&want); err != nil {
		t.Fatal(err)
	}
	if err := e.Dump(&got); err != nil {
		t.Fatal(err)
	}
	if want.String() != got.String() {
		t.Errorf("the packed profile differs from its profile files:\n%s", diffLines(want.String(), got.String()))
	}
	if v, _ := e.Location(1).Attrs[0], 0; v.Key != "Hostname" || v.Value != "n1" {
		t.Errorf("second thread's metadata %v", e.Location(1).Attrs)
	}
}

// diffLines returns the first differing lines of two texts.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\nwant " + a + "\ngot  " + b
		}
	}
	return ""
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestPackedBadInput: a damaged packed profile is an error naming the file,
// the byte offset and the field.
func TestPackedBadInput(t *testing.T) {
	good := samplePPK().bytes()
	headerEnd := len(ppkMagic) + 8 + 4 + int(binary.BigEndian.Uint32(good[len(ppkMagic)+8:]))
	metricsAt := headerEnd // the number of metrics
	set := func(b []byte, at int, v uint32) []byte {
		b = bytes.Clone(b)
		binary.BigEndian.PutUint32(b[at:], v)
		return b
	}
	funcsAt := bytes.Index(good, []byte("\x00\x10.TAU application")) - 4
	nanAt := bytes.LastIndex(good, []byte{0x40, 0xb1, 0, 0, 0, 0, 0, 0}) // the sum of squares 4352
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a packed profile", []byte("hello world"), "run.ppk: not a ParaProf packed profile (no PPK signature)"},
		{"truncated", good[:len(good)-7], "run.ppk: byte "},
		{"truncated in the header", good[:20], "metadata header"},
		{"newer version", set(good, 10, 3), "run.ppk: a packed profile of version 2 that needs a reader of version 3; this reader knows version 2"},
		{"impossible count", set(good, metricsAt, 1<<30), "number of metrics: count 1073741824 is impossible in the"},
		{"negative count", set(good, metricsAt, 0xffffffff), "number of metrics: count -1 is impossible"},
		{"no metrics", set(good, metricsAt, 0)[:metricsAt+4], "the packed profile has no metrics"},
		{"group index", set(good, funcsAt+4+2+16+4, 99), "group index: index 99 is not among the 5 defined"},
		{"NaN", append(bytes.Clone(good[:nanAt]), append([]byte{0x7f, 0xf8, 0, 0, 0, 0, 0, 1}, good[nanAt+8:]...)...), "is not a value"},
		{"modified UTF-8", bytes.Replace(good, []byte("foo()"), []byte("fo\xff()"), 1), `function name: not modified UTF-8 text: "fo\xff()"`},
	} {
		_, err := readPacked(tt.data, "run.ppk", importer.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	// Bytes after the last thread: a warning, or refused when strict.
	e, err := readPacked(append(bytes.Clone(good), 1, 2, 3), "run.ppk", importer.Options{})
	if err != nil || len(e.Warnings) != 1 || e.Warnings[0] != "run.ppk: 3 bytes after the last thread's data ignored" {
		t.Errorf("trailing bytes: %v, warnings %q", err, e.Warnings)
	}
	if _, err := readPacked(append(bytes.Clone(good), 1, 2, 3), "run.ppk", importer.Options{Strict: true}); err == nil {
		t.Error("trailing bytes: a strict read accepts them")
	}
	// A thread listed twice.
	p := samplePPK()
	p.threads[1].n = 0
	if _, err := readPacked(p.bytes(), "run.ppk", importer.Options{}); err == nil || !strings.Contains(err.Error(), "thread node 0, context 0, thread 0 is listed twice") {
		t.Errorf("duplicate thread: %v", err)
	}
}

// TestModifiedUTF8: Java's encoding of NUL and of characters beyond the
// basic plane.
func TestModifiedUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                          "plain",
		"a\xc0\x80b":                     "a\x00b",
		"\xed\xa0\xbd\xed\xb8\x80 smile": "\U0001F600 smile",
		"caf\xc3\xa9":                    "café",
	} {
		got, ok := modifiedUTF8([]byte(in))
		if !ok || string(got) != want {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := modifiedUTF8([]byte("\xff")); ok {
		t.Error("accepts \\xff")
	}
}

// FuzzPacked reads arbitrary bytes as a packed profile: a valid
// experiment or an error, never a panic or a hang.
func FuzzPacked(f *testing.F) {
	f.Add(samplePPK().bytes())
	p := samplePPK()
	p.metrics = p.metrics[:1]
	for i := range p.threads {
		for j := range p.threads[i].fps {
			p.threads[i].fps[j].vals = p.threads[i].fps[j].vals[:2]
		}
	}
	f.Add(p.bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := readPacked(data, "fuzz.ppk", importer.Options{})
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}

// TestPackedBudget: a packed profile that inflates beyond the shared
// decompression budget is refused, naming the file.
func TestPackedBudget(t *testing.T) {
	saved := importer.Budget
	defer func() { importer.Budget = saved }()
	importer.Budget = func(compressed int64) int64 { return 1 << 16 }
	bomb := append(samplePPK().bytes(), make([]byte, 1<<20)...)
	file := filepath.Join(t.TempDir(), "bomb.ppk")
	if err := os.WriteFile(file, gzipped(bomb), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadPacked(file, importer.Options{})
	var be *importer.BudgetError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), file) {
		t.Errorf("error %v, want a budget error naming the file", err)
	}
}

// TestPackedTimeIdentity: ParaProf names the one metric of a plain profile
// directory "Time"; it is wall-clock time like TAU's TIME.
func TestPackedTimeIdentity(t *testing.T) {
	p := samplePPK()
	p.metrics[0] = "Time"
	e, err := readPacked(p.bytes(), "run.ppk", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := e.Metrics[e.MetricByName("Time")]; m.Identity != model.IdentityTime || m.Unit != "sec" {
		t.Errorf("Time: identity %q unit %q", m.Identity, m.Unit)
	}
}
