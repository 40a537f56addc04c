package view

import (
	"image"

	"cubeview/analysis"
	"cubeview/numfmt"
)

// ScalingOptions are the fields of a scaling study's options that both
// Scaling… dialogs (of the open experiments and of repository trials)
// have: what to compare across locations, weak scaling and exclusive
// values.
type ScalingOptions struct {
	Basis, Weak, Exclusive *Field
}

// NewScalingOptions returns the option fields, comparing means.
func NewScalingOptions() ScalingOptions {
	return ScalingOptions{
		Basis: &Field{Kind: ChoiceField, Label: "Compare", Options: BasisNames, Text: BasisNames[analysis.BasisMean]},
		Weak:  &Field{Kind: CheckField, Label: "Weak scaling (the work grows with x): ratio to the first run, ideal 1"},
		Exclusive: &Field{Kind: CheckField,
			Label: "Own values of each call path (exclusive) instead of inclusive ones"},
	}
}

// Apply sets the options of s as the fields say.
func (o ScalingOptions) Apply(s *ScalingSpec) {
	s.Weak, s.Exclusive = o.Weak.On, o.Exclusive.On
	s.Basis = analysis.Basis(max(o.Basis.Index(), 0))
}

// Plot size in pixels of a scaling study; the window scales it to fit.
const ScalingPlotW, ScalingPlotH = 1000, 580

// ScalingStudy computes a scaling study and draws its plot; call it off
// the UI goroutine.
func ScalingStudy(trials []ScalingTrial, spec ScalingSpec, format numfmt.Format) (*ScalingReport, image.Image, error) {
	rep, err := NewScalingReport(trials, spec, format)
	if err != nil {
		return nil, nil, err
	}
	c, err := rep.Chart()
	if err != nil {
		return nil, nil, err
	}
	img, err := c.Image(ScalingPlotW, ScalingPlotH)
	return rep, img, err
}
