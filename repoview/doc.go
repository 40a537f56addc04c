// Package repoview is the presentation state of the repository window
// (DESIGN §8): the trials a filter selects as an application → experiment
// → trial tree with attribute columns, the current and the marked trials
// and which actions they allow, a trial's fields and attributes, imports of
// files and folders with their progress, and searches whose hits are rows.
//
// It computes everything the window shows and knows nothing of the
// toolkit, so that the window only draws it and routes events (DESIGN §5).
package repoview
