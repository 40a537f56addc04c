// Package testkit holds helpers shared by the project's tests:
//
//   - the real experiments in ../shared/data (Data, DataDir; tests skip
//     when the folder is absent);
//   - golden files under testdata/ (Golden), rewritten with -update
//     (Updating), and a readable first-difference report for long texts
//     such as dumps (Diff);
//   - local copies of files from fetched public repository snapshots
//     (Mirror, MirrorFiles, MirrorFilesAt), for tests over many real
//     profiles, which skip when the snapshot is absent, within a time
//     budget (CorpusBudget);
//   - measuring: the process's CPU time (CPUTime) and the peak heap of a
//     function (Peak), for benchmarks' reports;
//   - HeldRunner, a runner that holds background work back until a test
//     runs it.
//
// It is imported only from _test.go files.
package testkit
