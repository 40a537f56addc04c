package view

import "cubeview/analysis"

// ScalingFields are the fields both scaling dialogs have (Algebra ›
// Scaling… and the repository window's Scaling…): the metric, what the
// runs are compared by, weak scaling and own values.
type ScalingFields struct {
	Metric, Basis, Weak, Exclusive *Field
}

// NewScalingFields returns the shared fields of a scaling dialog: no
// metric offered yet, runs compared by their mean, strong scaling of
// inclusive values.
func NewScalingFields() ScalingFields {
	return ScalingFields{
		Metric: &Field{Kind: ChoiceField, Label: "Metric"},
		Basis:  &Field{Kind: ChoiceField, Label: "Compare", Options: BasisNames, Text: BasisNames[analysis.BasisMean]},
		Weak:   &Field{Kind: CheckField, Label: "Weak scaling (the work grows with x): ratio to the first run, ideal 1"},
		Exclusive: &Field{Kind: CheckField,
			Label: "Own values of each call path (exclusive) instead of inclusive ones"},
	}
}

// Spec returns the study of metric (a uniq_name) the fields describe, x
// from x and xText.
func (s ScalingFields) Spec(metric string, x XSource, xText string) ScalingSpec {
	return ScalingSpec{Metric: metric, X: x, XText: xText, Weak: s.Weak.On, Exclusive: s.Exclusive.On,
		Basis: analysis.Basis(max(s.Basis.Index(), 0))}
}
