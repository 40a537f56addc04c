package importer

import (
	"strconv"

	"cubeview/model"
)

// A Format is one profile format a reader reads: what the registry of
// package format lists, asks and opens.
type Format struct {
	// Name says what the format is, e.g. "TAU profile" or "pprof
	// profile"; names are unique in the registry.
	Name string
	// Tool is the short name of the tool that writes it ("TAU",
	// "pprof"), for lists such as the open dialog's.
	Tool string
	// Files says what is opened, for the help text and the README:
	// "a directory of profile.N.C.T files, or one such file".
	Files string
	// Detect reports how sure the reader is that the input is in this
	// format.
	Detect func(head []byte, path string) Confidence
	// Read reads the experiment at path. Its errors name the file and
	// the problem (and where they can the line, member or field).
	Read func(path string, opts Options) (*model.Experiment, error)
}

// Confidence is how sure Detect is that an input is in its format. The
// registry reads an input with the most confident reader; a look-alike
// (a file of a kind no reader reads, told by name or first bytes) is
// preferred to a Weak guess.
type Confidence int

const (
	// No: the input is not in this format.
	No Confidence = iota
	// Weak: the input is plausible, but the test cannot tell it from
	// other formats of the same family (a protobuf message, an XML
	// document without the format's root element).
	Weak
	// Likely: the input has the keywords or layout the format writes.
	Likely
	// Certain: the input has the format's signature (a magic number, a
	// header line no other format writes).
	Certain
)

// String names the level.
func (c Confidence) String() string {
	switch c {
	case No:
		return "no"
	case Weak:
		return "weak"
	case Likely:
		return "likely"
	case Certain:
		return "certain"
	}
	return "Confidence(" + strconv.Itoa(int(c)) + ")"
}

// Options are the choices a caller makes for every reader.
type Options struct {
	// Strict refuses input that a reader would otherwise read in part,
	// noting what it left out in the experiment's Warnings (a damaged
	// file among a profile directory's, lines it cannot parse).
	Strict bool
	// HashContent asks a reader that can to compute the SHA-256 of the
	// file from the bytes it reads (model.Experiment.ContentSum), so
	// that a caller needing the checksum does not read the file again.
	HashContent bool
}

// HeadSize is how many first bytes of a file Detect is given.
const HeadSize = 4096
