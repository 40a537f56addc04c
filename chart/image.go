package chart

import (
	"fmt"
	"image"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Image renders c as an image of width × height pixels, for a window to
// show.
func (c *Chart) Image(width, height int) (image.Image, error) {
	if width < 100 || height < 100 || width > 20000 || height > 20000 {
		return nil, fmt.Errorf("image size %d×%d: want 100 to 20000 pixels each way", width, height)
	}
	cv := vgimg.NewWith(vgimg.UseWH(pixels(width), pixels(height)), vgimg.UseDPI(DPI))
	c.draw(draw.New(cv))
	return cv.Image(), nil
}
