package algebra

import (
	"fmt"
	"slices"
	"strings"

	"cubeview/model"
)

// MetricMap is a rule "FROM=TO" that makes the metrics FROM names count
// as the metric TO names when operands are integrated: sampled CPU time
// compared with wall-clock time, say ("CPUTIME=time"). Each side is a
// metric's unique name or a canonical identity (model.Identities, a PAPI
// preset), the identity in any case.
type MetricMap struct {
	From, To string
}

// ParseMetricMap reads a rule "FROM=TO".
func ParseMetricMap(s string) (MetricMap, error) {
	from, to, ok := strings.Cut(s, "=")
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	if !ok || from == "" || to == "" {
		return MetricMap{}, fmt.Errorf("metric mapping %q: want FROM=TO, e.g. CPUTIME=time", s)
	}
	return MetricMap{From: from, To: to}, nil
}

// String renders the rule as ParseMetricMap reads it.
func (r MetricMap) String() string { return r.From + "=" + r.To }

// names reports whether the rule's FROM side names metric m: its unique
// name, or its canonical identity.
func (r MetricMap) names(m *model.Metric) bool {
	if m.UniqName == r.From {
		return true
	}
	id := model.CanonicalIdentity(r.From)
	return id != "" && m.Identity == id
}

// target is the matching key of the rule's TO side: a canonical identity,
// or "=" and a unique name.
func (r MetricMap) target() string {
	if id := model.CanonicalIdentity(r.To); id != "" {
		return id
	}
	return "=" + r.To
}

// metricKey returns the key by which m matches metrics of other names
// (its canonical identity, or the target of the first mapping rule that
// names it; "" for none) and that rule's index, or -1.
func (o Options) metricKey(m *model.Metric) (key string, rule int) {
	for k, r := range o.MetricMaps {
		if r.names(m) {
			return r.target(), k
		}
	}
	return m.Identity, -1
}

// MetricMatch records a result metric whose operands' metrics have
// different unique names: matched by canonical identity or by a mapping
// rule.
type MetricMatch struct {
	// Result is the result metric's unique name.
	Result string
	// Names holds, per operand, the unique name of its metric, "" where
	// the operand has none.
	Names []string
	// How says how they were matched: "canonical identity time (wall
	// clock)" or "--map-metric CPUTIME=time".
	How string
}

// String describes the match: "time: time (operand 0) = TIME (operand 1)
// by canonical identity time (wall clock)".
func (m MetricMatch) String() string {
	var parts []string
	for i, n := range m.Names {
		if n != "" {
			parts = append(parts, fmt.Sprintf("%s (operand %d)", n, i))
		}
	}
	return fmt.Sprintf("metric %s: %s, by %s", m.Result, strings.Join(parts, " = "), m.How)
}

