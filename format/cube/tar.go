package cube

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cubeview/format/importer"
)

// tarMember locates one regular file inside a tar archive.
type tarMember struct {
	name   string
	offset int64 // of the member's data from the start of the archive
	size   int64
}

const (
	tarBlock = 512
	// maxTarMeta bounds the size of GNU long-name and pax header members,
	// which are read into memory.
	maxTarMeta = 1 << 20
)

// errNotTar reports that the first header of an archive is not a tar header.
var errNotTar = errors.New("not a tar archive")

// readTarIndex lists the regular files of the tar archive in r (size
// bytes) without reading their contents. It understands ustar names with
// prefix, GNU long names ('L'), pax headers ('x': path and size) and octal
// as well as base-256 sizes. Header checksums are not enforced: CubeWriter
// 4.8 writes every checksum 32 too low, so a header whose other fields are
// sane is accepted. A later member with the same name replaces an earlier one.
func readTarIndex(r io.ReaderAt, size int64) (map[string]tarMember, error) {
	members, _, err := readTarArchive(r, size)
	return members, err
}

// readTarArchive is readTarIndex that also returns where an archive
// without tar's end-of-archive blocks ends (-1 when it has them): such an
// archive may have been cut at a member boundary, which a reader must
// check against what it expects to find.
func readTarArchive(r io.ReaderAt, size int64) (members map[string]tarMember, unterminated int64, err error) {
	members, err = walkTar(r, size, &unterminated)
	return members, unterminated, err
}

func walkTar(r io.ReaderAt, size int64, unterminated *int64) (map[string]tarMember, error) {
	*unterminated = -1
	members := map[string]tarMember{}
	var hdr [tarBlock]byte
	var hs tarHeaders
	for off := int64(0); ; {
		if off+tarBlock > size {
			if off == size && off > 0 {
				*unterminated = off // end of archive without zero blocks
				return members, nil
			}
			if off == 0 {
				return nil, errNotTar
			}
			return nil, fmt.Errorf("truncated tar archive: header at byte %d ends after the end of the file (%d bytes)", off, size)
		}
		if _, err := r.ReadAt(hdr[:], off); err != nil {
			return nil, fmt.Errorf("reading tar header at byte %d: %w", off, err)
		}
		h, end, err := hs.header(&hdr, off)
		if err != nil {
			return nil, err
		}
		if end {
			return members, nil
		}
		data := off + tarBlock
		if h.size > size-data {
			return nil, fmt.Errorf("truncated tar archive: member %s at byte %d needs %d bytes, only %d remain", importer.Quote(h.name), data, h.size, size-data)
		}
		next := data + (h.size+tarBlock-1)/tarBlock*tarBlock
		if h.extended() {
			if err := checkExtended(h, off); err != nil {
				return nil, err
			}
			buf := make([]byte, h.size)
			if _, err := r.ReadAt(buf, data); err != nil {
				return nil, fmt.Errorf("reading tar extended header at byte %d: %w", data, err)
			}
			if err := hs.extend(h, buf, off); err != nil {
				return nil, err
			}
			off = next
			continue
		}
		// Other kinds (directories, links, global pax headers, …) are skipped.
		if name := hs.name(h); h.regular() {
			members[name] = tarMember{name: name, offset: data, size: h.size}
		}
		off = next
	}
}

// tarHeaders decodes a tar archive's header blocks in order, applying GNU
// long names ('L') and pax headers ('x': path and size) to the member
// that follows them: the one header decoding of the archive's walks
// (walkTar from a file, spoolTar from a stream).
type tarHeaders struct {
	longName string
	pax      map[string]string
}

// header decodes the header block at byte off of the archive; end reports
// the end-of-archive block. A first block that is not a tar header is
// errNotTar.
func (hs *tarHeaders) header(hdr *[tarBlock]byte, off int64) (h tarHeader, end bool, err error) {
	if isZeroBlock(hdr[:]) {
		if off == 0 {
			return h, false, errNotTar
		}
		return h, true, nil
	}
	h, err = parseTarHeader(hdr)
	if err != nil {
		if off == 0 {
			return h, false, fmt.Errorf("%w: %v", errNotTar, err)
		}
		return h, false, fmt.Errorf("tar header at byte %d: %w", off, err)
	}
	if v, ok := hs.pax["size"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return h, false, fmt.Errorf("tar header at byte %d: bad pax size %s", off, importer.Quote(v))
		}
		h.size = n
	}
	return h, false, nil
}

// checkExtended refuses an extended header h (at byte off) too large to
// read into memory.
func checkExtended(h tarHeader, off int64) error {
	if h.size > maxTarMeta {
		return fmt.Errorf("tar header at byte %d: extended header of %d bytes is too large", off, h.size)
	}
	return nil
}

