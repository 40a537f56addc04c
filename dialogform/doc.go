// Package dialogform holds what the dialogs of an experiment window ask
// and check, each as a form.Form the ui package draws: the algebra
// operations over open experiments (OperationForm: operands, matching
// options, renaming rules and metric mappings, the preview of the
// result), a derived metric (DerivedForm) and a metric's thresholds
// (ThresholdsForm), the external reference (ReferenceForm), the memory
// budget (MemoryForm), Open, Save as (SaveForm, with the question to ask
// before replacing a file or an input of the experiment) and Export
// (ExportForm, ExportName), and the metric choice that several dialogs
// share (MetricChoice).
//
// A form checks its fields as they are typed and hands its result to a
// function of the caller; the work itself (reading, the algebra, saving)
// is document's and the ui's. It imports no user-interface toolkit; its
// tests run without one.
package dialogform
