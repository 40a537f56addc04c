package sourceview

import "testing"

func TestWindowsAbs(t *testing.T) {
	for p, want := range map[string]bool{
		`C:\src\a.c`:       true,
		`d:/src/a.c`:       true,
		`\\host\share\a.c`: true,
		`C:a.c`:            false,
		`src\a.c`:          false,
		`/src/a.c`:         false,
		`1:\a.c`:           false,
		``:                 false,
	} {
		if got := windowsAbs(p); got != want {
			t.Errorf("windowsAbs(%q) = %v, want %v", p, got, want)
		}
	}
}
