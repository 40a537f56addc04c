package format

// setBudget makes every compressed file's budget n bytes until the
// returned function restores the default.
func setBudget(n int64) func() {
	old := DecompressBudget
	DecompressBudget = func(int64) int64 { return n }
	return func() { DecompressBudget = old }
}
