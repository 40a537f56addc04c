package cube

// The bare-ampersand escaper of the element-tree reference reader.

import (
	"bytes"
	"io"
)

// domBareAmpEscaper escapes each '&' that does not start a known reference
// (&amp; &lt; &gt; &apos; &quot; or a numeric character reference) as
// "&amp;", outside CDATA sections. CubeLib writes and reads such bare
// ampersands as literal text (its own test files carry descriptions like
// "a & b"), so they must reach the XML parser as a literal too; anything
// else that is malformed still reaches the parser unchanged and fails there.
type domBareAmpEscaper struct {
	r       io.Reader
	buf     []byte // input not yet passed on
	pending []byte // output not yet returned
	out     []byte
	inCDATA bool
	err     error
}

var (
	cdataOpen  = []byte("<![CDATA[")
	cdataClose = []byte("]]>")
)

func (a *domBareAmpEscaper) Read(p []byte) (int, error) {
	for len(a.pending) == 0 {
		if a.err != nil && len(a.buf) == 0 {
			return 0, a.err
		}
		if a.err == nil {
			if cap(a.buf)-len(a.buf) < 16<<10 {
				nb := make([]byte, len(a.buf), len(a.buf)+32<<10)
				copy(nb, a.buf)
				a.buf = nb
			}
			n, err := a.r.Read(a.buf[len(a.buf):cap(a.buf)])
			a.buf = a.buf[:len(a.buf)+n]
			a.err = err
		}
		safe := len(a.buf)
		if a.err == nil {
			safe -= ampHold
		}
		if safe <= 0 {
			continue
		}
		used := a.escape(safe)
		a.pending = a.out
		a.buf = a.buf[:copy(a.buf, a.buf[used:])]
	}
	n := copy(p, a.pending)
	a.pending = a.pending[n:]
	return n, nil
}

// escape copies buf up to at least safe into out, escaping bare
// ampersands that start before safe, and returns how much it consumed.
// A marker or reference that starts before safe is complete in buf
// unless the input has ended.
func (a *domBareAmpEscaper) escape(safe int) int {
	a.out = a.out[:0]
	b := a.buf
	i := 0
	for i < safe {
		if a.inCDATA {
			j := bytes.Index(b[i:], cdataClose)
			if j < 0 || i+j >= safe {
				// Keep a possible start of "]]>" for the next round.
				a.out = append(a.out, b[i:safe]...)
				return safe
			}
			a.out = append(a.out, b[i:i+j+len(cdataClose)]...)
			i += j + len(cdataClose)
			a.inCDATA = false
			continue
		}
		end := safe
		cd := bytes.Index(b[i:], cdataOpen)
		if cd >= 0 && i+cd < safe {
			end = i + cd
		}
		for i < end {
			j := bytes.IndexByte(b[i:end], '&')
			if j < 0 {
				a.out = append(a.out, b[i:end]...)
				i = end
				break
			}
			a.out = append(a.out, b[i:i+j]...)
			i += j
			if knownReference(b[i:]) {
				a.out = append(a.out, '&')
			} else {
				a.out = append(a.out, "&amp;"...)
			}
			i++
		}
		if end < safe {
			a.out = append(a.out, cdataOpen...)
			i = end + len(cdataOpen)
			a.inCDATA = true
		}
	}
	return i
}
