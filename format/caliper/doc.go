// Package caliper imports Caliper profiles in two layouts, registered as
// Format and Cali:
//
//   - the JSON layout that "cali-query -q '… format json-split'" writes
//     and hatchet reads: a nodes table whose entries name their parents,
//     and data rows that refer to nodes and hold per-rank values;
//   - Caliper's own .cali record stream (plain or gzip-compressed):
//     region profiles, spot and RAJAPerf profiles, event traces. Nested
//     attributes' values (region, function, loop) become the call path,
//     aggregated attributes (sum#time.duration, min#…, count) metrics with
//     the matching aggregation, inclusive ones turned into own values;
//     globals records (Adiak's metadata among them) become the
//     experiment's attributes.
//
// In the JSON layout the nodes of the call-path column
// (source.function#callpath.address, or path for annotated regions)
// become the call tree, one cnode per node; value columns become metrics
// (time in seconds, min#/max# columns with the min/max aggregation,
// means left out since their sums are there), and sampled source
// locations give a region its file and first line. In both layouts
// mpi.rank and a thread attribute become the system tree.
package caliper
