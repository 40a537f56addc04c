package cleanlocale

import "testing"

func TestIsPlain(t *testing.T) {
	for _, tt := range []struct {
		loc  string
		want bool
	}{
		{"C", true}, {"C.UTF-8", true}, {"POSIX", true}, {"en_US.UTF-8", false}, {"", false}, {"Cy_GB", false},
	} {
		if got := isPlain(tt.loc); got != tt.want {
			t.Errorf("isPlain(%q) = %v, want %v", tt.loc, got, tt.want)
		}
	}
}
