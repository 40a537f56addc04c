// Package analysis answers questions that span experiments or the spread
// of values inside one, on top of the model and the algebra:
//
//   - PerfDiff: where two runs differ (Karavanic & Miller's performance
//     difference over the call tree × system tree), with the significant
//     foci ranked;
//   - Summarize and Statistics: count, sum, extremes, mean, quartiles and
//     standard deviation of a call path's values across locations, and
//     which locations hold the extremes;
//   - Series: trials ordered by process count (or any x), per call path
//     the value, speedup and parallel efficiency (or the weak-scaling
//     ratio) of the slowest location for time (the mean otherwise), the
//     spread across locations, and with 4 trials or more a performance
//     model;
//   - FitModel: Extra-P's one-parameter performance-model normal form
//     c₀ + c₁·x^i·log₂(x)^j, chosen by leave-one-out cross-validation.
//
// Derived metrics are the model's (model.Formula, Experiment.WithDerived):
// every analysis here takes a metric by name and treats stored and derived
// metrics alike. Results are plain tables of values with model indices,
// so a command line, a plot (package chart) or a window can present them.
package analysis
