// Package algebra implements the CUBE algebra: operators that take
// experiments and return a new, valid experiment — Diff, Merge, Mean and
// Cut — so that results can be browsed, saved and used as operands again
// (the closure property). Inputs are never modified.
//
// Every binary or n-ary operator works in two steps, each public and usable
// on its own:
//
//  1. Integrate builds the common metadata of the operands by a top-down
//     structural merge of each dimension. Metrics match by unique name,
//     regions by name and module, call-tree nodes by callee region under an
//     already matched parent, processes by rank and threads by rank within
//     their process. Unmatched nodes are copied with their whole subtree.
//     The machine/node hierarchy is copied from one operand when the
//     operands' process-to-node partitionings are compatible (see
//     Integrate) and collapsed to one machine and one node otherwise.
//     The result maps every operand entity to its result entity.
//  2. Arithmetic fills the integrated skeleton with values: a−b for a
//     difference, the first operand that has a metric for a merge, the sum
//     divided by the number of operands for a mean. A value missing in an
//     operand counts as zero.
//
// Every metric, call-tree node and system node of a result records in its
// Present mask which operands contained it, and the result carries its
// expression and its operands (file path, size and SHA-256, or the
// expression of a derived operand) as experiment attributes whose keys
// start with "cubeview::"; ReadProvenance decodes them.
//
// Parse and Eval evaluate composite expressions such as
// diff(mean(a.cubex, b.cubex), c.cubex) over files.
package algebra
