package cube

import "bytes"

// ampHold bounds how far after a '&' the ';' of a reference may be:
// longer than the longest reference kept (&#x10FFFF; and longer digit
// strings are not references CubeLib knows, but they are judged as
// references and fail when they name no character).
const ampHold = 32

// knownReference reports whether b, which starts with '&', starts with a
// reference the XML parser resolves: one of the five predefined entities
// or a decimal or hexadecimal character reference.
func knownReference(b []byte) bool {
	semi := bytes.IndexByte(b[:min(len(b), ampHold)], ';')
	if semi < 0 {
		return false
	}
	name := b[1:semi]
	switch string(name) {
	case "amp", "lt", "gt", "apos", "quot":
		return true
	}
	if len(name) < 2 || name[0] != '#' {
		return false
	}
	digits, hex := name[1:], false
	if digits[0] == 'x' {
		digits, hex = digits[1:], true
	}
	if len(digits) == 0 {
		return false
	}
	for _, c := range digits {
		switch {
		case c >= '0' && c <= '9':
		case hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}
