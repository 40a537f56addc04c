// Package testkit holds helpers shared by the project's tests: the location
// of the real experiments in ../shared/data (tests skip when it is absent),
// golden files under testdata/ rewritten with -update, and a readable
// first-difference report for long texts such as dumps, and local copies of
// files from fetched public repository snapshots (MirrorFiles), for tests
// over many real profiles; they skip when the snapshot is absent.
//
// HeldRunner holds background work back until a test runs it.
//
// It is imported only from _test.go files.
package testkit
