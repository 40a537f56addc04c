// Package papi imports the JSON measurement files that PAPI's high-level
// API (PAPI_hl_region_begin / PAPI_hl_region_end) writes at the end of a
// run: one file per process, rank_NNNNNN.json (rank_NNNN in PAPI 6.0), in
// a folder papi_hl_output.
//
// Each region instance a thread recorded (PAPI 7: "regions" keyed by a
// region id with its parent region's id) adds to the call path of its
// region names; the instances of one call path are summed and counted
// (visits). PAPI records each event's value over a region instance,
// nested regions included, so a call path's own value is its instances'
// values less those of the instances nested in them. Instantaneous
// events ("instant", "region-average") are not additive: their metric
// keeps, per call path, the largest value recorded at a region's end.
// real_time_nsec and perf::TASK-CLOCK become seconds. Ranks (from the
// file names) and threads form the system tree; PAPI's version and the
// CPU become experiment attributes.
//
// PAPI 6.0 wrote per thread one total per region name, without nesting:
// its regions form a flat profile whose values include nested regions'.
package papi
