package format

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// varint appends the protobuf varint encoding of v.
func varint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// pbField appends protobuf field num: a varint for a uint64, bytes
// (length-delimited) for a []byte or string.
func pbField(b []byte, num int, v any) []byte {
	switch v := v.(type) {
	case uint64:
		return varint(varint(b, uint64(num)<<3), v)
	case []byte:
		return append(varint(varint(b, uint64(num)<<3|2), uint64(len(v))), v...)
	case string:
		return pbField(b, num, []byte(v))
	}
	panic("pbField")
}

// perfettoTrace is a small Perfetto trace as the tracing service writes
// it (trace.proto: Trace{repeated TracePacket packet = 1}): a track
// descriptor and a slice on it, each packet with its timestamp (8) and
// trusted sequence id (10).
func perfettoTrace() []byte {
	track := pbField(pbField(nil, 1, uint64(42)), 2, "main thread")                   // TrackDescriptor{uuid, name}
	begin := pbField(pbField(pbField(nil, 9, uint64(1)), 11, uint64(42)), 23, "work") // TrackEvent{type=SLICE_BEGIN, track_uuid, name}
	end := pbField(pbField(nil, 9, uint64(2)), 11, uint64(42))
	var trace []byte
	for i, p := range [][]byte{
		pbField(pbField(pbField(nil, 8, uint64(1000)), 10, uint64(1)), 60, track),
		pbField(pbField(pbField(nil, 8, uint64(2000)), 10, uint64(1)), 11, begin),
		pbField(pbField(pbField(nil, 8, uint64(9000)), 10, uint64(1)), 11, end),
	} {
		_ = i
		trace = pbField(trace, 1, p)
	}
	return trace
}

// tgzOf archives the files of dir under the folder name prefix,
// gzip-compressed, as "tar czf" does.
func tgzOf(t *testing.T, dir, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: prefix + "/", Typeflag: tar.TypeDir, Mode: 0o755}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: prefix + "/" + e.Name(), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestWrongErrors: inputs that readers used to claim and then refuse with
// a misleading message (a Perfetto trace read as pprof, a .tgz of TAU
// profiles as a broken .cubex, HPCToolkit's metrics YAML as callgrind, a
// Chrome .cpuprofile as Caliper JSON) are named for what they are, with
// the next step, and are ErrUnknownFormat.
func TestWrongErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cpuprofile := `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2]},` +
		`{"id":2,"callFrame":{"functionName":"main","scriptId":"1","url":"a.js","lineNumber":0,"columnNumber":0},"hitCount":5}],"startTime":0,"endTime":100,"samples":[2,2],"timeDeltas":[0,50]}`
	tests := []struct {
		path string
		want []string
	}{
		{write("trace.perfetto-trace", perfettoTrace()), []string{"Perfetto trace", "traceconv profile"}},
		{write("renamed.pb", perfettoTrace()), []string{"Perfetto trace"}},
		{write("tau-runs.tgz", tgzOf(t, testkit.Data(t, "tau", "cpi-mpi"), "cpi-mpi")), []string{"tar archive of TAU profiles", "tar xf"}},
		{testkit.Data(t, "hpctoolkit", "vectorAdd-metadb", "metrics", "default.yaml"), []string{"metric taxonomy of an HPCToolkit database", "open the database folder " + testkit.Data(t, "hpctoolkit", "vectorAdd-metadb")}},
		{testkit.Data(t, "hpctoolkit", "vectorAdd-metadb", "metrics", "METRICS.yaml.ex"), []string{"metric taxonomy of an HPCToolkit database"}},
		{write("default.yaml", []byte("version: 0\ninputs:\n  - &a\n    metric: GKER:X\n    scope: execution\n    formula: $$\n    combine: sum\n")), []string{"metric taxonomy of an HPCToolkit database"}},
		{write("app.cpuprofile", []byte(cpuprofile)), []string{"Chrome or V8 CPU profile", "pprof"}},
		{write("renamed.json", []byte(cpuprofile)), []string{"Chrome or V8 CPU profile"}},
	}
	for _, tt := range tests {
		_, err := Open(tt.path)
		if err == nil {
			t.Errorf("%s: opened", tt.path)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q; want %q", tt.path, err, w)
			}
		}
		if !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%s: %v is not ErrUnknownFormat", tt.path, err)
		}
	}
}

// TestWrongErrorsSpeedscope: the Chrome and Node.js CPU and heap profiles
// of speedscope's samples are named for what they are.
func TestWrongErrorsSpeedscope(t *testing.T) {
	paths, local := testkit.MirrorFiles(t, "jlfwong/speedscope", func(p string) bool {
		return strings.HasPrefix(p, "sample/profiles/") && (strings.HasSuffix(p, ".cpuprofile") || strings.HasSuffix(p, ".heapprofile"))
	})
	if len(paths) == 0 {
		t.Fatal("no .cpuprofile or .heapprofile in the snapshot")
	}
	for _, p := range paths {
		_, err := Open(local[p])
		want := "Chrome or V8 CPU profile"
		if strings.HasSuffix(p, ".heapprofile") {
			want = "Chrome or V8 heap profile"
		}
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%s: %v; want %q", p, err, want)
		}
	}
}