// integrateMetrics matches metrics by unique name, then by canonical
// identity or mapping rule (Options.MetricMaps) where unit and
// aggregation agree, and copies the others. Two metrics of one unique
// name whose identities differ (gprof's sampled CPU "time" and Score-P's
// wall-clock "time") stay apart; the later one is renamed.
func (ig *Integration) integrateMetrics() error {
	res := ig.Result
	byName := map[string]int{}     // result unique name → index
	byKey := map[string][]int{}    // matching key → result indices
	var keys []string              // per result metric: its matching key
	var how []string               // per result metric: how it was first matched by key
	var ruleOf []int               // per result metric: the mapping rule of its first metric, or -1
	byKeyMatched := map[int]bool{} // result metrics matched by key
	ruleUsed := make([]bool, len(ig.Options.MetricMaps))
	ig.Metrics = make([][]int, len(ig.Operands))
	for i, e := range ig.Operands {
		mp := newMap(len(e.Metrics))
		ig.Metrics[i] = mp
		order := e.MetricOrder()
		key := make([]string, len(e.Metrics))
		rule := make([]int, len(e.Metrics))
		for _, m := range order {
			key[m], rule[m] = ig.Options.metricKey(&e.Metrics[m])
			if rule[m] >= 0 {
				ruleUsed[rule[m]] = true
			}
		}
		// 1. the same unique name, unless the meanings differ
		for _, m := range order {
			om := &e.Metrics[m]
			r, ok := byName[om.UniqName]
			if !ok {
				continue
			}
			rm := &res.Metrics[r]
			if rm.Present.Has(i) {
				return fmt.Errorf("%s: metric %q occurs twice", operandName(ig.Operands, i), om.UniqName)
			}
			if key[m] != "" && keys[r] != "" && key[m] != keys[r] {
				ig.Report.Unmatched = append(ig.Report.Unmatched, fmt.Sprintf(
					"metric %q means %s in %s but %s in %s: kept apart",
					om.UniqName, keyMeaning(key[m]), operandName(ig.Operands, i),
					keyMeaning(keys[r]), operandName(ig.Operands, firstOperand(rm.Present))))
				continue
			}
			if err := ig.sameKind(rm, om, i); err != nil {
				return err
			}
			rm.Present |= bit(i)
			mp[m] = r
		}
		// 2. the same canonical identity or mapping target
		for _, m := range order {
			om := &e.Metrics[m]
			if mp[m] >= 0 {
				continue
			}
			var cands []int
			if name, ok := strings.CutPrefix(key[m], "="); ok {
				if r, ok := byName[name]; ok {
					cands = append(cands, r)
				}
			} else if key[m] != "" {
				cands = append(cands, byKey[key[m]]...)
			}
			cands = append(cands, byKey["="+om.UniqName]...) // mapped onto this name
			for _, r := range cands {
				rm := &res.Metrics[r]
				if rm.Present.Has(i) {
					continue
				}
				if !model.SameUnit(rm.Unit, om.Unit) || rm.Aggregation != om.Aggregation {
					ig.Report.Unmatched = append(ig.Report.Unmatched, fmt.Sprintf(
						"metric %q of %s (%s, %s) and %q (%s, %s) both mean %s but differ in unit or aggregation: kept apart",
						om.UniqName, operandName(ig.Operands, i), om.Unit, om.Aggregation,
						rm.UniqName, rm.Unit, rm.Aggregation, keyMeaning(cmpKey(key[m], keys[r]))))
					continue
				}
				rm.Present |= bit(i)
				mp[m] = r
				byKeyMatched[r] = true
				switch {
				case rule[m] >= 0:
					how[r] = "--map-metric " + ig.Options.MetricMaps[rule[m]].String()
				case ruleOf[r] >= 0:
					how[r] = "--map-metric " + ig.Options.MetricMaps[ruleOf[r]].String()
				case how[r] == "" && keys[r] != "" && !strings.HasPrefix(keys[r], "="):
					how[r] = "canonical identity " + keys[r] + " (" + model.IdentityMeaning(keys[r]) + ")"
				case how[r] == "":
					how[r] = "a --map-metric rule"
				}
				break
			}
		}
		// 3. the others are new
		for _, m := range order {
			if mp[m] >= 0 {
				continue
			}
			om := &e.Metrics[m]
			nm := *om
			nm.Parent = -1
			if om.Parent >= 0 {
				nm.Parent = mp[om.Parent]
			}
			nm.Children = nil
			nm.Present = bit(i)
			nm.Attrs = slices.Clone(om.Attrs)
			nm.AggrExpressions = slices.Clone(om.AggrExpressions)
			if id := model.CanonicalIdentity(key[m]); id != "" {
				nm.Identity = id
			}
			for n := 2; ; n++ {
				if _, taken := byName[nm.UniqName]; !taken {
					break
				}
				nm.UniqName = fmt.Sprintf("%s (%s)", om.UniqName, operandLabel(ig.Operands, i, n))
			}
			r := len(res.Metrics)
			mp[m] = r
			byName[nm.UniqName] = r
			if key[m] != "" {
				byKey[key[m]] = append(byKey[key[m]], r)
			}
			keys = append(keys, key[m])
			how = append(how, "")
			ruleOf = append(ruleOf, rule[m])
			res.Metrics = append(res.Metrics, nm)
		}
	}
	for r := range res.Metrics {
		if !byKeyMatched[r] {
			continue
		}
		ns := make([]string, len(ig.Operands))
		for i := range ig.Operands {
			if m := slices.Index(ig.Metrics[i], r); m >= 0 {
				ns[i] = ig.Operands[i].Metrics[m].UniqName
			}
		}
		match := MetricMatch{Result: res.Metrics[r].UniqName, Names: ns, How: how[r]}
		ig.Report.Metrics = append(ig.Report.Metrics, match)
		rm := &res.Metrics[r]
		var others []string
		for i, n := range ns {
			if n != "" && i != firstOperand(rm.Present) {
				others = append(others, fmt.Sprintf("%s of operand %d", n, i))
			}
		}
		note := "Compared with " + strings.Join(others, ", ") + ", by " + how[r] + "."
		if rm.Descr == "" {
			rm.Descr = note
		} else {
			rm.Descr = strings.TrimRight(rm.Descr, " ") + " " + note
		}
	}
	for k, used := range ruleUsed {
		if !used {
			ig.Report.Unused = append(ig.Report.Unused, fmt.Sprintf(
				"--map-metric %s: no operand has a metric %s", ig.Options.MetricMaps[k], ig.Options.MetricMaps[k].From))
		}
	}
	ig.Report.Unmatched = append(ig.Report.Unmatched, ig.meaningHints(keys)...)
	return nil
}

