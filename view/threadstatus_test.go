package view

import (
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestThreadStatusNamesProcessRank selects BT-MZ's OMP threads: the
// status line and tooltip of a thread of MPI Rank 0 must not read as
// "rank 1" (a thread's rank counts threads within its process).
func TestThreadStatusNamesProcessRank(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "quirks", "cube4.8_with_checksum_bug.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	mustUpdate(t, v)
	checked := 0
	for i := range e.System {
		s := &e.System[i]
		if s.Kind != model.Leaf {
			continue
		}
		proc := e.System[s.Parent].Rank
		SelectNodes(v, Node{SystemNode, i})
		mustUpdate(t, v)
		status := v.Explain(SystemPane)
		want := ", thread " + strconv.Itoa(s.Rank) + " of process rank " + strconv.Itoa(proc)
		if !strings.Contains(status, want) {
			t.Errorf("%s of %s: status %q lacks %q", s.Name, e.System[s.Parent].Name, status, want)
		}
		if proc != s.Rank && strings.Contains(status, ", rank "+strconv.Itoa(s.Rank)) {
			t.Errorf("%s of %s: status %q names the thread's rank as a rank", s.Name, e.System[s.Parent].Name, status)
		}
		checked++
	}
	if checked != 8 {
		t.Fatalf("%d threads checked, want BT-MZ's 8", checked)
	}
}
