// Package hpctoolkit imports HPCToolkit databases as experiments: the XML
// layout (experiment.xml with one .metric-db file per thread, HPCToolkit
// up to 2020) and the sparse layout of HPCToolkit 2022 and later (meta.db,
// profile.db, cct.db; format version 4).
//
// The calling context tree becomes the call tree: procedure frames,
// inlined procedures, loops and statement lines are cnodes whose regions
// carry file and line, so the source view works; a call site's line is
// the call line of the procedure it calls. Thread identities (rank,
// thread, GPU stream, host) become the system tree. Each metric with its
// inclusive and exclusive variants becomes one metric whose values are
// each context's own cost, so nothing is counted twice; times become
// seconds.
//
// hpcprof's summary statistics over threads (X:Sum, X:Mean, X:StdDev,
// X:Min, X:Max, …) sit beside the metric X they summarise: X:Sum is X's
// sum; X:Min and X:Max keep their min/max kinds (per context, as
// written); a mean is its sum and its count of threads (X:Mean:num-src);
// the statistics that are none of these are named in an experiment
// attribute. Per-thread metrics written into experiment.xml
// ("X.[rank,thread]") become one metric with a location per thread.
// A database missing metric-db files (a gap in the ranks or threads of
// the file names, or files whose total falls short of experiment.xml's
// X:Sum at the root) is read with a warning saying so, or refused with
// the strict option.
package hpctoolkit
