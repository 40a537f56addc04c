package tau

import (
	"strconv"
	"strings"
	"unicode"

	"cubeview/model"
)

// atomicMetrics appends the metrics of atomic event name to defs, as
// ParaProf shows a user event — its mean with the number of events,
// minimum, maximum and standard deviation beside it — keeping a mean as
// its sum and count (DESIGN §7):
//
//	name (mean)       derived: sum / count
//	  Count           events (occ)
//	  Min, Max        smallest and largest value (min / max aggregation)
//	  Std. dev.       derived: sqrt(|sumsqr / count − mean²|), as ParaProf
//	  Total           sum of the values
//	  Sum of squares
//
// Aggregated over call paths and locations, mean and deviation are those
// of all the events together. The stored statistics get plain unique
// names (name's letters and digits, ".count" …) so that the formulas can
// be written in CubePL; used and plain hold the unique names and plain
// bases taken.
func (r *reader) atomicMetrics(defs []metricOut, name string, used, plain map[string]bool) []metricOut {
	outs := r.userMetrics(name)
	base := plainName(name)
	for n := 2; plain[base] || used[base+".count"]; n++ {
		base = plainName(name) + "_" + strconv.Itoa(n)
	}
	plain[base] = true
	uniq := func(stat string) string { return base + "." + stat }
	count, sum, sumsqr := uniq("count"), uniq("sum"), uniq("sumsqr")
	mean := mustFormula(sum + " / " + count)
	std := mustFormula("sqrt(abs(" + sumsqr + " / " + count + " - " + sum + " / " + count + " * (" + sum + " / " + count + ")))")
	parent := len(defs)
	add := func(o int, m model.Metric, p int) {
		for used[m.UniqName] {
			m.UniqName += "'"
		}
		used[m.UniqName] = true
		defs = append(defs, metricOut{out: o, m: m, div: 1, parent: p})
	}
	what := "TAU atomic event " + name + ": "
	add(-1, model.Metric{UniqName: name, DispName: name + " (mean)", DataType: model.Double, Formula: mean,
		Descr: what + "mean value per event (total / count, over the events of the call paths and locations selected); below it the count, minimum, maximum, standard deviation and total, as ParaProf shows a user event"}, -1)
	add(outs[statCount], model.Metric{UniqName: count, DispName: "Count", Unit: "occ", DataType: r.countType(outs[statCount]),
		Descr: what + "number of events"}, parent)
	add(outs[statMin], model.Metric{UniqName: uniq("min"), DispName: "Min", DataType: model.MinDouble,
		Descr: what + "smallest value"}, parent)
	add(outs[statMax], model.Metric{UniqName: uniq("max"), DispName: "Max", DataType: model.MaxDouble,
		Descr: what + "largest value"}, parent)
	add(-1, model.Metric{UniqName: uniq("std"), DispName: "Std. dev.", DataType: model.Double, Formula: std,
		Descr: what + "standard deviation of the values, sqrt(|sum of squares / count − mean²|) as ParaProf computes it"}, parent)
	add(outs[statSum], model.Metric{UniqName: sum, DispName: "Total", DataType: model.Double,
		Descr: what + "sum of the values (the profile's mean × number of events)"}, parent)
	add(outs[statSumSqr], model.Metric{UniqName: sumsqr, DispName: "Sum of squares", DataType: model.Double,
		Descr: what + "sum of the squared values"}, parent)
	return defs
}

// derive makes m the derived metric of formula f.
func derive(m *model.Metric, f *model.Formula) {
	m.Formula, m.Type, m.Expression = f, model.PostDerived, f.CubePL()
}

func mustFormula(text string) *model.Formula {
	f, err := model.ParseFormula(text)
	if err != nil {
		panic("tau: " + err.Error()) // the names are plain
	}
	return f
}

// plainName turns an atomic event's name into a name CubePL can refer
// to: letters and digits kept, every run of other characters one "_",
// never starting with a digit.
func plainName(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			gap = false
			continue
		}
		gap = true
	}
	s := b.String()
	if s == "" || unicode.IsDigit([]rune(s)[0]) {
		s = "event_" + s
	}
	return s
}
