// Package model holds the CUBE data model of cubeview: an experiment is a
// severity function over three hierarchies — metrics, call paths and system
// locations — together with the metadata describing them.
//
// Metadata are stored in flat slices with parent and child indices, so that
// trees of tens of thousands of nodes cost little memory and are cheap to
// walk. Severity data are stored per metric as a cnodes × locations Block of
// float64 values with the canonical meaning fixed at load time, whatever the
// file held: inclusive along the metric tree (a parent metric's value
// contains its children's), exclusive along the call tree (a cnode's own
// value without its callees), per location. Blocks are loaded on first use
// through a Loader, so opening a large experiment reads no metric data
// until somebody looks at it.
//
// A derived metric (Metric.Formula, CUBE 4 POSTDERIVED) stores nothing: its
// value at any node of any pane is its formula applied to its operands'
// values aggregated at that node, so a ratio is a ratio of sums.
// CallTreeValues, FlatProfileOf, RegionProfile, SystemTreeValues,
// PointValues and MetricTotal answer for stored and derived metrics alike;
// WithDerived adds one to an experiment, sharing the stored data (and
// WithThresholds gives a metric thresholds). Block
// and Rows give a stored metric's data and fail with ErrDerived for a
// derived one, which stores none.
//
// An Experiment is immutable once built: readers and algebra operators
// construct a new one, call Validate, and hand it out. The queries —
// methods (MetricTotal, CallTreeValues, LocationValues, …) and functions
// of an experiment for the larger views (RegionProfile, BottomUp and
// Callers, SummaryOver, MinMaxValues, ForestValue) — answer what a
// display needs without any user-interface types, for every aggregation
// kind (sum, min, max). Values over the whole call forest honour the
// experiment's CUBE_CT_AGGR attribute (ForestValue, ForestSystemValues):
// with MAX, written by tau2cube, whose roots overlap, the forest is worth
// its largest root. A flat profile gives each region its whole, own and
// callees ("Subroutines") values, each aggregated with the metric's kind.
//
// A minimum or maximum counts only the values of locations that visited
// the call path, over locations and along the call tree alike: an
// unvisited location is "no value", not 0, and a call path whose stored
// values are all 0 has no value anywhere. Which locations visited a call
// path is known from the experiment's visits metric (a stored sum metric
// named "visits") where it has a row for the call path, and otherwise,
// since readers store "no value" as 0, from a non-zero value (TAU's
// atomic events, such as message sizes, have no visits). Without visits,
// a true minimum of exactly 0 at some locations is therefore passed over.
// Aggregates keep "no value" as the aggregation's identity (±Inf) and
// show it as 0. CubeLib counts every stored value along the call tree, so
// its inclusive minimum is 0 wherever a location did not visit a call
// path below.
package model
