package cube

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"cubeview/format/importer"
	"cubeview/internal/filesum"
	"cubeview/model"
)

// Format is CUBE in the registry of formats: CUBE 4 .cubex archives and
// CUBE 2/3 XML, either possibly gzip-compressed.
var Format = importer.Format{
	Name:   "CUBE",
	Tool:   "CUBE",
	Files:  "CUBE 4 `.cubex` archives (Score-P, Scalasca) and CUBE 2/3 XML (`.cube`, `.cube.gz`)",
	Detect: Detect,
	Read:   Read,
}

// Detect recognises a .cubex tar archive or a CUBE XML document by its
// first bytes (decompressed, for a gzip-compressed file). An XML document
// without a <cube element is a weak guess, so that another format's XML
// is read by its own reader while CUBE's reader explains the failure of
// an XML file nobody else claims.
func Detect(head []byte, path string) importer.Confidence {
	switch sniff(head) {
	case kindTar:
		// A .cubex archive's members lie in its top folder; an archive of
		// folders is something else (a tar of profile directories).
		if name := bytes.TrimRight(head[:100], "\x00"); bytes.ContainsRune(name, '/') {
			return importer.Weak
		}
		return importer.Likely
	case kindXML:
		if bytes.Contains(head, []byte("<cube")) {
			return importer.Certain
		}
		return importer.Weak
	}
	return importer.No
}

// Read reads the CUBE file at path: a .cubex archive (metric data are
// loaded on first use, see OpenCubex) or CUBE XML, either of them
// possibly gzip-compressed (decompressed within importer.Budget). With
// opts.HashContent, the file's bytes are hashed as they are read
// (model.Experiment.ContentSum).
func Read(path string, opts importer.Options) (*model.Experiment, error) {
	if opts.HashContent {
		return readHashed(path)
	}
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	head, err := f.Peek(1024)
	if err != nil && len(head) == 0 {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !f.Compressed && sniff(head) == kindTar {
		f.Close()
		return OpenCubex(path) // keeps its own handle for lazy loading
	}
	return readContent(f, head, path)
}

// readHashed is Read through a filesum.File, whose sum the experiment
// offers as its ContentSum.
func readHashed(path string) (*model.Experiment, error) {
	hf, err := filesum.Open(path)
	if err != nil {
		return nil, err
	}
	return readFrom(hf, path)
}

// readFrom reads the CUBE file hf (at path) and offers hf's sum.
func readFrom(hf *filesum.File, path string) (*model.Experiment, error) {
	f, err := importer.NewFile(hf, hf.Size(), hf)
	if err != nil {
		hf.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head, err := f.Peek(1024)
	if err != nil && len(head) == 0 {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var e *model.Experiment
	if !f.Compressed && sniff(head) == kindTar {
		e, err = readCubex(hf, hf.Size(), path, hf) // the archive closes hf
	} else {
		e, err = readContent(f, head, path)
	}
	if err != nil {
		return nil, err
	}
	model.SetContentSum(e, hf.Sum)
	return e, nil
}

// readContent reads the CUBE XML or compressed .cubex content of f, whose
// first bytes are head, and closes f.
func readContent(f *importer.File, head []byte, path string) (*model.Experiment, error) {
	kind := sniff(head)
	if !f.Compressed {
		defer f.Close()
		return ReadXML(f, path)
	}
	defer f.Close()
	var e *model.Experiment
	var err error
	switch kind {
	case kindXML:
		e, err = ReadXML(f, path)
	case kindTar:
		e, err = ReadCubexStream(f, path)
	default:
		return nil, fmt.Errorf("%s: gzip-compressed, but the content is not a CUBE file", path)
	}
	if err != nil {
		var be *importer.BudgetError
		if errors.As(err, &be) && !strings.Contains(err.Error(), path) {
			return nil, fmt.Errorf("%s: %w", path, be)
		}
		return nil, err
	}
	e.Format += " (gzip)"
	return e, nil
}

type fileKind int

const (
	kindUnknown fileKind = iota
	kindTar
	kindXML
)

// sniff recognises a .cubex archive or CUBE XML by its first bytes.
func sniff(head []byte) fileKind {
	if len(head) >= 263 && (string(head[257:263]) == "ustar\x00" || string(head[257:263]) == "ustar ") {
		return kindTar
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(text, []byte("<?xml")) || bytes.HasPrefix(text, []byte("<cube")) {
		return kindXML
	}
	if len(head) >= 512 && plausibleTarHeader(head[:512]) {
		return kindTar
	}
	return kindUnknown
}

// plausibleTarHeader accepts an old-style tar header without the ustar
// magic when its checksum is right (or 32 too low, the CubeWriter 4.8
// deviation).
func plausibleTarHeader(h []byte) bool {
	var sum int64
	for i, c := range h {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	field := strings.Trim(string(h[148:156]), " \x00")
	var stored int64
	if _, err := fmt.Sscanf(field, "%o", &stored); err != nil {
		return false
	}
	return h[0] != 0 && (stored == sum || stored == sum-32)
}
