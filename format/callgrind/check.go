package callgrind

import (
	"fmt"
	"strconv"
	"strings"

	"cubeview/format/importer"
)

// checkTotals compares each part's costs with the totals its own totals:
// or summary: line announces. Valgrind writes them exactly (callgrind
// "totals:" after a part's costs, cachegrind "summary:" after its costs),
// so there a difference or a missing totals: line means a damaged or
// truncated file: an error. Other writers' summaries need not be exact: a
// warning, an error with opts.Strict.
func checkTotals(p *profile, name string, opts importer.Options) (warnings []string, err error) {
	valgrind := strings.HasPrefix(p.creator, "callgrind-")
	nev := len(p.events)
	for i, pt := range p.parts {
		where := name
		if len(p.parts) > 1 {
			where = fmt.Sprintf("%s: part %d", name, i+1)
		}
		var key, value string
		summaryAfterCosts := false
		for _, a := range pt.attrs {
			switch a[0] {
			case "totals":
				key, value = a[0], a[1]
			case "summary":
				if key != "totals" {
					key, value = a[0], a[1]
				}
			}
		}
		if key == "summary" && pt.summaryAfterBody {
			summaryAfterCosts = true
		}
		if key == "" {
			continue
		}
		if valgrind && key != "totals" && len(pt.regs) > 0 {
			return nil, fmt.Errorf("%s: ends before its totals: line: the file is truncated (its summary: line announces %s)", where, importer.Quote(value))
		}
		fields := strings.Fields(value)
		sums := make([]uint64, nev)
		for s := range pt.regs {
			for e, v := range pt.vals[s*nev : (s+1)*nev] {
				sums[e] += v
			}
		}
		for e := 0; e < nev && e < len(fields); e++ {
			want, perr := strconv.ParseInt(fields[e], 10, 64)
			if perr != nil {
				continue // not a plain number: nothing to check against
			}
			if sums[e] == uint64(want) {
				continue
			}
			got := strconv.FormatUint(sums[e], 10)
			if p.signed {
				got = strconv.FormatInt(int64(sums[e]), 10)
			}
			msg := fmt.Sprintf("%s: the costs of event %s sum to %s, but its %s: line says %d", where, p.events[e], got, key, want)
			if valgrind || summaryAfterCosts || opts.Strict {
				return nil, fmt.Errorf("%s: the file is damaged or truncated", msg)
			}
			warnings = append(warnings, msg)
		}
	}
	return warnings, nil
}
