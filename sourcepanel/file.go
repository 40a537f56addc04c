package sourcepanel

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"

	"cubeview/sourceview"
)

// Source loading tuning.
const (
	// smallSource is the number of lines up to which a file is highlighted
	// completely before it is shown (a few tenths of a second at most).
	smallSource = 4000
	// previewAfter and previewBefore are the lines highlighted at once
	// after and before the line the lexer starts at in a larger file; the
	// whole file follows in the background.
	previewAfter  = 300
	previewBefore = 60
	// cachedSources is the number of highlighted files a cache keeps.
	cachedSources = 6
)

// File is a file read and highlighted, completely (Exact) or around
// a target only.
type File struct {
	Path  string // the file read
	Lexer string
	Lines []sourceview.Line
	Exact bool // Highlight's result for the whole file
	size  int64
	mod   time.Time
}

// cache keeps the last files highlighted completely; it is safe for
// concurrent use.
type cache struct {
	mu    sync.Mutex
	files []*File // most recent last
}

// get returns the cached file path when it is unchanged since it was read.
func (c *cache) get(path string, st os.FileInfo) *File {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, f := range c.files {
		if f.Path == path && f.size == st.Size() && f.mod.Equal(st.ModTime()) {
			c.files = append(append(c.files[:i:i], c.files[i+1:]...), f)
			return f
		}
	}
	return nil
}

func (c *cache) put(f *File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, old := range c.files {
		if old.Path == f.Path {
			c.files = append(c.files[:i:i], c.files[i+1:]...)
			break
		}
	}
	c.files = append(c.files, f)
	if len(c.files) > cachedSources {
		c.files = c.files[len(c.files)-cachedSources:]
	}
}

// loaded is the result of load.
type loaded struct {
	File *File
	Text string // the text to highlight completely (highlightAll) when File is not exact
	Err  error
}

// load finds, reads and highlights the file of t: completely when
// it is small, else the lines around t (exact from t.LexFrom in most
// languages) with the rest as plain text. It may take long: call it off
// the UI goroutine.
func load(ctx context.Context, r *sourceview.Resolver, t Target, cache *cache) loaded {
	path, err := r.Resolve(t.File)
	if err != nil {
		return loaded{Err: err}
	}
	st, err := os.Stat(path)
	if err != nil {
		return loaded{Err: err}
	}
	if f := cache.get(path, st); f != nil {
		return loaded{File: f}
	}
	text, err := sourceview.Read(path, 0)
	if err != nil {
		return loaded{Err: err}
	}
	f := &File{Path: path, size: st.Size(), mod: st.ModTime()}
	if strings.Count(text, "\n") < smallSource {
		f.Lines, f.Lexer, err = sourceview.Highlight(ctx, path, text)
		if err != nil {
			return loaded{Err: err}
		}
		f.Exact = true
		cache.put(f)
		return loaded{File: f}
	}
	f.Lines = sourceview.SplitLines(text)
	from := max(t.LexFrom, 1)
	last := max(from, t.Focus, t.End) + previewAfter
	last = min(last, from+10*previewAfter) // a huge region: its start is what shows
	for _, r := range [][2]int{{from - previewBefore, from - 1}, {from, last}} {
		part, lexer, err := sourceview.HighlightPart(ctx, path, text, r[0], r[1])
		if err != nil {
			return loaded{Err: err}
		}
		if len(part) > 0 {
			copy(f.Lines[part[0].Number-1:], part)
		}
		f.Lexer = lexer
	}
	return loaded{File: f, Text: text}
}

// highlightAll highlights the whole file of l, a load that is not exact,
// and caches the result; nil when that fails or ctx is cancelled. It may
// take long: call it off the UI goroutine.
func highlightAll(ctx context.Context, l loaded, cache *cache) *File {
	part := l.File
	lines, lexer, err := sourceview.Highlight(ctx, part.Path, l.Text)
	if err != nil {
		return nil
	}
	full := &File{Path: part.Path, Lexer: lexer, Lines: lines, Exact: true, size: part.size, mod: part.mod}
	cache.put(full)
	return full
}
