package cube

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	"cubeview/format/importer"
	"cubeview/model"
)

// cubexMember matches the members a .cubex reader uses: anchor.xml and the
// .index and .data members of metrics.
var cubexMember = regexp.MustCompile(`^(anchor\.xml|[0-9]+\.(index|data))$`)

// ReadCubexStream reads a CUBE 4 .cubex archive from a stream that cannot
// seek, such as a gzip-decompressed file, in one pass and with bounded
// memory: the members the reader uses are copied to an unnamed temporary
// file, from which metric data are read on first use; every other member
// is skipped without being kept. name is used in error messages.
func ReadCubexStream(r io.Reader, name string) (*model.Experiment, error) {
	spool, err := os.CreateTemp("", "cubeview-*.cubex")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	closer := removeOnClose(spool)
	var unterminated int64
	members, err := spoolTar(r, spool, func(member string) bool { return cubexMember.MatchString(member) }, &unterminated)
	if err != nil {
		closer.Close()
		if errors.Is(err, errNotTar) {
			return nil, fmt.Errorf("%s: not a .cubex file: %w", name, err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a := &cubexArchive{name: name, r: spool, closer: closer, members: members, unterminated: unterminated}
	e, err := a.read()
	if err != nil {
		a.close()
		return nil, err
	}
	return e, nil
}

// removeOnClose returns a closer that closes f and removes it; on systems
// that allow it the file is removed at once, so nothing is left behind
// even if the process is killed.
func removeOnClose(f *os.File) io.Closer {
	removed := os.Remove(f.Name()) == nil
	return closerFunc(func() error {
		err := f.Close()
		if !removed {
			os.Remove(f.Name())
		}
		return err
	})
}

type closerFunc func() error

func (c closerFunc) Close() error { return c() }

// spoolTar reads the tar archive in r sequentially, copying the members
// keep accepts to dst and skipping the others, and returns where each
// kept member lies in dst. Headers are read as readTarIndex reads them,
// without insisting on correct checksums. *unterminated is set as
// readTarArchive returns it.
func spoolTar(r io.Reader, dst io.Writer, keep func(name string) bool, unterminated *int64) (map[string]tarMember, error) {
	*unterminated = -1
	members := map[string]tarMember{}
	var hdr [tarBlock]byte
	var hs tarHeaders
	var written int64
	for off := int64(0); ; {
		n, err := io.ReadFull(r, hdr[:])
		if err != nil {
			if n == 0 && errors.Is(err, io.EOF) && off > 0 {
				*unterminated = off // end of archive without zero blocks
				return members, nil
			}
			if off == 0 {
				return nil, errNotTar
			}
			return nil, fmt.Errorf("truncated tar archive: header at byte %d: %w", off, err)
		}
		h, end, err := hs.header(&hdr, off)
		if err != nil {
			return nil, err
		}
		if end {
			return members, nil
		}
		off += tarBlock
		padded := (h.size + tarBlock - 1) / tarBlock * tarBlock
		if h.extended() {
			if err := checkExtended(h, off-tarBlock); err != nil {
				return nil, err
			}
			buf := make([]byte, padded)
			if _, err := io.ReadFull(r, buf); err != nil {
				return nil, fmt.Errorf("truncated tar archive: extended header at byte %d: %w", off, err)
			}
			if err := hs.extend(h, buf[:h.size], off-tarBlock); err != nil {
				return nil, err
			}
			off += padded
			continue
		}
		if name := hs.name(h); h.regular() && keep(name) {
			if _, err := io.CopyN(dst, r, h.size); err != nil {
				return nil, fmt.Errorf("truncated tar archive: member %s at byte %d: %w", importer.Quote(name), off, err)
			}
			members[name] = tarMember{name: name, offset: written, size: h.size}
			written += h.size
			if _, err := io.CopyN(io.Discard, r, padded-h.size); err != nil {
				return nil, fmt.Errorf("truncated tar archive: member %s at byte %d: %w", importer.Quote(name), off, err)
			}
		} else if _, err := io.CopyN(io.Discard, r, padded); err != nil {
			return nil, fmt.Errorf("truncated tar archive: member %s at byte %d: %w", importer.Quote(name), off, err)
		}
		off += padded
	}
}
