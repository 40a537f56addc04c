// Package launch reads the GUI's command line: the experiment files to
// open, an algebra expression whose result opens (--calc), the
// repository (--repo, --repository), and what a --snapshot renders
// (size, selected metric and call path, expanded system tree, flat
// profile, hottest path, source panel, system pane mode and cluster).
// Args.Select applies the selections to a window's view.
package launch
