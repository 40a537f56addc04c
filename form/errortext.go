package form

import (
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrorText is the text of err as an error dialog shows it: a sentence
// that starts with a capital letter. A message about a file starts with
// its name ("trunc.cubex: truncated tar archive …"), which must stay as
// it is written, so such a message is introduced by what the name names:
// "File trunc.cubex: truncated tar archive …", "Folder tau/run: …", and
// one about an operation, named by its operands' names, by what failed:
// "Computing before − after: …".
func ErrorText(err error) string {
	msg := err.Error()
	if subject, _, ok := strings.Cut(msg, ": "); ok && namesFile(subject) {
		if st, err := os.Stat(subject); err == nil && st.IsDir() {
			return "Folder " + msg
		}
		if strings.HasPrefix(subject, "repo:") {
			return "Repository trial " + msg
		}
		return "File " + msg
	}
	if subject, _, ok := strings.Cut(msg, ": "); ok && strings.ContainsAny(subject, "−()") {
		return "Computing " + msg // an operation named by its operands: "before − after"
	}
	r, size := utf8.DecodeRuneInString(msg)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return msg
	}
	return string(unicode.ToUpper(r)) + msg[size:]
}

// namesFile reports whether s, the part of a message before its first
// ": ", is a file or folder name rather than words: a path, a name with
// an extension, a repository reference, or anything that exists.
func namesFile(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\n") {
		_, err := os.Stat(s)
		return s != "" && err == nil
	}
	if strings.ContainsAny(s, `/\.`) || strings.HasPrefix(s, "repo:") {
		return true
	}
	_, err := os.Stat(s)
	return err == nil
}
