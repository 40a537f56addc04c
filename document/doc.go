// Package document holds what an experiment window shows: a Doc, an open
// experiment, original (read from a file or folder: Read) or derived
// (the result of the algebra), with the name its window and menus show,
// its file, and for a derived one its expression, its operands' names
// and the open documents it was computed from.
//
// An Operation is one algebra operation (difference, merge, mean, cut)
// over open documents; Compute runs it in the background and makes the
// result's Doc, EvaluateExpression does the same for the --calc flag's
// expression over files, CutOperation makes Algebra › Cut at a view's
// selected call path, and ShowDerived prepares a view for a derived
// document (operand markers, diverging colours of a difference).
//
// The package names documents for people: short and distinct file names
// (ShortName, OperandNames, Labels), an expression's display form
// ("before − after", NameOfExpression), the window's title (WindowTitle),
// the external reference (DefaultReference, ReferenceName, ExternalHint,
// Others), and writes File › Properties (Properties).
package document
