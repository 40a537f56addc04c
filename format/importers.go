package format

import (
	"slices"

	"cubeview/format/caliper"
	"cubeview/format/callgrind"
	"cubeview/format/cube"
	"cubeview/format/gprof"
	"cubeview/format/hpctoolkit"
	"cubeview/format/importer"
	"cubeview/format/mpip"
	"cubeview/format/papi"
	"cubeview/format/perf"
	"cubeview/format/pprof"
	"cubeview/format/tau"
)

// registry lists every format Open reads. A reader of a new format is a
// package with a Format (package importer) and one line here; Open, the
// help text, the open dialog's list and the README's table of formats
// follow from this list. Of readers equally sure of an input, the first
// listed reads it.
var registry = []importer.Format{
	cube.Format,
	tau.Format,
	tau.Packed,
	tau.XML,
	gprof.Format,
	mpip.Format,
	hpctoolkit.Format,
	papi.Format,
	caliper.Cali,
	caliper.Format,
	callgrind.Format,
	pprof.Format,
	perf.Script,
	perf.Folded,
}

// Formats returns the formats Open reads, in the registry's order.
func Formats() []importer.Format { return slices.Clone(registry) }

// Tools returns the names of the tools whose formats Open reads, each
// once, in the registry's order ("CUBE", "TAU", …).
func Tools() []string {
	var tools []string
	for _, f := range registry {
		if !slices.Contains(tools, f.Tool) {
			tools = append(tools, f.Tool)
		}
	}
	return tools
}

// detect returns the reader most sure that it reads the input at path
// whose first bytes are head (nil for a directory), and how sure it is.
func detect(head []byte, path string) (*importer.Format, importer.Confidence) {
	var best *importer.Format
	conf := importer.No
	for i := range registry {
		if c := registry[i].Detect(head, path); c > conf {
			best, conf = &registry[i], c
			if c == importer.Certain {
				break
			}
		}
	}
	return best, conf
}
