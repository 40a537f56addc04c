package format

import "strings"

// OutputExtensions are the file name endings Write knows; the ending
// chooses the format (CUBE 4 archive, CUBE 3 XML, gzip-compressed XML).
var OutputExtensions = []string{".cubex", ".cube", ".cube.gz"}

// CanWrite reports whether Write knows the format of a file named path.
func CanWrite(path string) bool {
	lower := strings.ToLower(path)
	for _, ext := range OutputExtensions {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}
