package algebra

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// SystemMode chooses how the machine/node hierarchy of a result is built.
type SystemMode uint8

const (
	// SystemAuto copies the hierarchy of an operand when the process
	// partitionings are compatible and collapses it otherwise.
	SystemAuto SystemMode = iota
	// SystemCopy always copies the hierarchy of an operand, even when the
	// partitionings are incompatible.
	SystemCopy
	// SystemCollapse always builds one machine with one node holding all
	// processes.
	SystemCollapse
)

// String returns "auto", "copy" or "collapse".
func (m SystemMode) String() string {
	switch m {
	case SystemCopy:
		return "copy"
	case SystemCollapse:
		return "collapse"
	}
	return "auto"
}

// Options control how operands are integrated.
type Options struct {
	System SystemMode
	// StrictLines also compares region begin and end lines when matching
	// regions, and call-site file and line when matching call-tree nodes.
	// By default they are ignored, since lines shift between code versions.
	StrictLines bool
	// StrictRoots keeps call-tree roots with different regions apart. By
	// default, when every operand has a single root, the roots match
	// whatever their regions are called: Score-P names the root after the
	// executable, so two builds of one program would share nothing.
	StrictRoots bool
	// Renames rename regions of every operand before matching, in order,
	// for functions renamed between versions.
	Renames []Rename
	// PreferLast makes a merge take a value shared by several operands
	// from the last operand that has it (CubeLib's cube_merge: a later
	// operand's row of a metric replaces an earlier one's) instead of the
	// first operand that has the metric.
	PreferLast bool
	// MetricMaps make metrics of one meaning count as another's when
	// matching (sampled CPU time as wall-clock time: "CPUTIME=time");
	// the first rule that names a metric applies.
	MetricMaps []MetricMap
}

// Rename is a region renaming rule: a region whose whole name matches the
// regular expression From is called To, in which $1, ${name} … stand for
// the submatches.
type Rename struct {
	From string
	To   string
	re   *regexp.Regexp
}

// ParseRename reads a rule "OLD=NEW": OLD is a regular expression that
// must match a whole region name, NEW its replacement. The first '=' not
// preceded by a backslash separates them (write \= for a '=' in OLD).
func ParseRename(s string) (Rename, error) {
	sep := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '=' {
			sep = i
			break
		}
	}
	if sep <= 0 {
		return Rename{}, fmt.Errorf("rename rule %q: want OLD=NEW", s)
	}
	return NewRename(s[:sep], s[sep+1:])
}

// NewRename returns the rule renaming regions whose whole name matches the
// regular expression from to to.
func NewRename(from, to string) (Rename, error) {
	re, err := regexp.Compile(`^(?:` + from + `)$`)
	if err != nil {
		return Rename{}, fmt.Errorf("rename rule %q: %w", from+"="+to, err)
	}
	return Rename{From: from, To: to, re: re}, nil
}

// Apply returns name renamed by the rule, and whether the rule matched.
func (r Rename) Apply(name string) (string, bool) {
	if r.re == nil {
		nr, err := NewRename(r.From, r.To)
		if err != nil {
			return name, false
		}
		r = nr
	}
	m := r.re.FindStringSubmatchIndex(name)
	if m == nil {
		return name, false
	}
	return string(r.re.ExpandString(nil, r.To, name, m)), true
}

// String renders the rule as ParseRename reads it.
func (r Rename) String() string {
	var b strings.Builder
	for i := 0; i < len(r.From); i++ {
		switch c := r.From[i]; {
		case c == '\\' && i+1 < len(r.From):
			b.WriteByte(c)
			i++
			b.WriteByte(r.From[i])
		case c == '=':
			b.WriteString(`\=`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String() + "=" + r.To
}

// renameRegion applies the rules in order to a region name.
func (o Options) renameRegion(name string) string {
	for _, r := range o.Renames {
		name, _ = r.Apply(name)
	}
	return name
}

// String renders the options as recorded in a result's attributes: the
// settings that are not the default, then each rename rule quoted.
func (o Options) String() string {
	s := fmt.Sprintf("system=%s;strict-lines=%t", o.System, o.StrictLines)
	if o.StrictRoots {
		s += ";strict-roots=true"
	}
	if o.PreferLast {
		s += ";prefer=last"
	}
	for _, r := range o.Renames {
		s += ";rename=" + strconv.Quote(r.String())
	}
	for _, r := range o.MetricMaps {
		s += ";map-metric=" + strconv.Quote(r.String())
	}
	return s
}

// ParseOptions reads Options.String.
func ParseOptions(s string) (Options, error) {
	var o Options
	for rest := s; rest != ""; {
		k, v, ok := strings.Cut(rest, "=")
		if !ok {
			return Options{}, fmt.Errorf("options %q: field %q without a value", s, rest)
		}
		rest = ""
		if strings.HasPrefix(v, `"`) {
			q, err := strconv.QuotedPrefix(v)
			if err != nil {
				return Options{}, fmt.Errorf("options %q: bad quoted value of %s", s, k)
			}
			tail := v[len(q):]
			if tail != "" && tail[0] != ';' {
				return Options{}, fmt.Errorf("options %q: text after the quoted value of %s", s, k)
			}
			rest = strings.TrimPrefix(tail, ";")
			v, _ = strconv.Unquote(q)
		} else if i := strings.IndexByte(v, ';'); i >= 0 {
			v, rest = v[:i], v[i+1:]
		}
		switch k {
		case "system":
			switch v {
			case "auto":
				o.System = SystemAuto
			case "copy":
				o.System = SystemCopy
			case "collapse":
				o.System = SystemCollapse
			default:
				return Options{}, fmt.Errorf("options %q: unknown system mode %q", s, v)
			}
		case "strict-lines", "strict-roots":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return Options{}, fmt.Errorf("options %q: bad %s %q", s, k, v)
			}
			if k == "strict-lines" {
				o.StrictLines = b
			} else {
				o.StrictRoots = b
			}
		case "prefer":
			switch v {
			case "first":
				o.PreferLast = false
			case "last":
				o.PreferLast = true
			default:
				return Options{}, fmt.Errorf("options %q: prefer %q: want first or last", s, v)
			}
		case "rename":
			r, err := ParseRename(v)
			if err != nil {
				return Options{}, fmt.Errorf("options %q: %w", s, err)
			}
			o.Renames = append(o.Renames, r)
		case "map-metric":
			r, err := ParseMetricMap(v)
			if err != nil {
				return Options{}, fmt.Errorf("options %q: %w", s, err)
			}
			o.MetricMaps = append(o.MetricMaps, r)
		default:
			return Options{}, fmt.Errorf("options %q: unknown field %q", s, k)
		}
	}
	return o, nil
}
