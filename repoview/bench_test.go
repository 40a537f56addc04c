package repoview

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"cubeview/repo"
)

// trials10k is a listing of 10,000 trials: 20 applications × 25
// experiments × 20 trials, each with three automatic and three user
// attributes, as repo.Trials returns it.
func trials10k() Listing {
	var ts []repo.Trial
	id := int64(0)
	for a := 0; a < 20; a++ {
		for e := 0; e < 25; e++ {
			for k := 0; k < 20; k++ {
				id++
				procs := strconv.Itoa(1 << (k % 8))
				ts = append(ts, repo.Trial{ID: id, App: fmt.Sprintf("app%02d", a), Experiment: fmt.Sprintf("exp%02d", e),
					Name: fmt.Sprintf("run%d.cubex", id), Format: "CUBE 4.5 (.cubex)", Imported: time.Unix(1700000000+id, 0),
					Attrs: []repo.Attribute{
						repo.NewAttribute("compiler", "gcc-13", repo.FromUser), repo.NewAttribute("locations", procs, repo.Automatic),
						repo.NewAttribute("procs", procs, repo.Automatic), repo.NewAttribute("size", strconv.Itoa(10*k), repo.FromUser),
						repo.NewAttribute("threads", "1", repo.Automatic), repo.NewAttribute("variant", "v"+strconv.Itoa(e%3), repo.FromUser),
					}})
			}
		}
	}
	return Listing{Trials: ts}
}

// BenchmarkSetListing10k lays out the tree of 10,000 trials, as the
// window does after every filter change.
func BenchmarkSetListing10k(b *testing.B) {
	l := trials10k()
	b.ReportAllocs()
	for b.Loop() {
		br := NewBrowser()
		br.SetListing(l)
		if len(br.Rows()) != 10000+20+500 {
			b.Fatalf("%d rows", len(br.Rows()))
		}
	}
}

// BenchmarkVisibleRows10k is what drawing one screen of 40 rows asks
// for, with an application of 500 trials marked and the marks of every
// group row counted.
func BenchmarkVisibleRows10k(b *testing.B) {
	br := NewBrowser()
	br.SetListing(trials10k())
	br.MarkRow(0, true)
	if len(br.Marked()) != 500 {
		b.Fatalf("%d marked", len(br.Marked()))
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < 40; i++ {
			_ = br.Rows()[i].TreeText()
			_ = br.RowMark(i)
		}
	}
}
