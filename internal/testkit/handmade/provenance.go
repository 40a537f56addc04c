package handmade

import (
	"cubeview/algebra"
	"cubeview/model"
)

// WithProvenance returns Experiment with the provenance of a difference
// of two files, /runs/before.cubex − /runs/after.cubex, as the algebra
// records it: a derived experiment whose operands were read from files.
func WithProvenance() *model.Experiment {
	e := Experiment()
	e.Attrs = append(e.Attrs,
		model.Attr{Key: algebra.AttrExpression, Value: "diff(/runs/before.cubex, /runs/after.cubex)"},
		model.Attr{Key: algebra.AttrOptions, Value: "system=auto;strict-lines=false"},
		model.Attr{Key: algebra.AttrOperand + "0", Value: "size=1234567;sha256=ab12;path=/runs/before.cubex"},
		model.Attr{Key: algebra.AttrOperand + "1", Value: "size=7;sha256=cd34;path=/runs/after.cubex"})
	return e
}
