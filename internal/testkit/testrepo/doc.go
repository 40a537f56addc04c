// Package testrepo fills temporary experiment repositories with real
// experiments from ../shared/data for tests of the programs that browse
// them.
package testrepo
