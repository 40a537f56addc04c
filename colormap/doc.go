// Package colormap turns severity values into colours the way the CUBE
// browser ranks them: the magnitude of a value, relative to a scale
// maximum, picks a colour on a blue → cyan → green → yellow → red spectrum;
// exact zero and undefined values are white and values outside a
// user-chosen range are gray. The sign of a value is not a colour but a
// Relief (raised for positive, sunken for negative), so that negative
// values of derived experiments stay readable on the same scale. A
// Diverging scale ranks negative and positive values symmetrically around
// a white zero instead.
//
// The package is pure colour arithmetic on image/color and knows nothing
// about any user-interface toolkit.
package colormap
