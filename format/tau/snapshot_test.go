package tau

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"cubeview/format/importer"
	"cubeview/model"
)

// snapDoc writes a thread's document as TAU_PROFILE_FORMAT=snapshot does:
// the thread and its metadata, its definitions, then its profile. An
// earlier, intermediate snapshot (half the calls and values) comes first.
func snapDoc(node int, host string) string {
	id := fmt.Sprintf("%d.0.0.%d", node, 4000+node)
	var b strings.Builder
	fmt.Fprintf(&b, "<profile_xml>\n\n<thread id=\"%s\" node=\"%d\" context=\"0\" thread=\"0\">\n<metadata>\n", id, node)
	fmt.Fprintf(&b, "<attribute>\n<name>Hostname</name>\n<value>%s</value>\n</attribute>\n<attribute>\n<name>TAU Version</name>\n<value>2.33</value>\n</attribute>\n</metadata>\n</thread>\n\n", host)
	fmt.Fprintf(&b, "<definitions thread=\"%s\">\n<metric id=\"0\"><name>TIME</name>\n<units>unknown</units>\n</metric>\n</definitions>\n\n", id)
	fmt.Fprintf(&b, "<definitions thread=\"%s\">\n", id)
	for i, ev := range treeEvents {
		name, group := snapEventOf(ev)
		fmt.Fprintf(&b, "<event id=\"%d\"><name>%s </name><group>%s</group></event>\n", i, escapeText(name), group)
	}
	fmt.Fprintf(&b, "</definitions>\n\n<definitions thread=\"%s\">\n<userevent id=\"0\"><name><![CDATA[Message size : .TAU application => MPI_Send()]]></name></userevent>\n</definitions>\n\n", id)
	for snap, div := range []float64{2, 1} {
		if snap > 0 {
			b.WriteString("<profile_xml>\n")
		}
		fmt.Fprintf(&b, "<profile thread=\"%s\">\n<name>snapshot %d</name>\n<timestamp>%d</timestamp>\n<interval_data metrics=\"0 \">\n", id, snap, 1000+snap)
		for i, ev := range treeEvents {
			f := strings.Fields(ev[strings.LastIndex(ev, `" `)+2:])
			calls, excl, incl := num(f[0])/div, num(f[2])/div, num(f[3])/div
			fmt.Fprintf(&b, "%d %v %s %.16G %.16G \n", i, calls, f[1], excl, incl)
		}
		fmt.Fprintf(&b, "</interval_data>\n<atomic_data>\n0 2 64 16 40 4352\n</atomic_data>\n</profile>\n\n</profile_xml>\n")
	}
	return b.String()
}

func num(s string) float64 {
	var v float64
	fmt.Sscan(s, &v)
	return v
}

func snapEventOf(line string) (name, group string) {
	end := strings.LastIndex(line, `" `)
	name = line[1:end]
	_, g, _ := strings.Cut(line, `GROUP="`)
	return name, strings.TrimSuffix(g, `"`)
}

func escapeText(s string) string {
	var b bytes.Buffer
	xmlEscape(&b, s)
	return b.String()
}

func xmlEscape(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
}

