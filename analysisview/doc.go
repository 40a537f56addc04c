// Package analysisview is what the windows show of the analyses of the
// analysis package: the performance difference of two experiments
// (Algebra › Where did it change…: its form, its background run and
// the table of differing foci, each of which selects its metric, call
// path and system node in a window), the scaling study of several
// experiments (Algebra › Scaling…: form, table, plot) and the
// statistics of the selected values across locations (View ›
// Statistics: a panel that follows a window's selection and draws box
// plots in the background), the comparison of groups of runs (Algebra ›
// Compare groups of runs…), and the views of a window's call tree and
// locations beside its panes: callers and callees (CallGraph), the
// bottom-up view (BottomUp: every region, below it the regions that
// called it), the per-location chart of the selection (LocationChart),
// the topology view (Topology: the locations on the grid of a
// Cartesian topology, coloured as the system pane) and the clusters of
// locations (ClusterPanel: k-means of the locations' values, a row per
// cluster that selects it as a whole).
//
// Reports are plain tables of text and sort keys (TableSort orders them)
// and images; the ui package draws them. It imports no user-interface
// toolkit; its tests run without one.
package analysisview
