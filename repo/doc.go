// Package repo is the experiment repository (DESIGN §8): many runs of many
// programs, stored once in a relational database and found again by what
// they are and by what they measured.
//
// A repository lives in an embedded SQLite file (the default, see
// DefaultLocation) or in a PostgreSQL database named by a postgres:// URL.
// Runs are organised as application → experiment → trial. A trial keeps
// where it came from (source path, size, SHA-256, format, import time), typed
// attributes for filtering (the user's, the file's own and the process and
// thread counts), the definitions of its metrics, regions, call paths and
// system tree as rows, per (metric, call path) summaries across locations
// that searches run on in SQL, per (metric, location) totals, and each
// metric's full data as one compressed block, so that Open returns an
// experiment equal to the imported one, loading metric data on first use.
//
// User text never becomes SQL: filters are parsed here into parameterised
// queries. Imports are single transactions, so a failed or killed import
// leaves the repository as it was.
package repo
