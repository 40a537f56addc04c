package ui

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2"
)

// Main parses the GUI command line (files and flags such as --snapshot),
// opens the windows and runs the application; it returns the exit status.
func Main(a fyne.App, args []string) int {
	fmt.Fprintln(os.Stderr, "cubeview: the display is not implemented yet")
	return 2
}
