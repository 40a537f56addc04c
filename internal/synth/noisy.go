package synth

import (
	"math/rand/v2"

	"cubeview/model"
)

// NoisyRun returns run number run of a repeated measurement of one
// configuration: the experiment Generate(cfg) makes (the same call tree
// and base values for every run), each call path c's values of metric 0
// scaled by 1 + sigma(c)·N(0, 1), drawn per run and call path from seed
// and run, and by 1 + shift[c] where a shift is planted.
func NoisyRun(cfg Config, seed uint64, run int, sigma func(c int) float64, shift map[int]float64) *model.Experiment {
	e := Generate(cfg)
	r := rand.New(rand.NewPCG(seed, uint64(run)))
	b, err := e.Block(0)
	if err != nil {
		panic(err) // generated blocks are in memory
	}
	for c := range e.Cnodes {
		f := (1 + sigma(c)*r.NormFloat64()) * (1 + shift[c])
		row := b.MutableRow(c)
		for l := range row {
			row[l] *= f
		}
	}
	return e
}

// ShiftAt is the shift of NoisyRun that scales call path c by 1 + shift;
// none when c < 0.
func ShiftAt(c int, shift float64) map[int]float64 {
	if c < 0 {
		return nil
	}
	return map[int]float64{c: shift}
}

// Sigma is the noise of NoisyRun that is s for every call path.
func Sigma(s float64) func(int) float64 { return func(int) float64 { return s } }
