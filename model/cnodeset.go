package model

// locationValuesOver returns, per location, the selected metric aggregated
// over an explicit set of cnodes, each listed once. Displays use it for
// selections that are not one call subtree, such as a region of a flat
// profile (the union of the subtrees of its call paths). A derived
// metric's value at a location is its formula over the operands' values
// there.
func locationValuesOver(e *Experiment, ms MetricSel, cnodes []int) ([]float64, error) {
	if e.Metrics[ms.Metric].IsDerived() {
		return evalDerived(e, ms.Metric, e.NumLocations(), func(op MetricSel) ([]float64, error) {
			return locationValuesOver(e, op, cnodes)
		})
	}
	out, err := e.stored().locationAggregate(ms.Metric, cnodes)
	if err != nil {
		return nil, err
	}
	if !ms.Inclusive {
		for _, ch := range subtracted(e, ms.Metric) {
			cv, err := e.stored().locationAggregate(ch, cnodes)
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
