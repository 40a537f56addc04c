package model

// LocationValuesOver returns, per location, the selected metric aggregated
// over an explicit set of cnodes, each listed once. Displays use it for
// selections that are not one call subtree, such as a region of a flat
// profile (the union of the subtrees of its call paths).
//
// A derived metric's values do not add up over the system tree, so for it
// LocationValuesOver returns an error wrapping ErrDerived:
// SystemTreeValues answers for every metric.
func (e *Experiment) LocationValuesOver(ms MetricSel, cnodes []int) ([]float64, error) {
	if err := e.notDerived(ms.Metric, "SystemTreeValues"); err != nil {
		return nil, err
	}
	out, err := e.locationAggregate(ms.Metric, cnodes)
	if err != nil {
		return nil, err
	}
	if !ms.Inclusive {
		for _, ch := range e.subtracted(ms.Metric) {
			cv, err := e.locationAggregate(ch, cnodes)
			if err != nil {
				return nil, err
			}
			for l, v := range cv {
				out[l] -= v
			}
		}
	}
	return out, nil
}
