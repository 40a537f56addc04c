package sourceview

import (
	"context"

	"cubeview/model"
)

// Source is a highlighted source file.
type Source struct {
	Recorded string // the path as the experiment records it
	Path     string // the file read
	Lexer    string // name of the chroma lexer used
	Lines    []Line
}

// Open finds the file recorded as recorded with r (the path as recorded
// when r is nil), reads it with Read and a limit of DefaultMaxSize, and
// highlights it. Errors name the file and say why it cannot be shown;
// a missing file yields an error wrapping ErrNotFound.
func Open(ctx context.Context, r *Resolver, recorded string) (*Source, error) {
	if r == nil {
		r = &Resolver{}
	}
	path, err := r.Resolve(recorded)
	if err != nil {
		return nil, err
	}
	text, err := Read(path, DefaultMaxSize)
	if err != nil {
		return nil, err
	}
	lines, lexer, err := Highlight(ctx, path, text)
	if err != nil {
		return nil, err
	}
	return &Source{Recorded: recorded, Path: path, Lexer: lexer, Lines: lines}, nil
}

// Annotate sets the annotations of s's lines from e and v, see Annotate.
func (s *Source) Annotate(e *model.Experiment, v Values) (dropped int) {
	return Annotate(s.Lines, e, s.Recorded, v)
}
