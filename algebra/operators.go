package algebra

import "fmt"

// Op is an operator of the algebra. The zero Op is no operator: an Expr
// with it is a file operand.
type Op uint8

const (
	// NoOp marks a file operand.
	NoOp Op = iota
	// OpDiff subtracts the second operand from the first.
	OpDiff
	// OpMerge takes each metric's values from the first operand that has
	// the metric.
	OpMerge
	// OpMean divides the sum of the operands by their number.
	OpMean
	// OpCut reroots or prunes the call tree of one operand.
	OpCut
)

// Operator describes an operator: how expressions name it, how menus and
// titles show it, and how many operands it takes. Operators lists every
// one; the parser, the command line and the GUI all read this table.
type Operator struct {
	Op    Op
	Name  string // in expressions and on the command line: diff, merge, mean, cut
	Title string // in menus and dialogs: Difference, Merge, …
	// Symbol is the infix symbol shown for people ("−" for diff, shown as
	// "a − b"); "" means function notation, "mean(a, b)".
	Symbol string
	// MinOperands and MaxOperands bound the number of operands.
	MinOperands, MaxOperands int
}

// Operators lists the operators in menu order.
var Operators = []Operator{
	{Op: OpDiff, Name: "diff", Title: "Difference", Symbol: "−", MinOperands: 2, MaxOperands: 2},
	{Op: OpMerge, Name: "merge", Title: "Merge", MinOperands: 2, MaxOperands: MaxOperands},
	{Op: OpMean, Name: "mean", Title: "Mean", MinOperands: 2, MaxOperands: MaxOperands},
	{Op: OpCut, Name: "cut", Title: "Cut", MinOperands: 1, MaxOperands: 1},
}

// Info returns the table entry of op; ok is false for NoOp and unknown values.
func (op Op) Info() (o Operator, ok bool) {
	for _, o := range Operators {
		if o.Op == op {
			return o, true
		}
	}
	return Operator{}, false
}

// String returns the operator's name in expressions ("" for NoOp).
func (op Op) String() string {
	if o, ok := op.Info(); ok {
		return o.Name
	}
	if op == NoOp {
		return ""
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// Title returns the operator's name in menus ("Difference").
func (op Op) Title() string {
	o, _ := op.Info()
	return o.Title
}

// OperatorByName returns the operator named name in expressions.
func OperatorByName(name string) (Operator, bool) {
	for _, o := range Operators {
		if o.Name == name {
			return o, true
		}
	}
	return Operator{}, false
}

// OperatorNames returns the names of all operators, e.g. for messages.
func OperatorNames() []string {
	names := make([]string, len(Operators))
	for i, o := range Operators {
		names[i] = o.Name
	}
	return names
}

// CheckOperands returns an error when n operands are too few or too many.
func (o Operator) CheckOperands(n int) error {
	switch {
	case o.MinOperands == o.MaxOperands && n != o.MinOperands:
		return fmt.Errorf("%s takes %s, got %d", o.Name, operands(o.MinOperands), n)
	case n < o.MinOperands:
		return fmt.Errorf("%s takes at least %s, got %d", o.Name, operands(o.MinOperands), n)
	case n > o.MaxOperands:
		return fmt.Errorf("%s takes at most %s, got %d", o.Name, operands(o.MaxOperands), n)
	}
	return nil
}

// operands counts operands in words: "one operand", "two operands", "64 operands".
func operands(n int) string {
	words := []string{"no", "one", "two", "three", "four"}
	switch {
	case n == 1:
		return "one operand"
	case n < len(words):
		return words[n] + " operands"
	}
	return fmt.Sprintf("%d operands", n)
}