// sameKind checks that a metric matched by unique name has the unit and
// aggregation of the result metric.
func (ig *Integration) sameKind(rm, om *model.Metric, i int) error {
	first := firstOperand(rm.Present)
	if rm.Unit != om.Unit {
		return fmt.Errorf("metric %q: unit %q in %s differs from unit %q in %s",
			om.UniqName, om.Unit, operandName(ig.Operands, i), rm.Unit, operandName(ig.Operands, first))
	}
	if rm.Aggregation != om.Aggregation {
		return fmt.Errorf("metric %q: aggregation %s (data type %s) in %s differs from %s (data type %s) in %s",
			om.UniqName, om.Aggregation, om.DataType, operandName(ig.Operands, i),
			rm.Aggregation, rm.DataType, operandName(ig.Operands, first))
	}
	return nil
}

// cmpKey returns the first of the keys that is not empty.
func cmpKey(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// keyMeaning says what a matching key means: "time (wall clock)", or the
// metric a mapping rule names.
func keyMeaning(key string) string {
	if name, ok := strings.CutPrefix(key, "="); ok {
		return "metric " + name
	}
	return key + " (" + model.IdentityMeaning(key) + ")"
}

// operandLabel names operand i for a renamed metric: its tool, or
// "operand i" (with n when that is taken too).
func operandLabel(ops []*model.Experiment, i, n int) string {
	if n == 2 {
		if t := toolOf(ops[i]); t != "" {
			return t
		}
	}
	if n <= 3 {
		return fmt.Sprintf("operand %d", i)
	}
	return fmt.Sprintf("operand %d #%d", i, n-3)
}

// meaningHints names result metrics that hold wall-clock time in some
// operands and CPU time in the others, which only a mapping compares, and
// the option that does.
func (ig *Integration) meaningHints(keys []string) []string {
	res := ig.Result
	var out []string
	for r := range res.Metrics {
		if keys[r] != model.IdentityCPUTime {
			continue
		}
		for w := range res.Metrics {
			if keys[w] != model.IdentityTime || res.Metrics[w].Present&res.Metrics[r].Present != 0 {
				continue
			}
			cpu, wall := &res.Metrics[r], &res.Metrics[w]
			out = append(out, fmt.Sprintf(
				"metric %q (CPU time) of %s and %q (wall clock) of %s are not compared, since they differ in meaning; --map-metric '%s=%s' compares them",
				cpu.UniqName, operandList(cpu.Present, len(ig.Operands)), wall.UniqName, operandList(wall.Present, len(ig.Operands)),
				ig.originalName(r), ig.originalName(w)))
		}
	}
	return out
}

// originalName returns the unique name the first operand holding result
// metric r gives it.
func (ig *Integration) originalName(r int) string {
	i := firstOperand(ig.Result.Metrics[r].Present)
	if i < 0 {
		return ig.Result.Metrics[r].UniqName
	}
	if m := slices.Index(ig.Metrics[i], r); m >= 0 {
		return ig.Operands[i].Metrics[m].UniqName
	}
	return ig.Result.Metrics[r].UniqName
}

// operandList renders a mask as "operand 0" or "operands 0, 2".
func operandList(m model.Mask, n int) string {
	var ids []string
	for i := 0; i < n; i++ {
		if m.Has(i) {
			ids = append(ids, fmt.Sprint(i))
		}
	}
	if len(ids) == 1 {
		return "operand " + ids[0]
	}
	return "operands " + strings.Join(ids, ", ")
}
