// Package form is the model of a dialog that asks for values: a Form of
// Fields (text, choice, radio, check, list, note and combo fields) with
// validation, a Changed hook through which one field's value updates the
// others (previews, offered options), and Submit. It holds no widgets;
// the ui package shows a Form and mirrors its fields, so that every
// dialog's logic is tested without a window. ErrorText words an error as
// a dialog shows it.
//
// It imports nothing of cubeview: the packages that build forms (view,
// analysisview, sourcepanel, repoview) depend on it, not the other way.
package form
