package model

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
)

// memoryBudget is the configured budget in bytes; 0 selects the default.
var memoryBudget atomic.Int64

// MemoryBudget returns how many bytes one metric's block may take in
// memory. Loaders keep a larger block in its file and read rows on demand
// (see NewSourceBlock). The default is DefaultBudget, or a quarter of a
// lower limit set for the process (GOMEMLIMIT, the address-space limit of
// ulimit -v, the physical memory).
func MemoryBudget() int64 {
	if n := memoryBudget.Load(); n > 0 {
		return n
	}
	return defaultBudget()
}

// SetMemoryBudget sets the budget of MemoryBudget in bytes; n ≤ 0 restores
// the default.
func SetMemoryBudget(n int64) { memoryBudget.Store(max(n, 0)) }

// MemoryBudgetSet reports whether a budget was set (SetMemoryBudget with
// n > 0) rather than the default being in force.
func MemoryBudgetSet() bool { return memoryBudget.Load() > 0 }

// DefaultMemoryBudget returns the budget MemoryBudget uses when none is set.
func DefaultMemoryBudget() int64 { return defaultBudget() }

// FormatSize writes n bytes the way ParseSize reads them back: in the
// largest of G, M, K (binary multiples) that divides n, else in bytes
// ("512M", "1536M", "1000000").
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// DefaultBudget is the default memory budget of one metric: the smallest
// that does not slow the common commands. Reading a metric row by row from
// its file costs about as much as loading it (diff of two generated 330 MB
// files, 4 metrics of 80 MB: 4.9–5.2 s of CPU loaded, 4.2–5.2 s row by row
// at 64 MiB and 32 MiB), while loaded blocks stay in memory (1.38 GB peak
// against 95 MB). Below it, larger metrics such as a window's selected one
// would be read again on many selection changes.
const DefaultBudget = 64 << 20

// DefaultBudgetRule says in words what the default budget is, for help
// texts and forms.
const DefaultBudgetRule = "64M, or a quarter of a lower limit such as GOMEMLIMIT or ulimit -v"

func defaultBudget() int64 {
	limit := physicalMemory()
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		limit = min(limit, l)
	}
	if l := addressSpaceLimit(); l > 0 {
		limit = min(limit, l)
	}
	return max(min(limit/4, DefaultBudget), 16<<20)
}

// physicalMemory reads MemTotal from /proc/meminfo, assuming 8 GiB where
// that is not available.
func physicalMemory() int64 {
	const fallback = 8 << 30
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			break
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb <= 0 {
			break
		}
		return kb << 10
	}
	return fallback
}

// ParseSize parses a size such as 512M, 2G, 1.5GiB or 1000000 (bytes).
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || v*float64(mult) > math.MaxInt64/2 {
		return 0, &sizeError{s}
	}
	return int64(v * float64(mult)), nil
}

type sizeError struct{ s string }

func (e *sizeError) Error() string {
	return strconv.Quote(e.s) + " is not a size (examples: 512M, 2G, 1000000)"
}
