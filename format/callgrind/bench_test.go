package callgrind

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// generate writes a callgrind file of about size bytes in the style
// valgrind writes them: name compression, "instr line" positions with
// relative subpositions, four events, and calls between functions of
// several files and objects.
func generate(w io.Writer, size int64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &countWriter{w: bw}
	rng := rand.New(rand.NewPCG(1, 2))
	fmt.Fprint(cw, "# callgrind format\nversion: 1\ncreator: generated\npid: 1\ncmd: ./bench\npart: 1\n\npositions: instr line\nevents: Ir Dr Dw I1mr\nsummary: 0\n\n")
	const nfn, nfile, nobj = 5000, 300, 20
	definedFn := make([]bool, nfn)
	definedFile := make([]bool, nfile)
	definedObj := make([]bool, nobj)
	name := func(kind string, id int, defined []bool, text string) string {
		if defined[id] {
			return fmt.Sprintf("%s=(%d)\n", kind, id+1)
		}
		defined[id] = true
		return fmt.Sprintf("%s=(%d) %s\n", kind, id+1, text)
	}
	for fn := 0; cw.n < size; fn = (fn + 1) % nfn {
		file, obj := fn%nfile, fn%nobj
		fmt.Fprint(cw, name("ob", obj, definedObj, fmt.Sprintf("/usr/lib/libgenerated%d.so", obj)))
		fmt.Fprint(cw, name("fl", file, definedFile, fmt.Sprintf("/home/user/project/src/module%d/file%d.c", file%17, file)))
		fmt.Fprint(cw, name("fn", fn, definedFn, fmt.Sprintf("namespace%d::Class%d::method%d(int, double const&)", fn%13, fn%97, fn)))
		addr, line := 0x400000+fn*0x100, 10+fn%500
		fmt.Fprintf(cw, "0x%x %d %d %d %d %d\n", addr, line, 1+rng.IntN(9), rng.IntN(5), rng.IntN(3), rng.IntN(2))
		for i := 0; i < 12; i++ {
			fmt.Fprintf(cw, "+%d +%d %d %d %d\n", 1+rng.IntN(7), rng.IntN(3), 1+rng.IntN(90), rng.IntN(40), rng.IntN(20))
			if i%5 == 4 {
				// each function calls a few others, as programs do
				callee := (fn*7 + 1 + rng.IntN(4)*13) % nfn
				cf := callee % nfile
				fmt.Fprint(cw, name("cob", callee%nobj, definedObj, fmt.Sprintf("/usr/lib/libgenerated%d.so", callee%nobj)))
				fmt.Fprint(cw, name("cfi", cf, definedFile, fmt.Sprintf("/home/user/project/src/module%d/file%d.c", cf%17, cf)))
				fmt.Fprint(cw, name("cfn", callee, definedFn, fmt.Sprintf("namespace%d::Class%d::method%d(int, double const&)", callee%13, callee%97, callee)))
				fmt.Fprintf(cw, "calls=%d 0x%x %d\n* * %d %d %d %d\n", 1+rng.IntN(1000), 0x400000+callee*0x100, 10+callee%500,
					rng.IntN(1_000_000), rng.IntN(400_000), rng.IntN(200_000), rng.IntN(1000))
			}
		}
		fmt.Fprintln(cw)
	}
	return bw.Flush()
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// generated returns a generated file of about size bytes in a temporary
// directory of the benchmark.
func generated(b *testing.B, size int64) (string, int64) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "generated.callgrind")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := generate(f, size); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, st.Size()
}

// BenchmarkOpen50MB imports a generated 50 MB callgrind file; the MB/s
// figure is import throughput of profile text.
func BenchmarkOpen50MB(b *testing.B) {
	path, size := generated(b, 50<<20)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		if _, err := Read(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	// On a shared machine wall time overstates the cost; CPU time (all
	// threads, garbage collection included) says what the import takes.
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

// BenchmarkOpenReal imports the largest real sample.
func BenchmarkOpenReal(b *testing.B) {
	path := testkit.Data(b, "callgrind", "selinux.callgrind")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
