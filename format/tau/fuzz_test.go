package tau

import (
	"testing"
	"testing/fstest"

	"cubeview/format/importer"
)

// FuzzTAU reads arbitrary bytes as the profile of thread 0 and of thread 1
// (the second half): any input yields a valid experiment or an error,
// never a panic or a hang.
func FuzzTAU(f *testing.F) {
	f.Add([]byte(prof("templated_functions_MULTI_TIME", nil, treeEvents, []string{`"Message size : .TAU application => MPI_Send()" 2 64 16 40 4352`, `"Heap" 1 1 1 1 1`})), 0)
	f.Add([]byte(prof("templated_functions", map[string]string{"TAU_CALLPATH_DEPTH": "2"}, []string{`"main" 1 1 10 100 0`, `"a" 1 0 90 90 0`, `"main => a" 1 0 90 90 0`}, nil)), 40)
	f.Add([]byte("1 templated_functions_hw_counters\n\"x\" 1 0 1 1 1 GROUP=\"g\"\n3 4\n0 aggregates\n"), 0)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		if split < 0 || split > len(data) {
			split = len(data)
		}
		fsys := fstest.MapFS{"profile.0.0.0": {Data: data}}
		if split < len(data) {
			fsys["profile.0.0.1"] = &fstest.MapFile{Data: data[split:]}
		}
		e, err := ReadFS(fsys, "fuzz", importer.Options{})
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}
