package repo

import (
	"context"

	"cubeview/format"
)

// Export writes trial id to path in the format its extension names (see
// format.Write), through a temporary file.
func (r *Repo) Export(ctx context.Context, id int64, path string) error {
	e, err := r.Open(ctx, id)
	if err != nil {
		return err
	}
	return format.Write(path, e)
}
