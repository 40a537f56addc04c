// Package ui is cubeview's graphical interface, built with Fyne: one window
// per experiment with three linked tree panes (metrics, call paths, system
// locations), value modes, a colour legend and the algebra menu. It
// receives its fyne.App from the main package.
package ui
