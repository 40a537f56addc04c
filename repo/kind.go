package repo

import (
	"strings"

	"cubeview/model"
)

// RegionKind classifies a region for searches: "mpi", "omp", "user",
// "pthread", "cuda", … from its paradigm, or from its name when the file
// records no paradigm (CUBE 3: MPI_ functions, !$omp constructs).
func RegionKind(r *model.Region) string {
	p := strings.ToLower(strings.TrimSpace(r.Paradigm))
	switch p {
	case "openmp", "omp":
		return "omp"
	case "compiler", "user", "":
	case "unknown":
		p = ""
	default:
		return p
	}
	name := strings.TrimSpace(r.Name)
	switch {
	case strings.HasPrefix(name, "MPI_") || strings.HasPrefix(name, "mpi_"):
		return "mpi"
	case strings.HasPrefix(strings.ToLower(name), "!$omp"):
		return "omp"
	}
	return "user"
}
