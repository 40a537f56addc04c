package model

// ValuesOf returns row's exclusive and inclusive values for another
// metric's per-cnode values (CallTreeValues) aggregated with agg: the
// same call paths, counted as the row counts them.
func (row CallerRow) ValuesOf(excl, incl []float64, agg Aggregation) (ex, in float64) {
	r := newCallerRow(row.Region, row.Depth, row.Paths, excl, incl, agg)
	return r.Excl, r.Incl
}
