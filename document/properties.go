package document

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
	"cubeview/view"
)

// Properties describes doc as File › Properties shows it: for a derived
// experiment the expression, the integration options and each operand
// with path, size and checksum; for an original the file, format and
// creator; for both the sizes of the three dimensions.
func Properties(doc *Doc) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	e := doc.Exp
	prov, derived, provErr := algebra.ReadProvenance(e)
	if derived {
		name := doc.Expression
		if name == "" {
			name = prov.Expression
		}
		p("Derived experiment\n")
		p("Expression:   %s\n", name)
		p("Recorded as:  %s\n", prov.Expression)
		if prov.Options != "" {
			p("Options:      %s\n", wrapText(describeOptions(prov.Options), propertiesWidth-14, strings.Repeat(" ", 14)))
		}
		if prov.Roots != "" {
			p("Roots:        %s\n", wrapText(prov.Roots, propertiesWidth-14, strings.Repeat(" ", 14)))
		}
		for i, s := range prov.Matching {
			label := "              "
			if i == 0 {
				label = "Matching:     "
			}
			p("%s%s\n", label, wrapText(s, propertiesWidth-14, strings.Repeat(" ", 14)))
		}
		if prov.System != "" {
			p("System tree:  %s\n", wrapText(prov.System, propertiesWidth-14, strings.Repeat(" ", 14)))
		}
		if doc.Path != "" {
			p("Saved as:     %s%s\n", doc.Path, fileSize(doc.Path))
		} else {
			p("Saved as:     not saved (File › Save as… keeps this provenance)\n")
		}
		if provErr != nil {
			p("Provenance:   damaged: %v\n", provErr)
		}
		p("\nOperands (in the order of the expression):\n")
		names := doc.Operands
		if len(names) != len(prov.Operands) {
			names = nil
		}
		for i, o := range prov.Operands {
			label := ""
			if names != nil {
				label = names[i] + " — "
			}
			if o.Path == "" {
				p("  %d. %sderived, not saved: %s\n", i+1, label, o.Expression)
				continue
			}
			if o.Directory {
				p("  %d. %sfolder %s\n     (a directory a reader accepts; no size or checksum recorded)\n", i+1, label, o.Path)
				continue
			}
			p("  %d. %s%s\n", i+1, label, o.Path)
			p("     size %s bytes\n     SHA-256 %s\n", GroupDigits(o.Size), o.SHA256)
		}
	} else {
		if doc.Path != "" {
			p("File:         %s%s\n", doc.Path, fileSize(doc.Path))
		} else {
			p("Name:         %s\n", doc.Name)
		}
		creator, _ := e.Attr("Creator")
		p("Format:       %s\n", orDash(e.Format))
		p("Creator:      %s\n", orDash(creator))
	}
	processes := 0
	for i := range e.System {
		if e.System[i].Kind == model.Group {
			processes++
		}
	}
	p("\nContents:     %s, %s, %s (%s), %s, %s\n", view.Count(len(e.Metrics), "metric"), view.Count(len(e.Regions), "region"),
		view.Count(len(e.Cnodes), "call path"), view.Count(len(e.CnodeRoots), "root"), view.Count(processes, "process"),
		view.Count(len(e.Locations), "location"))
	if n := len(doc.Operands); n > 1 {
		all := model.Mask(1)<<uint(n) - 1
		count := func(k int, mask func(int) model.Mask) int {
			c := 0
			for i := 0; i < k; i++ {
				if m := mask(i) & all; m != 0 && m != all {
					c++
				}
			}
			return c
		}
		p("Not in every operand: %d of %d metrics, %d of %d call paths, %d of %d locations (marked in the panes)\n",
			count(len(e.Metrics), func(i int) model.Mask { return e.Metrics[i].Present }), len(e.Metrics),
			count(len(e.Cnodes), func(i int) model.Mask { return e.Cnodes[i].Present }), len(e.Cnodes),
			count(len(e.Locations), func(i int) model.Mask { return e.Location(i).Present }), len(e.Locations))
	}
	if len(e.Warnings) > 0 {
		p("\nWarnings of the reader (what it tolerated in the input):\n")
		for _, w := range e.Warnings {
			p("  %s\n", wrapText(w, propertiesWidth-2, "    "))
		}
	}
	var attrs []string
	for _, a := range e.Attrs {
		if !strings.HasPrefix(a.Key, "cubeview::") && a.Key != "Creator" {
			attrs = append(attrs, fmt.Sprintf("  %s = %s", a.Key, a.Value))
		}
	}
	if len(attrs) > 0 {
		p("\nAttributes:\n%s\n", strings.Join(attrs, "\n"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// propertiesWidth is the line length the properties text is wrapped to.
const propertiesWidth = 90

// wrapText breaks s into lines of at most width characters at spaces,
// starting each continuation line with indent.
func wrapText(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = word
			continue
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n"+indent)
}

// describeOptions renders recorded options
// ("system=auto;strict-lines=false;rename=\"a=b\"") in words; options it
// cannot read as they are.
func describeOptions(s string) string {
	o, err := algebra.ParseOptions(s)
	if err != nil {
		return s
	}
	name := map[algebra.SystemMode]string{algebra.SystemAuto: "automatic", algebra.SystemCopy: "copy", algebra.SystemCollapse: "collapse"}[o.System]
	out := []string{"system tree " + name}
	if o.StrictLines {
		out = append(out, "strict line matching")
	} else {
		out = append(out, "lines ignored when matching")
	}
	if o.StrictRoots {
		out = append(out, "roots of different names kept apart")
	}
	for _, r := range o.Renames {
		out = append(out, fmt.Sprintf("regions %q renamed to %q", r.From, r.To))
	}
	for _, r := range o.MetricMaps {
		out = append(out, fmt.Sprintf("metric %q compared as %q", r.From, r.To))
	}
	return strings.Join(out, ", ")
}

func fileSize(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return " (" + GroupDigits(fi.Size()) + " bytes)"
}

// GroupDigits writes n with thousands separators.
func GroupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
