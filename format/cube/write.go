package cube

import (
	"archive/tar"
	"bytes"
	"io"

	"cubeview/model"
)

// WriteXML writes e as a CUBE 3.0 XML document.
func WriteXML(w io.Writer, e *model.Experiment) error {
	return encodeXML(w, e, false)
}

// WriteCubex writes e as a CUBE 4 .cubex archive: per metric with values
// a sparse .index and an uncompressed .data member in the metric's data
// type, values stored call-tree exclusive (type EXCLUSIVE) in depth-first
// cnode order, rows that are absent or all zero left out, and anchor.xml
// last. Metrics without values (Unavailable) get no members.
//
// Values that the data type cannot hold (a fraction or an out-of-range
// number in an integer metric, NaN, infinities) are an error naming
// metric, cnode and location; a negative value never fits an unsigned
// type. One exception keeps such files writable: an integer metric whose
// own values do not fit its type but whose call-tree inclusive values do
// is written INCLUSIVE, rows in the wide cnode enumeration.
func WriteCubex(w io.Writer, e *model.Experiment) error {
	return writeCubex(w, e, cubexWriteOptions{})
}

// CubexOptions adjusts WriteCubexWith.
type CubexOptions struct {
	// Inclusive stores every metric with values call-tree inclusive (type
	// INCLUSIVE, rows in the wide cnode enumeration), the way Score-P
	// stores time.
	Inclusive bool
}

// WriteCubexWith writes e as WriteCubex does, adjusted by o.
func WriteCubexWith(w io.Writer, e *model.Experiment, o CubexOptions) error {
	opt := cubexWriteOptions{}
	if o.Inclusive {
		opt.inclusive = func(int) bool { return true }
	}
	return writeCubex(w, e, opt)
}

func writeCubex(w io.Writer, e *model.Experiment, opt cubexWriteOptions) error {
	tw := tar.NewWriter(w)
	inclusive, err := writeCubexData(tw, e, opt)
	if err != nil {
		return err
	}
	var anchor bytes.Buffer
	if err := encodeXML(&anchor, e, true); err != nil {
		return err
	}
	body := anchor.Bytes()
	if len(inclusive) > 0 {
		ids := map[int]bool{}
		for _, m := range inclusive {
			ids[e.Metrics[m].ID] = true
		}
		if body, err = setInclusive(body, ids); err != nil {
			return err
		}
	}
	if err := writeMember(tw, anchorName, int64(len(body)), memberTime); err != nil {
		return err
	}
	if _, err := tw.Write(body); err != nil {
		return err
	}
	return tw.Close()
}
