// Package significance holds the statistics that say whether two groups of
// repeated runs differ: Welch's t-test, the Mann–Whitney U test (exact for
// small groups without ties, else the normal approximation with tie and
// continuity corrections), the effect size (Cohen's d, Hedges' g), the
// confidence interval of the difference of the means (Welch–Satterthwaite
// degrees of freedom), Benjamini–Hochberg q-values for many comparisons
// and the coefficient of variation of one group.
//
// The functions take plain numbers and know nothing of experiments; the
// analyses that compare call paths and foci build on them. P-values are
// two-sided. A comparison is called significant when its q-value (its
// p-value adjusted for every comparison made together) is below α, and
// only then (Significant).
package significance
