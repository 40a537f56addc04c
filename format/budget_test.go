package format

import "cubeview/format/importer"

// setBudget makes every compressed file's budget n bytes until the
// returned function restores the default.
func setBudget(n int64) func() {
	old := importer.Budget
	importer.Budget = func(int64) int64 { return n }
	return func() { importer.Budget = old }
}
