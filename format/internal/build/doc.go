// Package build assembles experiments for the importers of other tools'
// profiles: interned regions and call-tree nodes, a system tree of
// machines, nodes, processes and threads, and per-cnode accumulation of
// values that become the metrics' data blocks.
package build
