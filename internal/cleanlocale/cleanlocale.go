package cleanlocale

import (
	"os"
	"strings"
)

func init() {
	if os.Getenv("LANGUAGE") != "" {
		return
	}
	loc := ""
	for _, env := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = os.Getenv(env); loc != "" {
			break
		}
	}
	if isPlain(loc) {
		os.Setenv("LANGUAGE", "en")
	}
}

// isPlain reports whether loc is the C or POSIX locale with or without a
// codeset, e.g. "C.UTF-8".
func isPlain(loc string) bool {
	lang, _, _ := strings.Cut(loc, ".")
	return lang == "C" || lang == "POSIX"
}
