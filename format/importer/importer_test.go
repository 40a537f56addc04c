package importer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenAndHead: a plain and a gzip-compressed file give the same
// content and head; the compressed one says so.
func TestOpenAndHead(t *testing.T) {
	content := []byte(strings.Repeat("events: Ir\n", 1000))
	for _, tt := range []struct {
		name       string
		data       []byte
		compressed bool
	}{{"plain", content, false}, {"gzip", gz(t, content), true}} {
		path := write(t, tt.name, tt.data)
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		f.Close()
		if err != nil || !bytes.Equal(got, content) || f.Compressed != tt.compressed {
			t.Errorf("%s: Open read %d bytes, err %v, compressed %v", tt.name, len(got), err, f.Compressed)
		}
		head, compressed, err := Head(path, 100)
		if err != nil || !bytes.Equal(head, content[:100]) || compressed != tt.compressed {
			t.Errorf("%s: Head = %q, %v, %v", tt.name, head, compressed, err)
		}
	}
	short, _, err := Head(write(t, "short", []byte("abc")), HeadSize)
	if err != nil || string(short) != "abc" {
		t.Errorf("Head of a short file = %q, %v", short, err)
	}
	if head, compressed, err := Head(write(t, "badgz", []byte("\x1f\x8bnot gzip")), 100); err != nil || !compressed || len(head) != 0 {
		t.Errorf("Head of a broken gzip file = %q, %v, %v", head, compressed, err)
	}
}

// TestBudget: content beyond the budget fails with a *BudgetError; content
// of exactly the budget passes.
func TestBudget(t *testing.T) {
	content := bytes.Repeat([]byte{'x'}, 1000)
	for _, tt := range []struct {
		budget int64
		fail   bool
	}{{999, true}, {1000, false}, {5000, false}} {
		got, err := io.ReadAll(Limit(bytes.NewReader(content), tt.budget))
		var be *BudgetError
		if tt.fail != errors.As(err, &be) || !tt.fail && len(got) != len(content) {
			t.Errorf("budget %d: read %d bytes, error %v", tt.budget, len(got), err)
		}
	}
	old := Budget
	defer func() { Budget = old }()
	Budget = func(int64) int64 { return 500 }
	f, err := Open(write(t, "bomb.gz", gz(t, content)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = io.ReadAll(f)
	if err == nil || !strings.Contains(err.Error(), "more than 500 bytes") {
		t.Errorf("reading beyond the budget: %v", err)
	}
}

func TestConfidenceString(t *testing.T) {
	for c, want := range map[Confidence]string{No: "no", Weak: "weak", Likely: "likely", Certain: "certain", 7: "Confidence(7)"} {
		if got := c.String(); got != want {
			t.Errorf("%d: %q, want %q", int(c), got, want)
		}
	}
}

func TestQuote(t *testing.T) {
	long := strings.Repeat("x", 100<<20) // a 100 MB token
	for _, tt := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{"tab\there\x00\xff", `"tab\there\x00\xff"`},
		{strings.Repeat("a", 64), `"` + strings.Repeat("a", 64) + `"`},
		{strings.Repeat("a", 65), `"` + strings.Repeat("a", 64) + `"… (65 bytes)`},
		{strings.Repeat("a", 63) + "é", `"` + strings.Repeat("a", 63) + `"… (65 bytes)`},
		{long, `"` + strings.Repeat("x", 64) + `"… (104857600 bytes)`},
	} {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.20q…) = %q, want %q", tt.in, got, tt.want)
		}
		if got := QuoteBytes([]byte(tt.in)); got != tt.want {
			t.Errorf("QuoteBytes(%.20q…) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