// TestSnapshotSameAsProfiles: a thread's last snapshot, in one file per
// thread or both threads merged into one (with the NULs TAU leaves
// between documents), is the experiment of its profile files.
func TestSnapshotSameAsProfiles(t *testing.T) {
	user := []string{`"Message size : .TAU application => MPI_Send()" 2 64 16 40 4352`}
	files := map[string]string{}
	for node, host := range []string{"n0", "n1"} {
		meta := map[string]string{"Hostname": host, "TAU Version": "2.33"}
		files[fmt.Sprintf("profile.%d.0.0", node)] = prof("templated_functions_MULTI_TIME", meta, treeEvents, user)
	}
	want := dumpOf(t, mustRead(t, files))
	dir := fstest.MapFS{
		"snapshot.0.0.0": {Data: []byte(snapDoc(0, "n0"))},
		"snapshot.1.0.0": {Data: []byte(snapDoc(1, "n1"))},
	}
	e, err := readSnapshotDir(dir, "run", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpOf(t, e); got != want {
		t.Errorf("snapshot files differ from the profile files:\n%s", diffLines(want, got))
	}
	merged := snapDoc(1, "n1") + "\x00 " + snapDoc(0, "n0")
	e, err = readSnapshot([]byte(merged), "tauprofile.xml", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpOf(t, e); got != want {
		t.Errorf("a merged file differs from the profile files:\n%s", diffLines(want, got))
	}
}

// dumpOf validates e and returns its dump without the format line.
func dumpOf(t *testing.T, e *model.Experiment) string {
	t.Helper()
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	format := e.Format
	e.Format = ""
	err := e.Dump(&b)
	e.Format = format
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSnapshotBadInput: a damaged XML profile is an error naming the file,
// the line and what is wrong.
func TestSnapshotBadInput(t *testing.T) {
	good := snapDoc(0, "n0")
	for _, tt := range []struct {
		name, data, want string
	}{
		{"not XML", "<profile_xml><thread", "t.xml:1: not well-formed XML"},
		{"no threads", "<profile_xml></profile_xml>", "t.xml: no <thread> in the TAU XML profile"},
		{"undefined event", strings.Replace(good, "\n3 1 0 200 ", "\n9 1 0 200 ", 1), "interval data of thread 0.0.0.4000: event id 9 is not defined"},
		{"missing column", strings.Replace(good, "\n3 1 0 200 200 \n", "\n3 1 0 200\n", 1), "interval data of thread 0.0.0.4000: 4 fields, want 5 (event id, calls, subroutine calls, exclusive and inclusive of 1 metric)"},
		{"not a number", strings.Replace(good, "\n3 1 0 200 ", "\n3 1 0 2x0 ", 1), `interval data of thread 0.0.0.4000: exclusive value: "2x0" is not a number`},
		{"undefined user event", strings.Replace(good, "<atomic_data>\n0 ", "<atomic_data>\n7 ", 1), "atomic data of thread 0.0.0.4000: user event id 7 is not defined"},
		{"undefined metric", strings.Replace(good, `metrics="0 "`, `metrics="0 4"`, 1), "metric id 4 is not defined"},
		{"unknown thread", strings.Replace(good, `<profile thread="0.0.0.4000">`, `<profile thread="9">`, 1), `<profile thread="9"> of a thread no <thread> element defines`},
		{"bad node", strings.Replace(good, `node="0"`, `node="x"`, 1), `<thread node="x">: not an id`},
		{"empty event name", strings.Replace(good, "<name>.TAU application </name>", "<name> </name>", 1), "event 0 has an empty name"},
	} {
		_, err := readSnapshot([]byte(tt.data), "t.xml", importer.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "t.xml") {
			t.Errorf("%s: error %v, want one naming t.xml and containing %q", tt.name, err, tt.want)
		}
	}
	// The line of a bad data line.
	bad := strings.Replace(good, "\n3 1 0 200 ", "\n3 1 0 2x0 ", 1)
	line := strings.Count(bad[:strings.Index(bad, "2x0")], "\n") + 1
	if _, err := readSnapshot([]byte(bad), "t.xml", importer.Options{}); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("t.xml:%d:", line)) {
		t.Errorf("bad number on line %d: %v", line, err)
	}
}

// TestSnapshotDamagedFile: one damaged snapshot file of a directory is
// left out with a warning; a strict read refuses it.
func TestSnapshotDamagedFile(t *testing.T) {
	dir := fstest.MapFS{
		"snapshot.0.0.0": {Data: []byte(snapDoc(0, "n0"))},
		"snapshot.1.0.0": {Data: []byte(snapDoc(1, "n1")[:500])},
		"snapshot.2.0.0": {Data: []byte(snapDoc(2, "n2"))},
	}
	e, err := readSnapshotDir(dir, "run", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumLocations() != 2 || len(e.Warnings) != 1 || !strings.HasPrefix(e.Warnings[0], "run/snapshot.1.0.0:") || !strings.HasSuffix(e.Warnings[0], "that file's threads are left out") {
		t.Errorf("%d locations, warnings %q", e.NumLocations(), e.Warnings)
	}
	if _, err := readSnapshotDir(dir, "run", importer.Options{Strict: true}); err == nil || !strings.HasPrefix(err.Error(), "run/snapshot.1.0.0:") {
		t.Errorf("strict: %v", err)
	}
	// The same thread in two files.
	dir["snapshot.1.0.0"] = &fstest.MapFile{Data: []byte(snapDoc(0, "n0"))}
	if _, err := readSnapshotDir(dir, "run", importer.Options{}); err == nil || !strings.Contains(err.Error(), "thread node 0, context 0, thread 0 appears twice") {
		t.Errorf("duplicate thread: %v", err)
	}
}

// FuzzSnapshot reads arbitrary bytes as a TAU XML profile: a valid
// experiment or an error, never a panic or a hang.
func FuzzSnapshot(f *testing.F) {
	f.Add([]byte(snapDoc(0, "n0")))
	f.Add([]byte(`<profile_xml><definitions thread="*"><metric id="0"><name>TIME</name></metric><event id="0"><name>a</name><group>g</group></event></definitions></profile_xml><profile_xml><thread id="t" node="0" context="0" thread="0"></thread><profile thread="t"><interval_data metrics="0">0 1 0 5 5</interval_data></profile></profile_xml>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := readSnapshot(data, "fuzz.xml", importer.Options{})
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}

// scorepSnapshot is what Score-P's TAU snapshot writer
// (scorep_profile_tausnap_writer.c) writes for one thread of the call tree
// main (1 call, 10 µs own) → foo (2, 30) → bar (4, 60), main → bar (1, 5):
// the call paths from the root, then a summary per other region with a
// helper child "X => X" holding the calls and time of X's callees; events
// without groups.
const scorepSnapshot = `<profile_xml>
<thread id="3.0.0.0" node="3" context="0" thread="0">
</thread>

<definitions thread="3.0.0.0">
<metric id="0"><name>TIME</name>
<units>ms</units>
</metric>
</definitions>

<definitions thread="3.0.0.0">
</definitions>

<definitions thread="3.0.0.0">
<event id="0"><name>main</name></event>
<event id="1"><name>main =&gt; foo</name></event>
<event id="2"><name>main =&gt; foo =&gt; bar</name></event>
<event id="3"><name>main =&gt; bar</name></event>
<event id="4"><name>foo</name></event>
<event id="5"><name>foo =&gt; foo</name></event>
<event id="6"><name>bar</name></event>
<event id="7"><name>bar =&gt; bar</name></event>
</definitions>

<profile thread="3.0.0.0">
<name>final</name>
<interval_data metrics="0">
0 1 3 10 105
1 2 4 30 90
2 4 0 60 60
3 1 0 5 5
4 2 4 30 90
5 4 0 60 60
6 5 0 65 65
7 0 0 0 0
</interval_data>
<atomic_data>
</atomic_data>
</profile>

</profile_xml>
`

// TestScorePSnapshot: Score-P's snapshot gives its call tree, without
// the helper events of its per-region summaries.
func TestScorePSnapshot(t *testing.T) {
	e, err := readSnapshot([]byte(scorepSnapshot), "tau/snapshot.3.0.0", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if e.CallGraph != nil || len(e.Cnodes) != 4 || len(e.CnodeRoots) != 1 {
		t.Fatalf("%d cnodes, %d roots, call graph %v; want the call tree of 4 cnodes", len(e.Cnodes), len(e.CnodeRoots), e.CallGraph != nil)
	}
	for path, want := range map[string][2]float64{
		"main": {10e-6, 1}, "main/foo": {30e-6, 2}, "main/foo/bar": {60e-6, 4}, "main/bar": {5e-6, 1},
	} {
		c := e.CnodeByPath(path)
		if c < 0 {
			t.Errorf("no call path %s", path)
			continue
		}
		if got := [2]float64{total(t, e, "TIME", c), total(t, e, "visits", c)}; !near2(got, want) {
			t.Errorf("%s: time, visits %v, want %v", path, got, want)
		}
	}
	if r := e.Location(0); e.System[r.Parent].Rank != 3 {
		t.Errorf("rank %d, want 3", e.System[r.Parent].Rank)
	}
}

// TestBoundedQuoting: however long the bad token, an error message stays
// short (importer.Quote's rule).
func TestBoundedQuoting(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	good := snapDoc(0, "n0")
	bad := strings.ReplaceAll(good, "0.0.0.4000", huge) // a thread id
	bad = strings.Replace(bad, "\n3 1 0 200 ", "\n3 1 0 2y0 ", 1)
	profile := prof("templated_functions_MULTI_TIME", nil, treeEvents, nil)
	for name, err := range map[string]error{
		"XML thread id": func() error { _, err := readSnapshot([]byte(bad), "t.xml", importer.Options{}); return err }(),
		"XML number": func() error {
			_, err := readSnapshot([]byte(strings.Replace(good, "\n3 1 0 200 ", "\n3 1 0 "+huge+" ", 1)), "t.xml", importer.Options{})
			return err
		}(),
		"profile number": func() error {
			_, err := read(t, map[string]string{"profile.0.0.0": strings.Replace(profile, `"foo()" 3 1 300`, `"foo()" 3 1 `+huge, 1)})
			return err
		}(),
		"profile name": func() error {
			_, err := read(t, map[string]string{"profile.0.0.0": strings.Replace(profile, `"foo()" 3 1 300 800 0`, `"`+huge+`" 3 1 300 x 0`, 1)})
			return err
		}(),
		"ppk name": func() error {
			p := samplePPK()
			p.funcs[1].name = strings.Repeat("\xff", 60000)
			_, err := readPacked(p.bytes(), "run.ppk", importer.Options{})
			return err
		}(),
	} {
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%s: error of %d bytes: %.300v", name, len(fmt.Sprint(err)), err)
		}
	}
}
