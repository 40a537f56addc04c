package pprof

import (
	"encoding/binary"

	"cubeview/format/importer"
)

// Wire types of the protobuf encoding.
const (
	wireVarint = 0
	wireBytes  = 2
)

// A protoField says how a field of a message may be encoded: as a varint,
// as length-delimited bytes (a string, a packed repeated varint or a
// message of schema sub).
type protoField struct {
	varint, packed, bytes bool
	sub                   protoSchema
}

// A protoSchema maps field numbers of a message to their encodings.
type protoSchema map[uint64]protoField

var (
	varintField = protoField{varint: true}
	repeated    = protoField{varint: true, packed: true}
	// The messages of profile.proto.
	valueTypeSchema = protoSchema{1: varintField, 2: varintField}
	labelSchema     = protoSchema{1: varintField, 2: varintField, 3: varintField, 4: varintField}
	sampleSchema    = protoSchema{1: repeated, 2: repeated, 3: {sub: labelSchema}}
	mappingSchema   = protoSchema{1: varintField, 2: varintField, 3: varintField, 4: varintField, 5: varintField,
		6: varintField, 7: varintField, 8: varintField, 9: varintField, 10: varintField}
	lineSchema     = protoSchema{1: varintField, 2: varintField, 3: varintField}
	locationSchema = protoSchema{1: varintField, 2: varintField, 3: varintField, 4: {sub: lineSchema}, 5: varintField}
	functionSchema = protoSchema{1: varintField, 2: varintField, 3: varintField, 4: varintField, 5: varintField}
	profileSchema  = protoSchema{
		1: {sub: valueTypeSchema}, 2: {sub: sampleSchema}, 3: {sub: mappingSchema}, 4: {sub: locationSchema},
		5: {sub: functionSchema}, 6: {bytes: true}, 7: varintField, 8: varintField, 9: varintField,
		10: varintField, 11: {sub: valueTypeSchema}, 12: varintField, 13: repeated, 14: varintField, 15: varintField,
	}
)

// protoScan is what scanning the head of a message found.
type protoScan struct {
	fields   int  // top-level fields read
	messages int  // sub-messages checked against their schema, whole or up to the head's end
	numbers  int  // distinct top-level field numbers
	ok       bool // every field read fits the schema
	cut      bool // the head ends inside a field
}

// protoProfile reports whether head, the first bytes of a file, are the
// start of a protobuf-encoded profile.proto message: in any order, every
// field has a number and encoding that the message defines, and the
// sub-messages within head (sample types, samples, mappings, locations,
// functions) fit their own definitions. A message may run past the end of
// head. Without deep, sub-messages are not looked into: what a damaged
// profile still shows.
func protoProfile(head []byte, deep bool) bool {
	depth := 0
	if !deep {
		depth = maxProtoDepth
	}
	s := scanProto(head, profileSchema, depth)
	return s.ok && s.fields > 0
}

// protoConfidence says how sure the protobuf content of head makes a
// profile: likely when sub-messages were checked and fields of two or
// more kinds seen, weak when the head is too short to tell much. A head
// shorter than importer.HeadSize is the whole file, whose last field must
// end with it.
func protoConfidence(head []byte) importer.Confidence {
	s := scanProto(head, profileSchema, 0)
	switch {
	case !s.ok || s.fields == 0 || s.cut && len(head) < importer.HeadSize:
		return importer.No
	case s.messages > 0 && s.numbers >= 2:
		return importer.Likely
	}
	return importer.Weak
}

// maxProtoDepth bounds how deep sub-messages are checked.
const maxProtoDepth = 3

// scanProto checks the fields of a message of schema sc in h, which may
// end inside a field (the end of a head).
func scanProto(h []byte, sc protoSchema, depth int) protoScan {
	s := protoScan{ok: true}
	seen := map[uint64]bool{}
	for len(h) > 0 {
		key, n := binary.Uvarint(h)
		if n == 0 {
			s.cut = true // the head ends inside the key
			return s
		}
		if n < 0 {
			s.ok = false
			return s
		}
		h = h[n:]
		num, wire := key>>3, key&7
		f, known := sc[num]
		if !known {
			s.ok = false
			return s
		}
		switch wire {
		case wireVarint:
			if !f.varint {
				s.ok = false
				return s
			}
			_, n := binary.Uvarint(h)
			if n < 0 {
				s.ok = false
				return s
			}
			if n == 0 {
				s.fields++
				s.cut = true
				return s
			}
			h = h[n:]
		case wireBytes:
			if !f.bytes && !f.packed && f.sub == nil {
				s.ok = false
				return s
			}
			l, n := binary.Uvarint(h)
			if n < 0 {
				s.ok = false
				return s
			}
			if n == 0 {
				s.fields++
				s.cut = true
				return s
			}
			h = h[n:]
			body, whole := h, l <= uint64(len(h))
			if whole {
				body = h[:l]
			}
			switch {
			case f.sub != nil:
				if depth < maxProtoDepth {
					sub := scanProto(body, f.sub, depth+1)
					if !sub.ok || whole && sub.cut {
						s.ok = false
						return s
					}
					s.messages++
				}
			case f.packed:
				if !packedVarints(body, whole) {
					s.ok = false
					return s
				}
			}
			if !whole {
				s.fields++
				if !seen[num] {
					s.numbers++
				}
				s.cut = true
				return s
			}
			h = h[l:]
		default:
			s.ok = false
			return s
		}
		s.fields++
		if !seen[num] {
			seen[num] = true
			s.numbers++
		}
	}
	return s
}

// packedVarints reports whether b is a sequence of varints; when the
// field runs past the head (whole false), the last may be cut.
func packedVarints(b []byte, whole bool) bool {
	for len(b) > 0 {
		_, n := binary.Uvarint(b)
		if n < 0 || n == 0 && whole {
			return false
		}
		if n == 0 {
			return true
		}
		b = b[n:]
	}
	return true
}
