package algebra

import (
	"maps"
	"testing"

	"cubeview/model"
)

func TestCanonicalRegionName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"MPI_Bcast", "MPI_Bcast"},
		{"MPI_Bcast()  ", "MPI_Bcast"}, // TAU pads its event names
		{"PMPI_Reduce", "MPI_Reduce"},  // a sampler sees the PMPI_ symbol
		{"PMPI_Reduce [libmpi.so.40.30.1]", "MPI_Reduce"},
		{"int main(int, char**)", "main"},
		{"int main(int, char **) C [{cpi.c} {20,1}-{60,1}]", "main"}, // TAU with PDT
		{"foo [{a.c} {3}]", "foo"},
		{"std::vector<int>::at(unsigned long) const", "std::vector<int>::at"},
		{"std::map<int, std::pair<int,int> >::find(int const&)", "std::map<int, std::pair<int,int> >::find"},
		{"void ns::f<void (*)(int)>(void (*)(int))", "ns::f<void (*)(int)>"},
		{"Foo::operator()(int)", "Foo::operator()"},
		{"operator()", "operator()"},
		{"void* operator new(unsigned long)", "operator new"},
		{"a[3]", "a[3]"},
		{"<unknown procedure>", "<unknown procedure>"},
		{"<program root>", "<program root>"},
		{"loop at cpi.c:62", "loop at cpi.c:62"},
		{".TAU application", ".TAU application"},
		{"PMPI_", "PMPI_"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := CanonicalRegionName(tt.name); got != tt.want {
			t.Errorf("CanonicalRegionName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCanonicalRegionsMatch: regions match exactly first, then by
// canonical form, and a region claims at most one of another operand's
// (MPI_Init takes MPI_Init(), PMPI_Init stays apart); the summary counts
// the canonical matches.
func TestCanonicalRegionsMatch(t *testing.T) {
	a := build(t, spec{source: "a", metrics: []string{"time sec DOUBLE"},
		cnodes: []string{"main", "main/MPI_Init()", "main/MPI_Bcast()"}, system: []string{"m/n/0/0"},
		data: map[string]map[string][]float64{"time": {"main/MPI_Init()": {1}, "main/MPI_Bcast()": {2}}}})
	b := build(t, spec{source: "b", metrics: []string{"time sec DOUBLE"},
		cnodes: []string{"main", "main/PMPI_Init", "main/MPI_Init", "main/PMPI_Bcast"}, system: []string{"m/n/0/0"},
		data: map[string]map[string][]float64{"time": {"main/MPI_Init": {5}, "main/PMPI_Init": {7}, "main/PMPI_Bcast": {3}}}})
	ig, err := Integrate([]*model.Experiment{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := ig.Result
	got := map[string]model.Mask{}
	for c := range res.Cnodes {
		got[res.CallPath(c)] = res.Cnodes[c].Present
	}
	want := map[string]model.Mask{"main": 3, "main/MPI_Init()": 3, "main/MPI_Bcast()": 3, "main/PMPI_Init": 2}
	if !maps.Equal(got, want) {
		t.Errorf("call paths %v, want %v", got, want)
	}
	if n := len(ig.Report.Regions); n != 2 {
		t.Errorf("%d regions matched by canonical name, want 2: %+v", n, ig.Report.Regions)
	}
}
