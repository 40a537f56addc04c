// Package repo is the experiment repository (DESIGN §8): many runs of many
// programs, stored once in a relational database and found again by what
// they are and by what they measured.
//
// A repository lives in an embedded SQLite file (the default, see
// DefaultLocation) or in a PostgreSQL database named by a postgres:// URL.
// Runs are organised as application → experiment → trial. A trial keeps
// where it came from (source path, size, SHA-256, format, import time),
// typed attributes for filtering (the user's, the file's own and the
// process and thread counts), the definitions of its metrics, regions,
// call paths and system tree as rows, per metric the values of every call
// path and region over all locations (summaries) with their largest values
// per region kind (bounds), and each metric's values per location in
// bounded chunks, so that Open returns an experiment equal to the
// imported one, reading metric data chunk by chunk on first use.
//
// Searches (Find) take their candidate trials from the bounds, best first,
// and read the summaries only of trials that can hold a hit; a search for
// call paths holding at least 1% of their run (by their own values) reads
// only each trial's few hot call paths (table hot) and its call tree. User text
// never becomes SQL: filters and constraints are parsed here into
// parameterised queries.
//
// Safety: databases are marked (SQLite application id, a marker table)
// and others refused; only Init and the personal default location create
// one. Readers open read-only and never wait; an import writes in short
// transactions while its trial is invisible and appears whole; every
// stored blob carries a CRC-32C; a repository of an older schema is read
// read-only until Upgrade converts it.
package repo
