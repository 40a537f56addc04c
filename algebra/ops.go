package algebra

import (
	"fmt"

	"cubeview/model"
)

// Diff returns a − b on the integrated domain: a call path or location
// present only in a keeps its values, one present only in b gets their
// negation.
func Diff(a, b *model.Experiment, opt Options) (*model.Experiment, error) {
	return apply(OpDiff, []*model.Experiment{a, b}, opt)
}

// Merge returns the union of the operands; each metric's values come from
// the first operand that has the metric.
func Merge(opt Options, operands ...*model.Experiment) (*model.Experiment, error) {
	return apply(OpMerge, operands, opt)
}

// Mean returns (x1 + … + xn) / n; a value present in only some operands is
// still divided by n.
func Mean(opt Options, operands ...*model.Experiment) (*model.Experiment, error) {
	return apply(OpMean, operands, opt)
}

func apply(op Op, operands []*model.Experiment, opt Options) (*model.Experiment, error) {
	if len(operands) == 0 {
		return nil, fmt.Errorf("%s: no operands", op)
	}
	ig, err := Integrate(operands, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	res, err := Arithmetic(ig, op)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return res, nil
}
