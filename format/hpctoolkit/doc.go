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
package hpctoolkit
