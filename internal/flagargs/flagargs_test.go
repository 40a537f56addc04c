package flagargs

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args    []string
		pos     []string
		o       string
		v       bool
		wantErr bool
	}{
		{nil, nil, "", false, false},
		{[]string{"a", "-o", "x", "b", "--v"}, []string{"a", "b"}, "x", true, false},
		{[]string{"--o=y", "a", "--", "-v", "--o"}, []string{"a", "-v", "--o"}, "y", false, false},
		{[]string{"a", "-bogus"}, nil, "", false, true},
		{[]string{"a", "-o"}, nil, "", false, true},
	}
	for _, tt := range tests {
		fs := New("t")
		o := fs.String("o", "", "")
		v := fs.Bool("v", false, "")
		pos, err := Parse(fs, tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q): error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && (!slices.Equal(pos, tt.pos) || *o != tt.o || *v != tt.v) {
			t.Errorf("Parse(%q) = %q, o=%q v=%v; want %q, %q, %v", tt.args, pos, *o, *v, tt.pos, tt.o, tt.v)
		}
	}
	if _, err := Parse(New("t"), []string{"-h"}); !IsHelp(err) {
		t.Errorf("-h: %v, want help", err)
	}
}
