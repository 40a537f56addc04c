package format

import (
	"cubeview/format/caliper"
	"cubeview/format/callgrind"
	"cubeview/format/gprof"
	"cubeview/format/hpctoolkit"
	"cubeview/format/mpip"
	"cubeview/format/papi"
	"cubeview/format/pprof"
	"cubeview/format/tau"
	"cubeview/model"
)

// An importer reads one foreign profile format (DESIGN §7) into an
// ordinary experiment.
type importer struct {
	// name says what the format is, e.g. "TAU profile directory".
	name string
	// detect reports whether path is in this format, from whether it is a
	// directory and, for a file, its first bytes (up to 1 KiB).
	detect func(path string, dir bool, head []byte) bool
	// open reads the experiment; errors name the file and the problem.
	open func(path string) (*model.Experiment, error)
}

// importers are tried in order on whatever is not a CUBE file. Each
// importer package adds one line here.
var importers = []importer{
	{"TAU profile directory", tau.Detect, tau.Open},
	{"GNU gprof report", gprof.Detect, gprof.Open},
	{"mpiP report", mpip.Detect, mpip.Open},
	{"HPCToolkit database", hpctoolkit.Detect, hpctoolkit.Open},
	{"PAPI high-level measurement", papi.Detect, papi.Open},
	{"Caliper .cali", func(_ string, dir bool, head []byte) bool { return !dir && caliper.DetectCali(head) }, caliper.OpenCali},
	{"Caliper JSON", func(path string, dir bool, head []byte) bool { return !dir && caliper.Detect(path, head) }, caliper.Open},
	{"callgrind profile", func(_ string, dir bool, head []byte) bool { return !dir && callgrind.Detect(head) }, callgrind.Open},
	// pprof's protobuf is recognised by a weaker test than the others: last.
	{"pprof profile", func(_ string, dir bool, head []byte) bool { return !dir && pprof.Detect(head) }, pprof.Open},
}