// extend takes in the content of an extended header h (at byte off).
func (hs *tarHeaders) extend(h tarHeader, content []byte, off int64) error {
	if h.typeflag == 'L' {
		hs.longName = string(bytes.TrimRight(content, "\x00"))
		return nil
	}
	var err error
	if hs.pax, err = parsePax(content); err != nil {
		return fmt.Errorf("tar pax header at byte %d: %w", off, err)
	}
	return nil
}

// name returns the name of member h, with the extended headers before it
// applied, and forgets them.
func (hs *tarHeaders) name(h tarHeader) string {
	name := h.name
	if hs.longName != "" {
		name = hs.longName
	}
	if p, ok := hs.pax["path"]; ok {
		name = p
	}
	hs.longName, hs.pax = "", nil
	return strings.TrimPrefix(name, "./")
}

// extended reports whether h is a GNU long name or a pax header.
func (h tarHeader) extended() bool { return h.typeflag == 'L' || h.typeflag == 'x' }

// regular reports whether h is a regular file.
func (h tarHeader) regular() bool { return h.typeflag == '0' || h.typeflag == 0 || h.typeflag == '7' }

type tarHeader struct {
	name     string
	size     int64
	typeflag byte
}

// parseTarHeader decodes the fields of a tar header that locate a member,
// checking that they are sane instead of insisting on a correct checksum.
func parseTarHeader(b *[tarBlock]byte) (tarHeader, error) {
	var h tarHeader
	h.typeflag = b[156]
	if h.typeflag != 0 && (h.typeflag < ' ' || h.typeflag > '~') {
		return h, fmt.Errorf("bad entry type %#x", h.typeflag)
	}
	stored, err := parseOctal(b[148:156])
	if err != nil {
		return h, fmt.Errorf("bad checksum field: %w", err)
	}
	magic := string(b[257:263])
	ustar := magic == "ustar\x00" || magic == "ustar "
	if !ustar {
		// Without the magic the checksum is all that says this is a
		// header; accept the CubeWriter deviation of one space (32).
		if sum := tarChecksum(b); stored != sum && stored != sum-32 {
			return h, fmt.Errorf("checksum %d does not match header (%d)", stored, sum)
		}
	}
	h.size, err = parseTarNumber(b[124:136])
	if err != nil {
		return h, fmt.Errorf("bad size field: %w", err)
	}
	name := cString(b[0:100])
	if magic == "ustar\x00" {
		if prefix := cString(b[345:500]); prefix != "" {
			name = prefix + "/" + name
		}
	}
	if name == "" && h.typeflag != 'L' && h.typeflag != 'x' && h.typeflag != 'g' {
		return h, errors.New("empty member name")
	}
	h.name = name
	return h, nil
}

// tarChecksum returns the unsigned header checksum: the byte sum with the
// checksum field counted as spaces.
func tarChecksum(b *[tarBlock]byte) int64 {
	var sum int64
	for i, c := range b {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	return sum
}

// parseTarNumber parses an octal or base-256 (GNU) numeric field.
func parseTarNumber(f []byte) (int64, error) {
	if len(f) > 0 && f[0]&0x80 != 0 {
		if f[0] == 0xff {
			return 0, errors.New("negative base-256 number")
		}
		var n uint64
		for i, c := range f {
			if i == 0 {
				c &= 0x7f
			}
			if n>>55 != 0 {
				return 0, errors.New("base-256 number overflows")
			}
			n = n<<8 | uint64(c)
		}
		if n > 1<<62 {
			return 0, errors.New("base-256 number overflows")
		}
		return int64(n), nil
	}
	return parseOctal(f)
}

// parseOctal parses an octal field padded with spaces or NULs.
func parseOctal(f []byte) (int64, error) {
	s := strings.Trim(string(f), " \x00")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 8, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s is not an octal number", importer.Quote(s))
	}
	return n, nil
}

// parsePax decodes pax extended-header records "<len> <key>=<value>\n".
func parsePax(b []byte) (map[string]string, error) {
	m := map[string]string{}
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 {
			return nil, errors.New("malformed record")
		}
		n, err := strconv.Atoi(string(b[:sp]))
		if err != nil || n <= sp+1 || n > len(b) || b[n-1] != '\n' {
			return nil, errors.New("malformed record length")
		}
		kv := b[sp+1 : n-1]
		eq := bytes.IndexByte(kv, '=')
		if eq < 0 {
			return nil, errors.New("record without '='")
		}
		m[string(kv[:eq])] = string(kv[eq+1:])
		b = b[n:]
	}
	return m, nil
}

func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

func isZeroBlock(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
