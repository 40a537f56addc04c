// Package cluster groups the locations of an experiment that behave
// alike — Karavanic & Miller's cluster aggregation, PerfExplorer's
// clustering — and names the odd ones out.
//
// Each location is a vector of its own (call-tree exclusive) values of
// one metric, one dimension per call path. The vectors are normalised by
// one common scale, the average location's total absolute value, so that
// distances are fractions of a typical location's whole and a call path
// weighs as much as its share of it: a location with twice the work of
// the others stands apart (normalising each location by its own total
// would hide exactly that imbalance), and a call path of microseconds
// cannot outweigh the main loop. Values may be negative, so a difference
// experiment clusters the same way: the locations that changed alike.
// Undefined values (NaN of a derived metric) count as 0.
//
// Distances use the 128 call paths of the largest variance across
// locations (the rest differ too little between locations to separate
// any), rotated onto their principal axes, of which the leading ones
// holding 99 % of the variance are kept: call paths that vary together,
// as they mostly do, cost one dimension. The centroids reported are
// means over every call path.
//
// K-means (Lloyd's iterations from k-means++ seeds, the best of several
// seeded starts by within-cluster sum of squares) groups the vectors.
// With k automatic, k = 2 … 8 are tried and the one with the highest
// mean silhouette wins (ties: the smaller k) among those whose clusters
// hold two locations or more and are separated: the centres of every
// two clusters lie at least 2 × (the sum of their members' standard
// deviations along the line through both centres) apart. A unimodal
// cloud cut in two scores 1.3 (normal) to 1.7 (uniform) on that scale,
// though its silhouette may reach 0.6. When no k qualifies, or the best
// silhouette is below 0.25 (Kaufman & Rousseeuw: no substantial
// structure), all locations form one cluster: a gradient of load across
// ranks is one cluster with a large radius, not several. The silhouette is exact over up to 2,048 locations, over a
// seeded sample of 2,048 beyond.
//
// An outlier is a location far from every centroid: its distance to each
// other cluster's centroid, and to its own cluster's centroid computed
// without it, exceeds median + 5 × 1.4826 × MAD of all locations'
// distances to their own centroids (a robust five-sigma rule), and at
// least 0.05 (5 % of an average location's total). A cluster of one
// location far from the rest is thus an outlier, not a cluster. Outliers
// are set aside and the rest clustered again (k chosen again when
// automatic), at most four rounds, so that an extreme location neither
// pulls a centroid nor takes a cluster of its own; outliers are never
// more than half of the locations.
//
// Results are reproducible and independent of the order of the
// locations in the file: locations are put in a canonical order (process
// rank, thread rank, then names) before anything is computed, every sum
// runs in that order, the random numbers come from a fixed seed, and
// clusters are numbered by size (largest first, then by their first
// member).
package cluster
