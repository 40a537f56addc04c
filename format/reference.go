package format

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"

	"cubeview/model"
)

// A ReferenceOpener reads the experiment a reference names, such as a
// trial of the experiment repository ("repo:17").
type ReferenceOpener func(ref string) (*model.Experiment, error)

var references struct {
	sync.RWMutex
	byPrefix map[string]ReferenceOpener
}

// RegisterReference makes Open read names that start with prefix through
// open instead of the file system, unless a file of that name exists. The
// application registers its schemes once at start-up.
func RegisterReference(prefix string, open ReferenceOpener) {
	references.Lock()
	defer references.Unlock()
	if references.byPrefix == nil {
		references.byPrefix = map[string]ReferenceOpener{}
	}
	references.byPrefix[prefix] = open
}

// IsReference reports whether name is read through a registered
// reference opener rather than as a file.
func IsReference(name string) bool {
	_, ok := referenceOpener(name)
	return ok
}

func referenceOpener(name string) (ReferenceOpener, bool) {
	references.RLock()
	defer references.RUnlock()
	for prefix, open := range references.byPrefix {
		if strings.HasPrefix(name, prefix) {
			if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
				return open, true
			}
		}
	}
	return nil, false
}
