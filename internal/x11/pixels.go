package x11

import (
	"image"
	"math/bits"
)

// pixelFormat is where an X image keeps red, green and blue in a pixel.
type pixelFormat struct{ red, green, blue uint32 }

// toNRGBA converts w×h pixels, row by row, to an opaque image with 8 bits
// per channel.
func toNRGBA(pix []uint32, w, h int, f pixelFormat) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i, p := range pix[:w*h] {
		o := img.Pix[4*i : 4*i+4 : 4*i+4]
		o[0], o[1], o[2], o[3] = channel(p, f.red), channel(p, f.green), channel(p, f.blue), 255
	}
	return img
}

// channel returns the channel of p under mask, scaled to 0…255.
func channel(p, mask uint32) uint8 {
	if mask == 0 {
		return 0
	}
	s := bits.TrailingZeros32(mask)
	m := uint64(mask >> s)
	return uint8((uint64(p>>s) & m) * 255 / m)
}
