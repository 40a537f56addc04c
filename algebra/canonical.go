package algebra

import (
	"strings"
)

// CanonicalRegionName returns the canonical form of a region name, by
// which regions of different tools match when their names differ only in
// how each tool writes a function:
//
//   - a trailing source location in brackets is dropped: TAU's
//     "[{cpi.c} {20,1}-{60,1}]" and a load module such as HPCToolkit's
//     "[libmpi.so.40]" (the location belongs in the region's module and
//     lines);
//   - TAU's language marker " C" after a parameter list is dropped;
//   - a parameter list is dropped, with what follows it (const, noexcept,
//     …), and so is a return type before the name: "int main(int, char**)"
//     and "main()" are "main", "std::vector<int>::at(unsigned long) const"
//     is "std::vector<int>::at";
//   - the MPI profiling interface's name is the function's: "PMPI_Bcast"
//     is "MPI_Bcast" (a sampling tool sees the PMPI_ symbol that MPI_
//     aliases).
//
// Names are otherwise compared exactly, case included. The empty name and
// names in angle brackets ("<unknown procedure>") are their own canonical
// form.
func CanonicalRegionName(name string) string {
	s := canonicalDecorations(name)
	if rest, ok := strings.CutPrefix(s, "PMPI_"); ok && rest != "" {
		s = "MPI_" + rest
	}
	return s
}

// canonicalDecorations applies the rules of CanonicalRegionName other
// than the PMPI_ one.
func canonicalDecorations(name string) string {
	s := strings.TrimSpace(name)
	if s == "" || s[0] == '<' && s[len(s)-1] == '>' {
		return s
	}
	s = dropBracketSuffix(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, " C"))
	return dropParameters(s)
}

// dropBracketSuffix removes a trailing " [...]" group: TAU's source
// location or a load module.
func dropBracketSuffix(s string) string {
	if !strings.HasSuffix(s, "]") {
		return s
	}
	i := strings.LastIndex(s, " [")
	if i <= 0 {
		return s
	}
	inner := s[i+2 : len(s)-1]
	if inner == "" || strings.Contains(inner, "]") && !strings.HasPrefix(inner, "{") {
		return s
	}
	return strings.TrimSpace(s[:i])
}

// dropParameters removes a C/C++ parameter list and anything after it,
// and a return type before the function name. A name without a
// parameter list is returned unchanged.
func dropParameters(s string) string {
	open := parameterListStart(s)
	if open <= 0 {
		return s
	}
	head := strings.TrimSpace(s[:open])
	// The function name is the last word outside template brackets; what
	// comes before it is a return type or a qualifier.
	depth := 0
	for i := len(head) - 1; i >= 0; i-- {
		switch head[i] {
		case '>':
			depth++
		case '<':
			depth--
		case ' ', '\t', '*', '&':
			if depth == 0 && !strings.HasSuffix(head[:i+1], "operator ") {
				if name := head[i+1:]; name != "" {
					return name
				}
			}
		}
	}
	return head
}

// parameterListStart returns the index of the '(' that opens the
// parameter list of a function signature: the outermost parenthesis
// group whose ')' is the last one in s and which is followed only by
// qualifiers (const, volatile, noexcept, &, &&, override). It returns -1
// when there is none. "operator()" is a name, not a parameter list.
func parameterListStart(s string) int {
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return -1
	}
	for _, w := range strings.Fields(s[end+1:]) {
		switch strings.TrimRight(w, "&") {
		case "", "const", "volatile", "noexcept", "override", "final":
		default:
			return -1
		}
	}
	depth := 0
	for i := end; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				if strings.HasSuffix(strings.TrimSpace(s[:i]), "operator") {
					return -1
				}
				return i
			}
		}
	}
	return -1
}
