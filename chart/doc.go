// Package chart draws the plots of cubeview's analyses as images: scaling
// (speedup and efficiency against the ideal, log-2 axes), box plots of
// values across locations, and bar charts of the top call paths. It works
// on plain numbers, so the command line and a window can use it alike,
// and writes PNG or SVG on gonum.org/v1/plot.
package chart
