// Package layering holds the test that keeps cubeview's dependency
// direction (DESIGN §5): an allowed-imports table, in the manner of Go's
// own go/build/deps_test.go, says per layer which packages of the module
// each package may import — the data model at the bottom, readers that
// import no other reader, the algebra and analyses above them, window
// state above those, the widgets and the program on top — and which
// packages may import the toolkit, plots and database drivers. A wrong
// arrow, or a package the table does not place, fails the test; the
// checker itself is tested on made-up graphs and on wrong imports
// planted into the real tree through go list's -overlay.
//
// It also keeps types small: no type of the module may have more than 40
// exported methods, nor more than 40 methods in all (those of module
// types it embeds included), except the few listed with the count they
// had, which may only shrink; and view/ (window and pane state) within
// its size today (maxViewLines, under 5,500 lines), so that what does
// something else goes to its own package.
package layering
