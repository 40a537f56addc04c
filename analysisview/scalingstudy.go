package analysisview

import (
	"image"

	"cubeview/numfmt"
)

// ScalingPlotW and ScalingPlotH are the size of a scaling study's plot in
// pixels; the window scales it to fit.
const ScalingPlotW, ScalingPlotH = 1000, 580

// ScalingStudy computes a scaling study of trials and draws its plot
// (ScalingPlotW × ScalingPlotH pixels). It may take long: call it off the
// UI goroutine.
func ScalingStudy(trials []ScalingTrial, spec ScalingSpec, f numfmt.Format) (*ScalingReport, image.Image, error) {
	rep, err := newScalingReport(trials, spec, f)
	if err != nil {
		return nil, nil, err
	}
	c, err := rep.chart()
	if err != nil {
		return nil, nil, err
	}
	img, err := c.Image(ScalingPlotW, ScalingPlotH)
	return rep, img, err
}
