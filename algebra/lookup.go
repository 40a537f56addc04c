package algebra

import (
	"fmt"
	"slices"
	"strings"

	"cubeview/model"
)

// MetricLookupError says why a metric name names no result metric of an
// integration, or more than one.
type MetricLookupError struct {
	Name string
	// Candidates are the unique names of the result metrics the name may
	// mean when it is ambiguous; empty when it names none.
	Candidates []string
	// Known lists every name a metric of the integration answers to
	// (result, operand and display names), for suggestions.
	Known []string
}

func (e *MetricLookupError) Error() string {
	if len(e.Candidates) > 0 {
		return fmt.Sprintf("metric %q is ambiguous: it names %s; give one of these unique names", e.Name, strings.Join(e.Candidates, ", "))
	}
	return fmt.Sprintf("no metric %q in any operand", e.Name)
}

// MetricIndex returns the result metric that name names, trying in turn,
// and taking the first rule that names exactly one metric:
//
//  1. a result metric's unique name;
//  2. an operand metric's unique name ("TIME" of TAU names the result
//     metric TAU's TIME was matched to);
//  3. a canonical identity ("time", "cputime", "PAPI_TOT_CYC", any case);
//  4. a unique or display name of a result or operand metric, ignoring
//     case.
//
// An exact name thus wins over a match that ignores case. A rule that
// names several metrics makes the name ambiguous; the error
// (*MetricLookupError) lists them.
func (ig *Integration) MetricIndex(name string) (int, error) {
	res := ig.Result
	if r := res.MetricByName(name); r >= 0 {
		return r, nil
	}
	var rules [3][]int
	for i, e := range ig.Operands {
		for m := range e.Metrics {
			r := ig.Metrics[i][m]
			if r < 0 {
				continue
			}
			om := &e.Metrics[m]
			if om.UniqName == name {
				rules[0] = appendNew(rules[0], r)
			}
			if strings.EqualFold(om.UniqName, name) || strings.EqualFold(om.DispName, name) {
				rules[2] = appendNew(rules[2], r)
			}
		}
	}
	id := model.CanonicalIdentity(name)
	for r := range res.Metrics {
		rm := &res.Metrics[r]
		if id != "" && rm.Identity == id {
			rules[1] = appendNew(rules[1], r)
		}
		if strings.EqualFold(rm.UniqName, name) || strings.EqualFold(rm.DispName, name) {
			rules[2] = appendNew(rules[2], r)
		}
	}
	for _, found := range rules {
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0], nil
		}
		slices.Sort(found)
		cands := make([]string, len(found))
		for k, r := range found {
			cands[k] = res.Metrics[r].UniqName
		}
		return -1, &MetricLookupError{Name: name, Candidates: cands}
	}
	return -1, &MetricLookupError{Name: name, Known: ig.metricNames()}
}

// OperandMetric returns the index of operand i's metric that integrates
// into the result metric name names (MetricIndex), or -1 when the operand
// has none or the name names no result metric.
func (ig *Integration) OperandMetric(i int, name string) int {
	r, err := ig.MetricIndex(name)
	if err != nil {
		return -1
	}
	return slices.Index(ig.Metrics[i], r)
}

// metricNames lists the names metrics of the integration answer to.
func (ig *Integration) metricNames() []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, m := range ig.Result.MetricOrder() {
		add(ig.Result.Metrics[m].UniqName)
		add(ig.Result.Metrics[m].DispName)
	}
	for _, e := range ig.Operands {
		for _, m := range e.MetricOrder() {
			add(e.Metrics[m].UniqName)
		}
	}
	return out
}

func appendNew(s []int, v int) []int {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}
