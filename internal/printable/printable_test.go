package printable

import "testing"

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text: 12.5 µs, région", "plain text: 12.5 µs, région"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"a\xffb", `a\xffb`},
		{"line\nbreak\ttab\x00nul\x7f", `line\x0abreak\x09tab\x00nul\x7f`},
		{"\xe2\x82", `\xe2\x82`},
		{"\u202eevil", `\xe2\x80\xaeevil`}, // right-to-left override
		{"", ""},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
