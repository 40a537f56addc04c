// Command genexample writes the bundled example experiments before.cubex
// and after.cubex. It is run by "go generate ./assets".
package main

import (
	"flag"
	"fmt"
	"os"

	"cubeview/assets/internal/example"
)

func main() {
	out := flag.String("out", ".", "directory to write before.cubex and after.cubex into")
	flag.Parse()
	before, after, err := example.Write(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genexample:", err)
		os.Exit(1)
	}
	fmt.Println("wrote", before, "and", after)
}
