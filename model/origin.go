package model

// Origin identifies where an experiment that is not a file was read
// from, for the provenance of results computed from it: the store (a
// repository's identity) and the checksum and size of the file the data
// were first read from.
type Origin struct {
	Store  string
	SHA256 string // lowercase hex
	Size   int64
}

// Originator is implemented by loaders that read an experiment from a
// store rather than a file.
type Originator interface {
	Origin() Origin
}

// Origin returns where e was read from, when its loader says (ok false
// for experiments read from files or computed).
func (e *Experiment) Origin() (o Origin, ok bool) {
	if or, isOr := e.data.loader.(Originator); isOr {
		return or.Origin(), true
	}
	return Origin{}, false
}
