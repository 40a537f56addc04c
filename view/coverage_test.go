package view

import (
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/internal/testkit/handmade"
	"cubeview/model"
)

func TestMatching(t *testing.T) {
	e := handmade.WithProvenance()
	if got := matching(e); len(got) != 0 {
		t.Errorf("no roots matched, sentences %q", got)
	}
	e.Attrs = append(e.Attrs, model.Attr{Key: algebra.AttrRoots, Value: "roots a and b matched"},
		model.Attr{Key: algebra.AttrMatching, Value: "metric time: time (operand 0) = TIME (operand 1), by canonical identity time (wall clock)\n6 regions matched by canonical name: MPI_Bcast() (operand 1) = MPI_Bcast"})
	want := []string{"metric time: time (operand 0) = TIME (operand 1), by canonical identity time (wall clock)",
		"6 regions matched by canonical name: MPI_Bcast() (operand 1) = MPI_Bcast",
		"Roots a and b matched (Strict root matching in the algebra dialogs keeps them apart)"}
	if got := matching(e); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences %q, want %q", got, want)
	}
	if len(matching(handMade())) != 0 {
		t.Error("an original has matching sentences")
	}
}
