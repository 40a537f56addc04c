package flagargs

import (
	"errors"
	"flag"
	"io"
)

// New returns a flag set that reports errors through Parse's result only,
// so that the caller decides what reaches the user.
func New(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// Parse parses args with fs, allowing flags before, between and after the
// positional arguments, which it returns in order. Everything after a "--"
// argument is positional. -h and -help yield flag.ErrHelp.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return pos, nil
}

// IsHelp reports whether err asks for help (-h, -help).
func IsHelp(err error) bool { return errors.Is(err, flag.ErrHelp) }
