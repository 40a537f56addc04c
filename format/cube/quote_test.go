package cube

import (
	"strings"
	"testing"
)

// TestErrorsQuoteBounded: an offending token of a megabyte (a version, a
// value, an attribute name) is quoted in the error in bounded length
// (importer.Quote), so that a message never carries the whole token.
func TestErrorsQuoteBounded(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	for _, tc := range []struct{ name, doc, want string }{
		{"version", strings.Replace(xmlMinimal("", ""), `version="3.0"`, `version="`+big+`"`, 1), "unsupported CUBE version"},
		{"value", xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">1 `+big+`</row></matrix>`), "is not a number"},
		{"attribute", strings.Replace(xmlMinimal("", ""), `<cube version="3.0">`, `<cube version="3.0" `+big+`>`, 1), ""},
	} {
		_, err := decodeXML(strings.NewReader(tc.doc), "big.cube")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if msg := err.Error(); len(msg) > 400 || !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, "big.cube") {
			t.Errorf("%s: error of %d bytes: %.300s", tc.name, len(msg), msg)
		}
	}
}
