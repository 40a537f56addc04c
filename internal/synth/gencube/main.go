// Command gencube writes a generated experiment (package synth) as a
// .cubex file for benchmarks, without holding its data in memory.
//
//	go run ./internal/synth/gencube -cnodes 10000 -locations 1024 -metrics 4 -o /tmp/big.cubex
//
// -inclusive stores the metrics call-tree inclusive, as Score-P stores
// time. Write big files outside the repository.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"cubeview/format/cube"
	"cubeview/internal/synth"
)

func main() {
	cnodes := flag.Int("cnodes", 10000, "call paths")
	locations := flag.Int("locations", 1024, "locations (threads)")
	threads := flag.Int("threads", 4, "threads per process")
	nodes := flag.Int("nodes", 16, "compute nodes")
	metrics := flag.Int("metrics", 4, "metrics, all DOUBLE, named m0, m1, …")
	density := flag.Float64("density", 1, "fraction of call paths with data")
	seed := flag.Uint64("seed", 1, "random seed")
	valueSeed := flag.Uint64("value-seed", 0, "when not 0: the same call tree and rows as -seed gives, each row's values scaled by a factor from 0.5 to 1.5 drawn from this seed")
	inclusive := flag.Bool("inclusive", false, "store call-tree inclusive values (type INCLUSIVE)")
	out := flag.String("o", "", "output .cubex file")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gencube [flags] -o FILE.cubex")
		flag.PrintDefaults()
		os.Exit(2)
	}
	e := synth.Generate(synth.Config{Cnodes: *cnodes, Locations: *locations, Threads: *threads, Nodes: *nodes,
		Metrics: *metrics, Density: *density, Seed: *seed, ValueSeed: *valueSeed, Flat: true, OnDemand: true})
	if err := write(*out, func(w *bufio.Writer) error {
		return cube.WriteCubexWith(w, e, cube.CubexOptions{Inclusive: *inclusive})
	}); err != nil {
		fmt.Fprintln(os.Stderr, "gencube:", err)
		os.Exit(1)
	}
}

// write creates path through a temporary file and a rename.
func write(path string, fn func(*bufio.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	if err := fn(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
