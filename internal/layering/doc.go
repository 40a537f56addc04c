// Package layering holds the test that keeps cubeview's dependency
// direction: the data, file, algebra, colour and source packages never
// depend on the user-interface toolkit, and model imports no other
// package of the project.
package layering
