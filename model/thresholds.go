package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ThresholdsAttr is the metric attribute that holds a metric's thresholds
// in the ParseThresholds syntax; files keep it as an ordinary attribute.
const ThresholdsAttr = "cubeview::thresholds"

// Thresholds name ranges of a metric's values (SCALEA's quantitative
// characteristics), e.g. poor below 0.5, average up to 1, good above.
type Thresholds struct {
	Labels []string  // one more than Bounds
	Bounds []float64 // strictly ascending
}

// ParseThresholds reads "LABEL < BOUND < LABEL …", labels and strictly
// ascending bounds alternating, starting and ending with a label:
// "poor < 0.5 < average < 1 < good" calls values below 0.5 poor, values
// from 0.5 up to (not including) 1 average and the rest good.
func ParseThresholds(spec string) (*Thresholds, error) {
	parts := strings.Split(spec, "<")
	if len(parts) < 3 || len(parts)%2 == 0 {
		return nil, fmt.Errorf("thresholds %q: want LABEL < BOUND < LABEL [< BOUND < LABEL …]", spec)
	}
	t := &Thresholds{}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if i%2 == 0 {
			if p == "" {
				return nil, fmt.Errorf("thresholds %q: label %d is empty", spec, i/2+1)
			}
			t.Labels = append(t.Labels, p)
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("thresholds %q: %q is not a number", spec, p)
		}
		if n := len(t.Bounds); n > 0 && v <= t.Bounds[n-1] {
			return nil, fmt.Errorf("thresholds %q: bounds must ascend, %g follows %g", spec, v, t.Bounds[n-1])
		}
		t.Bounds = append(t.Bounds, v)
	}
	return t, nil
}

// String renders t in the syntax ParseThresholds reads.
func (t *Thresholds) String() string {
	var sb strings.Builder
	for i, l := range t.Labels {
		if i > 0 {
			sb.WriteString(" < " + strconv.FormatFloat(t.Bounds[i-1], 'g', -1, 64) + " < ")
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// Label returns the name of the range v falls in; "" for an undefined
// value (NaN), which falls in none.
func (t *Thresholds) Label(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	i := 0
	for i < len(t.Bounds) && v >= t.Bounds[i] {
		i++
	}
	return t.Labels[i]
}

// Thresholds returns the metric's thresholds, nil when it has none, or an
// error naming the metric when its attribute is malformed.
func (m *Metric) Thresholds() (*Thresholds, error) {
	for _, a := range m.Attrs {
		if a.Key == ThresholdsAttr {
			t, err := ParseThresholds(a.Value)
			if err != nil {
				return nil, fmt.Errorf("metric %q: %w", m.UniqName, err)
			}
			return t, nil
		}
	}
	return nil, nil
}

// WithThresholds returns a new experiment in which metric uniq carries the
// thresholds spec (replacing any it had; an empty spec removes them). e is
// not changed and the two share all data.
func WithThresholds(e *Experiment, uniq, spec string) (*Experiment, error) {
	m := e.MetricByName(uniq)
	if m < 0 {
		return nil, fmt.Errorf("no metric %q (it has: %s)", uniq, strings.Join(metricNames(e), ", "))
	}
	if spec != "" {
		if _, err := ParseThresholds(spec); err != nil {
			return nil, fmt.Errorf("metric %q: %w", uniq, err)
		}
	}
	n := shallowCopy(e)
	n.Metrics = append([]Metric(nil), e.Metrics...)
	met := &n.Metrics[m]
	var attrs []Attr
	for _, a := range met.Attrs {
		if a.Key != ThresholdsAttr {
			attrs = append(attrs, a)
		}
	}
	if spec != "" {
		attrs = append(attrs, Attr{Key: ThresholdsAttr, Value: spec})
	}
	met.Attrs = attrs
	n.SetLoader(delegateLoader{e})
	return n, nil
}
