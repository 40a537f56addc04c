package cube

import (
	"archive/tar"
	"bytes"
	"cubeview/internal/testkit"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type tarFile struct {
	name string
	body string
}

// buildTar writes files with archive/tar in the given format.
func buildTar(t testing.TB, format tar.Format, files ...tarFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.name, Size: int64(len(f.body)), Mode: 0o600, Format: format}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawTarHeader builds a ustar header with a correct checksum.
func rawTarHeader(name string, size int64, typeflag byte) []byte {
	var h [512]byte
	copy(h[0:100], name)
	copy(h[100:108], "0000644\x00")
	copy(h[124:136], fmt.Sprintf("%011o\x00", size))
	h[156] = typeflag
	copy(h[257:265], "ustar\x0000")
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", tarChecksum(&h)))
	return h[:]
}

func padBlock(b []byte) []byte {
	return append(b, make([]byte, (512-len(b)%512)%512)...)
}

func readMember(t *testing.T, data []byte, m tarMember) string {
	t.Helper()
	return string(data[m.offset : m.offset+m.size])
}

func TestReadTarIndexFormats(t *testing.T) {
	long := strings.Repeat("d/", 60) + "long-member-name.data"
	tests := []struct {
		name   string
		format tar.Format
		files  []tarFile
	}{
		{"ustar", tar.FormatUSTAR, []tarFile{{"0.index", "abc"}, {"0.data", strings.Repeat("x", 700)}, {"anchor.xml", "<cube/>"}}},
		{"ustar prefix", tar.FormatUSTAR, []tarFile{{strings.Repeat("p", 120) + "/name.data", "1"}}},
		{"gnu long name", tar.FormatGNU, []tarFile{{long, "gnu"}, {"empty", ""}}},
		{"pax long name", tar.FormatPAX, []tarFile{{long, "pax"}, {"b", "12345"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := buildTar(t, tt.format, tt.files...)
			members, err := readTarIndex(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			if len(members) != len(tt.files) {
				t.Errorf("got %d members, want %d", len(members), len(tt.files))
			}
			for _, f := range tt.files {
				m, ok := members[f.name]
				if !ok {
					t.Errorf("member %q missing", f.name)
					continue
				}
				if got := readMember(t, data, m); got != f.body {
					t.Errorf("member %q = %q, want %q", f.name, got, f.body)
				}
			}
		})
	}
}

func TestReadTarIndexPaxSizeAndBase256(t *testing.T) {
	// A pax size record overrides the header size; a base-256 size field
	// is decoded. Build the headers by hand from a ustar archive.
	data := buildTar(t, tar.FormatUSTAR, tarFile{"a", "hello"}, tarFile{"b", "world!"})
	// Rewrite member b's size (second header at 1024) in base-256.
	h := data[1024 : 1024+512]
	for i := 124; i < 136; i++ {
		h[i] = 0
	}
	h[124] = 0x80
	h[135] = 6
	members, err := readTarIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got := readMember(t, data, members["b"]); got != "world!" {
		t.Errorf("base-256 sized member = %q", got)
	}

	rec := func(k, v string) string {
		s := " " + k + "=" + v + "\n"
		n := len(s) + 1
		if len(strconv.Itoa(n)+s) != n {
			n++
		}
		return strconv.Itoa(n) + s
	}
	pax := rec("path", "renamed.data") + rec("size", "3")
	var raw []byte
	raw = append(raw, rawTarHeader("PaxHeaders/x", int64(len(pax)), 'x')...)
	raw = append(raw, padBlock([]byte(pax))...)
	// The header claims 0 bytes; the pax record says 3.
	raw = append(raw, rawTarHeader("short", 0, '0')...)
	raw = append(raw, padBlock([]byte("abc"))...)
	raw = append(raw, make([]byte, 1024)...)
	members, err = readTarIndex(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := members["renamed.data"]
	if !ok || readMember(t, raw, m) != "abc" {
		t.Errorf("pax path/size not applied: %+v", members)
	}
}

func TestReadTarIndexBadChecksum(t *testing.T) {
	data := buildTar(t, tar.FormatUSTAR, tarFile{"0.data", "payload"}, tarFile{"anchor.xml", "<cube/>"})
	// Make every checksum 32 too low, as CubeWriter 4.8 does.
	for off := 0; off+512 <= len(data); off += 512 {
		h := (*[512]byte)(data[off : off+512])
		if isZeroBlock(h[:]) {
			continue
		}
		sum, _ := parseOctal(h[148:156])
		copy(h[148:156], []byte(strconv.FormatInt(sum-32, 8)+"\x00 "))
	}
	if _, err := tar.NewReader(bytes.NewReader(data)).Next(); err == nil {
		t.Fatal("archive/tar accepted the broken checksum; the test does not test anything")
	}
	members, err := readTarIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got := readMember(t, data, members["0.data"]); got != "payload" {
		t.Errorf("0.data = %q", got)
	}
}

func TestReadTarIndexRealChecksumBug(t *testing.T) {
	path := filepath.Join(testkit.Data(t, "cube4", "quirks"), "cube4.8_with_checksum_bug.cubex")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	members, err := readTarIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := members["anchor.xml"]
	if !ok {
		t.Fatalf("no anchor.xml among %d members", len(members))
	}
	if body := readMember(t, data, m); !strings.Contains(body, "<cube") {
		t.Errorf("anchor.xml does not look like CUBE XML: %.60q", body)
	}
	for name := range members {
		if strings.HasSuffix(name, ".index") {
			if _, ok := members[strings.TrimSuffix(name, ".index")+".data"]; !ok {
				t.Errorf("%s without .data", name)
			}
		}
	}
}

func TestReadTarIndexErrors(t *testing.T) {
	good := buildTar(t, tar.FormatUSTAR, tarFile{"0.data", strings.Repeat("v", 2000)})
	garbage := bytes.Repeat([]byte("not a tar file "), 100)
	badSize := bytes.Clone(good)
	copy(badSize[124:136], "zzzzzzzzzzz\x00")
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a tar"},
		{"short", good[:100], "not a tar"},
		{"garbage", garbage, "not a tar"},
		{"zero block first", make([]byte, 1024), "not a tar"},
		{"truncated data", good[:512+1000], "truncated"},
		{"truncated header", append(bytes.Clone(good[:512+2048]), good[:100]...), "truncated"},
		{"bad size field", badSize, "not a tar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readTarIndex(bytes.NewReader(tt.data), int64(len(tt.data)))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
