package cube

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"cubeview/format/internal/build"
	"cubeview/model"
)

// ReadXML reads a CUBE 2.0 or 3.0 XML document (a whole .cube file, plain
// or gzip-compressed). name is used in error messages.
func ReadXML(r io.Reader, name string) (*model.Experiment, error) {
	doc, err := decodeXML(r, name)
	if err != nil {
		return nil, err
	}
	if !doc.HasSeverity {
		return nil, fmt.Errorf("%s: CUBE %s XML without data is the anchor.xml of a .cubex archive; open the .cubex file", name, doc.Version)
	}
	doc.Exp.Format = "CUBE " + doc.Version + " XML"
	build.Identify(doc.Exp, "", identities)
	return doc.Exp, nil
}

// OpenCubex opens the CUBE 4 .cubex file at path. Only the metadata are
// read; each metric's data are read when the metric is first used, so the
// file stays open until every metric with data has been loaded.
func OpenCubex(path string) (*model.Experiment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return readCubex(f, st.Size(), path, f)
}

// ReadCubex reads the CUBE 4 .cubex archive of size bytes in r; name is
// used in error messages. Metric data are read from r on first use, so r
// must stay readable as long as the experiment is used.
func ReadCubex(r io.ReaderAt, size int64, name string) (*model.Experiment, error) {
	return readCubex(r, size, name, nil)
}

func readCubex(r io.ReaderAt, size int64, name string, closer io.Closer) (*model.Experiment, error) {
	a, err := indexArchive(r, size, name, closer)
	if err != nil {
		if closer != nil {
			closer.Close()
		}
		return nil, err
	}
	e, err := a.read()
	if err != nil {
		a.close()
		return nil, err
	}
	return e, nil
}

// read decodes anchor.xml and attaches the metric data.
func (a *cubexArchive) read() (*model.Experiment, error) {
	anchor, size, err := a.anchor()
	if err != nil {
		return nil, err
	}
	doc, err := decodeXML(anchor, a.name+":"+anchorName)
	if err != nil {
		return nil, err
	}
	if size >= 1<<20 {
		// Decoding a large anchor leaves many megabytes of garbage;
		// collecting it now, before the caller loads metric data, keeps
		// the peak resident memory close to the data actually loaded.
		runtime.GC()
	}
	doc.Exp.Source = a.name
	doc.Exp.Format = "CUBE " + doc.Version + " (.cubex)"
	build.Identify(doc.Exp, "", identities)
	if doc.HasSeverity {
		// A CUBE 3 document inside the archive carries its own data.
		a.close()
		return doc.Exp, nil
	}
	if err := a.attachData(doc.Exp, doc.LocationColumn); err != nil {
		return nil, err
	}
	doc.Exp.BindFormulas() // data types may have made operands unavailable
	return doc.Exp, nil
}
