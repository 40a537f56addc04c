// Package caliper imports Caliper profiles in the JSON layout that
// "cali-query -q '… format json-split'" writes and hatchet reads: a nodes
// table whose entries name their parents, and data rows that refer to
// nodes and hold per-rank values.
//
// The nodes of the call-path column (source.function#callpath.address, or
// path for annotated regions) become the call tree, one cnode per node;
// value columns become metrics (time in seconds, min#/max# columns with
// the min/max aggregation, means left out since their sums are there);
// mpi.rank and a thread column become the system tree. Sampled source
// locations give a region its file and first line.
package caliper
