package callgrind

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestPlainCostLinesMatchGeneral: the one-pass reader of common cost lines
// gives the experiment (or the error) of the general reader, on the real
// samples, a generated file and lines that leave its fast path.
func TestPlainCostLinesMatchGeneral(t *testing.T) {
	inputs := map[string][]byte{}
	for _, f := range realFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	var gen bytes.Buffer
	if err := generate(&gen, 200<<10); err != nil {
		t.Fatal(err)
	}
	inputs["generated"] = gen.Bytes()
	head := "events: A B C\npositions: instr line\nfl=f.c\nfn=main\n"
	for i, body := range []string{
		"0x10 3 1 2 3\n+2 -1 4\n* * 5 6\n+1 +1\n+1 +1 \n-1 * 7  8\n",
		"16 3 1 2 3\n+0x2 1 4\n+2\t+1 5\n+2 +1 1\t2\n",
		"1 2 12345678901234567890 1\n1 2 123456789012345678 1\n",
		"1 2 1 2 3 4\n", // more costs than events
		"1 2 x\n",       // malformed cost
		"1 +99999999999999999999999 1\n",
		"fn=g\ncfn=main\ncalls=2 5\n+1 * 10 20 30\n* +1 1 1 1\n",
		"0x10 3 1 2 3\r\n+2 -1 4\r\n+1 +1 5\n\n# c\n+1 +1 6", // no end of line at the end
	} {
		inputs["case"+string(rune('0'+i))] = []byte(head + body)
	}
	dump := func(e *model.Experiment, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		if err := e.Dump(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for name, data := range inputs {
		plainCostLines = true
		fast := dump(Parse(bytes.NewReader(data), name, importer.Options{}))
		plainCostLines = false
		general := dump(Parse(bytes.NewReader(data), name, importer.Options{}))
		plainCostLines = true
		if d := testkit.Diff(general, fast); d != "" {
			t.Errorf("%s: the one-pass reader differs from the general one:\n%s", name, d)
		}
	}
}
