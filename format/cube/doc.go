// Package cube reads and writes experiments in the file formats of the
// CUBE tools: CUBE 2 and CUBE 3 XML (.cube, optionally gzip-compressed)
// and CUBE 4 .cubex archives.
//
// Reading produces a model.Experiment in canonical storage (inclusive
// along the metric tree, exclusive along the call tree, per location),
// whatever the file held. An XML file is read in one pass by a streaming
// scanner that builds no element tree: the metadata go straight into the
// experiment, the severity section into one data block per metric. A
// .cubex archive is indexed on open and each metric's data member is
// decoded on first use (model.Loader); a metric larger than the memory
// budget (model.MemoryBudget) stays in the file and its rows are read on
// demand, and rows can be streamed in one pass without building a block
// (model.RowStreamer, RowOpener, RowBatchStreamer) for the summaries of
// big metrics and the algebra's row-by-row results. Its anchor.xml is read
// by the same XML reader.
//
// Metrics without values stay in the experiment with Metric.Unavailable
// saying why: derived metrics (their CubePL definitions are kept, not
// evaluated), data types that are not a single number (COMPLEX, RATE,
// NDOUBLES(n), HISTOGRAM(n), SCALE_FUNC, TAU_ATOMIC, …) and metrics marked
// VOID, whose values are ignored as the CUBE tools do.
//
// Unsigned counters are read as CubeLib reads them, which pycubexr
// reproduces. A UINT64 word above 0xFFFFFFFFFFFFFBFF — in practice the
// "all ones" 0xFFFFFFFFFFFFFFFF a PAPI counter leaves when a reading went
// backwards — does not survive CubeLib's conversion to a double and reads
// as 0. A metric stored call-tree INCLUSIVE in an unsigned type gets own
// values = stored value − the children's stored values, negative where
// the children hold more than the parent (a counter read out of order),
// so that every inclusive value is the stored one, as CubeLib shows it.
// Written back, such a metric is stored INCLUSIVE again (its own values do
// not fit the type, its inclusive ones do), and a write → read round trip
// is stable. The
// members of a written .cubex carry a fixed time, so the same experiment
// always gives the same bytes.
//
// A MINDOUBLE or MAXDOUBLE metric stored call-tree INCLUSIVE keeps the
// stored values as they are: its inclusive values (the minimum or maximum
// over a subtree) are exact, but where a callee holds the extreme the file
// does not tell the caller's own value, which then reads as the stored one
// or 0. Writing keeps such metrics EXCLUSIVE, so files written here keep
// both.
//
// Double values may be NaN or infinite; they are read, kept and written as
// CubeLib does. The values of a .data row belong to the locations with
// Ids 0…L−1 in that order; an anchor.xml with other location Ids is an
// error naming them, never values on the wrong location. A .cubex that
// can only be read as a stream (gzip-compressed) is read in one pass by
// ReadCubexStream, which keeps the members it uses in an unnamed
// temporary file and skips the others.
//
// Writing produces CUBE 3.0 XML, which both CUBE 3 and CubeLib 4 read, or
// a CUBE 4 .cubex archive. Whatever the target format cannot express
// natively — CUBE 4 metric types and CubePL definitions, region and call
// path details, free system-tree classes, location ids, the operand masks
// and flags of derived experiments — travels in top-level attributes
// <attr key="cubeview::KIND::ID" value="JSON"/>. The original tools show
// them as plain attributes; this package decodes and removes them again,
// so that a write and a read give back the same experiment. XML attributes
// of CUBE elements that the model has no field for are kept as attributes
// under reserved keys starting with "cube::" (the dimension titles, for
// example "cube::metrics title").
//
// A CUBE 3 file can only hold a system tree of machines, nodes, processes
// and threads; other trees must be written as .cubex.
package cube
