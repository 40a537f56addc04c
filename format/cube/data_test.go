package cube

import (
	"archive/tar"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

func TestDecodeValuesEveryType(t *testing.T) {
	le, be := binary.LittleEndian, binary.BigEndian
	f64 := func(o byteOrder, vs ...float64) []byte {
		var b []byte
		for _, v := range vs {
			b = o.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	tests := []struct {
		dtype model.DataType
		order byteOrder
		raw   []byte
		want  []float64
	}{
		{"DOUBLE", le, f64(le, 1.5, -2.25e10, 0), []float64{1.5, -2.25e10, 0}},
		{"FLOAT", be, f64(be, 3.125), []float64{3.125}},
		{"MINDOUBLE", le, f64(le, math.MaxFloat64), []float64{math.MaxFloat64}},
		{"MAXDOUBLE", le, f64(le, -math.MaxFloat64), []float64{-math.MaxFloat64}},
		{"INT64", le, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []float64{-2}},
		{"INTEGER", be, []byte{0, 0, 0, 0, 0, 0, 1, 0}, []float64{256}},
		{"UINT64", le, []byte{7, 0, 0, 0, 0, 0, 0, 0}, []float64{7}},
		// As in CubeLib: words above 0xFFFFFFFFFFFFFBFF (wrapped counters,
		// "all ones") read as 0, smaller ones as unsigned numbers.
		{"UINT64", le, le.AppendUint64(le.AppendUint64(le.AppendUint64(le.AppendUint64(le.AppendUint64(nil,
			math.MaxUint64), math.MaxUint64-6), 0xFFFF_FFFF_FFFF_FC00), 0xFFFF_FFFF_FFFF_FBFF), 1<<63),
			[]float64{0, 0, 0, 18446744073709549568, 9223372036854775808}},
		{"UNSIGNED INTEGER", be, []byte{0, 0, 0, 0, 0, 0, 0x10, 0}, []float64{4096}},
		{"INT32", le, []byte{0xff, 0xff, 0xff, 0xff, 5, 0, 0, 0}, []float64{-1, 5}},
		{"UINT32", le, []byte{0xff, 0xff, 0xff, 0xff}, []float64{4294967295}},
		{"INT16", be, []byte{0x80, 0x00}, []float64{-32768}},
		{"UINT16", le, []byte{0xff, 0xff}, []float64{65535}},
		{"INT8", le, []byte{0x80, 0x7f}, []float64{-128, 127}},
		{"UINT8", le, []byte{0xff, 1}, []float64{255, 1}},
		{"CHAR", le, []byte{200}, []float64{200}},
		{"unsigned short int", le, []byte{2, 1}, []float64{258}},
	}
	for _, tt := range tests {
		kind, ok := scalarTypeOf(tt.dtype)
		if !ok {
			t.Errorf("%s: not recognised", tt.dtype)
			continue
		}
		got := make([]float64, len(tt.want))
		decodeValues(got, tt.raw, kind, tt.order)
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s value %d = %v, want %v", tt.dtype, i, got[i], tt.want[i])
			}
		}
	}
	for _, dtype := range []model.DataType{"COMPLEX", "RATE", "NDOUBLES(10)", "HISTOGRAM(5)", "SCALE_FUNC", "TAU_ATOMIC", ""} {
		if _, ok := scalarTypeOf(dtype); ok {
			t.Errorf("%q taken for a single number", dtype)
		}
	}
}

func TestParseIndex(t *testing.T) {
	hdr := func(o byteOrder, format byte) []byte {
		b := append([]byte(indexMarker), o.AppendUint32(nil, 1)...)
		return append(o.AppendUint16(b, 0), format)
	}
	sparse := func(o byteOrder, pos ...uint32) []byte {
		b := o.AppendUint32(hdr(o, 1), uint32(len(pos)))
		for _, p := range pos {
			b = o.AppendUint32(b, p)
		}
		return b
	}
	le, be := binary.LittleEndian, binary.BigEndian
	tests := []struct {
		name    string
		raw     []byte
		want    []uint32
		dense   bool
		wantErr string
	}{
		{name: "sparse", raw: sparse(le, 0, 3, 4), want: []uint32{0, 3, 4}},
		{name: "sparse big endian", raw: sparse(be, 1, 2), want: []uint32{1, 2}},
		{name: "header only", raw: hdr(le, 1), want: []uint32{}},
		{name: "dense", raw: hdr(be, 3), dense: true},
		{name: "bad marker", raw: append([]byte("CUBEX.INDEY"), sparse(le)[11:]...), wantErr: "CUBEX.INDEX"},
		{name: "bad probe", raw: append(append([]byte(indexMarker), 2, 0, 0, 0), sparse(le)[15:]...), wantErr: "endianness"},
		{name: "unknown format", raw: hdr(le, 2), wantErr: "format 2"},
		{name: "size mismatch", raw: sparse(le, 1, 2)[:28], wantErr: "needs 30 bytes"},
		{name: "position out of range", raw: sparse(le, 9), wantErr: "outside"},
		{name: "repeated position", raw: sparse(le, 2, 2), wantErr: "repeats"},
		{name: "dense with trailer", raw: append(hdr(le, 3), 0), wantErr: "dense index"},
	}
	for _, tt := range tests {
		x, err := parseIndex(tt.raw, 5)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if x.dense != tt.dense || len(x.positions) != len(tt.want) {
			t.Errorf("%s: got dense=%v positions %v", tt.name, x.dense, x.positions)
			continue
		}
		for i := range tt.want {
			if x.positions[i] != tt.want[i] {
				t.Errorf("%s: positions %v, want %v", tt.name, x.positions, tt.want)
			}
		}
	}
}

// smallExperiment is a one-metric experiment: cnodes 0 → {1 → {3}, 2}, two locations.
func smallExperiment(dtype model.DataType, typ model.MetricType) *model.Experiment {
	e := &model.Experiment{
		Metrics: []model.Metric{{ID: 0, UniqName: "m", DataType: dtype, Type: typ, Parent: -1, Aggregation: model.AggregationOf(dtype)}},
		Regions: []model.Region{{ID: 0, Name: "r"}},
		Cnodes:  []model.Cnode{{ID: 10, Parent: -1}, {ID: 11, Parent: 0}, {ID: 12, Parent: 0}, {ID: 13, Parent: 1}},
		System: []model.SystemNode{
			{ID: 0, Kind: model.Group, Parent: -1},
			{ID: 0, Kind: model.Leaf, Parent: 0}, {ID: 1, Kind: model.Leaf, Parent: 0},
		},
	}
	e.Link()
	e.NumberLocations()
	return e
}

// handArchive builds a .cubex data archive from raw members.
func handArchive(t *testing.T, files ...tarFile) []byte {
	return buildTar(t, tar.FormatUSTAR, files...)
}

func TestLoadHandWrittenInclusive(t *testing.T) {
	// Wide order of 0 → {1 → {3}, 2} is 0, 1, 2, 3 (by cnode index), deep
	// order 0, 1, 3, 2. Stored inclusive rows for positions 0, 1, 3
	// (cnodes 0, 1, 3); cnode 2 holds nothing, so its own value is 0.
	le := binary.LittleEndian
	idx := append([]byte(indexMarker), 1, 0, 0, 0, 0, 0, 1)
	idx = le.AppendUint32(idx, 3)
	for _, p := range []uint32{0, 1, 3} {
		idx = le.AppendUint32(idx, p)
	}
	data := []byte(dataMarker)
	for _, v := range []uint64{10, 20, 4, 5, 1, 2} {
		data = le.AppendUint64(data, v)
	}
	e := smallExperiment("UINT64", "INCLUSIVE")
	raw := handArchive(t, tarFile{"0.index", string(idx)}, tarFile{"0.data", string(data)})
	if err := attachArchive(t, raw, e); err != nil {
		t.Fatal(err)
	}
	b, err := e.Block(0)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{6, 15}, {3, 3}, nil, {1, 2}}
	for c, w := range want {
		for l := range 2 {
			var wv float64
			if w != nil {
				wv = w[l]
			}
			if got := b.Value(c, l); got != wv {
				t.Errorf("cnode %d location %d = %v, want %v", c, l, got, wv)
			}
		}
	}
	incl, err := e.LocationValues(model.MetricSel{Metric: 0, Inclusive: true}, model.CnodeSel{Cnode: 0, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if incl[0] != 10 || incl[1] != 20 {
		t.Errorf("root inclusive = %v, want [10 20]", incl)
	}
}

func TestLoadHandWrittenCompressed(t *testing.T) {
	// A ZCUBEX.DATA member with blocks stored out of order and one row
	// (row 1) without a block.
	be := binary.BigEndian
	idx := append([]byte(indexMarker), 0, 0, 0, 1, 0, 0, 1)
	idx = be.AppendUint32(idx, 3)
	for _, p := range []uint32{0, 2, 3} { // deep order 0,1,3,2: cnodes 0, 3, 2
		idx = be.AppendUint32(idx, p)
	}
	row := func(a, b float64) []byte {
		return be.AppendUint64(be.AppendUint64(nil, math.Float64bits(a)), math.Float64bits(b))
	}
	z2, z0 := zlibBytes(t, row(7, 8)), zlibBytes(t, row(1.5, 2.5))
	data := append([]byte(zdataMarker), be.AppendUint64(nil, 2)...)
	data = be.AppendUint64(be.AppendUint64(be.AppendUint64(data, 32), 0), uint64(len(z2)))
	data = be.AppendUint64(be.AppendUint64(be.AppendUint64(data, 0), uint64(len(z2))), uint64(len(z0)))
	data = append(append(data, z2...), z0...)
	e := smallExperiment("DOUBLE", "EXCLUSIVE")
	raw := handArchive(t, tarFile{"0.index", string(idx)}, tarFile{"0.data", string(data)})
	if err := attachArchive(t, raw, e); err != nil {
		t.Fatal(err)
	}
	b, err := e.Block(0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]float64{{0, 0}: 1.5, {0, 1}: 2.5, {2, 0}: 7, {2, 1}: 8}
	for c := range 4 {
		for l := range 2 {
			if got := b.Value(c, l); got != want[[2]int{c, l}] {
				t.Errorf("cnode %d location %d = %v, want %v", c, l, got, want[[2]int{c, l}])
			}
		}
	}
}

func zlibBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadErrors(t *testing.T) {
	le := binary.LittleEndian
	idx := func(pos ...uint32) string {
		b := le.AppendUint32(append([]byte(indexMarker), 1, 0, 0, 0, 0, 0, 1), uint32(len(pos)))
		for _, p := range pos {
			b = le.AppendUint32(b, p)
		}
		return string(b)
	}
	doubles := func(marker string, vs ...float64) string {
		b := []byte(marker)
		for _, v := range vs {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
		return string(b)
	}
	tests := []struct {
		name    string
		files   []tarFile
		atOpen  bool
		wantErr string
	}{
		{"size mismatch", []tarFile{{"0.index", idx(0, 1)}, {"0.data", doubles(dataMarker, 1, 2, 3)}}, true, "index/data size mismatch"},
		{"index without data", []tarFile{{"0.index", idx(0)}}, true, "no 0.data"},
		{"data without index", []tarFile{{"0.data", doubles(dataMarker, 1, 2)}}, true, "no 0.index"},
		{"bad data marker", []tarFile{{"0.index", idx(0)}, {"0.data", doubles("CUBEX.DATB", 1, 2)}}, true, "do not start with"},
		{"too many rows", []tarFile{{"0.index", idx(0, 1, 2, 3, 4)}, {"0.data", doubles(dataMarker)}}, true, "rows for 4 cnodes"},
		{"position out of range", []tarFile{{"0.index", idx(7)}, {"0.data", doubles(dataMarker, 1, 2)}}, false, "outside"},
		{"compressed garbage", []tarFile{{"0.index", idx(0)}, {"0.data", zdataMarker + string(le.AppendUint64(nil, 1)) +
			string(le.AppendUint64(le.AppendUint64(le.AppendUint64(nil, 0), 0), 4)) + "junk"}}, false, "compressed block 0"},
		{"compressed block outside", []tarFile{{"0.index", idx(0)}, {"0.data", zdataMarker + string(le.AppendUint64(nil, 1)) +
			string(le.AppendUint64(le.AppendUint64(le.AppendUint64(nil, 0), 2), 4)) + "junk"}}, true, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := smallExperiment("DOUBLE", "")
			err := attachArchive(t, handArchive(t, tt.files...), e)
			if !tt.atOpen {
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				_, err = e.Block(0)
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "test.cubex") {
				t.Errorf("error = %v, want one naming test.cubex and containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestWriteRefusesValuesOutsideType(t *testing.T) {
	tests := []struct {
		dtype model.DataType
		value float64
		ok    bool
	}{
		{"INT8", -128, true}, {"INT8", 128, false}, {"UINT8", 255, true}, {"UINT8", -1, false},
		{"UINT16", 65536, false}, {"INT32", 2.5, false}, {"UINT32", 4294967295, true},
		{"INT64", 1e18, true}, {"UINT64", -1, false}, {"UINT64", 1 << 63, true}, {"UINT64", 1 << 64, false},
		{"DOUBLE", math.Inf(1), true}, {"DOUBLE", -0.5, true}, {"MINDOUBLE", math.NaN(), true},
		{"INT64", math.NaN(), false}, {"UINT32", math.Inf(1), false},
	}
	for _, tt := range tests {
		e := smallExperiment(tt.dtype, "EXCLUSIVE")
		b := model.NewBlock(4, 2)
		b.MutableRow(3)[1] = tt.value
		e.SetBlock(0, b)
		var buf bytes.Buffer
		_, err := writeCubexData(tar.NewWriter(&buf), e, cubexWriteOptions{})
		if tt.ok {
			if err != nil {
				t.Errorf("%s %v: %v", tt.dtype, tt.value, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), `metric "m"`) || !strings.Contains(err.Error(), " at cnode id 13 (call path to \"r\"), location id 1: ") {
			t.Errorf("%s %v: error %v, want one naming metric, cnode and location", tt.dtype, tt.value, err)
		}
	}
}

func TestWriteSkipsUnavailableAndZeroRows(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 10, Locations: 2, Metrics: 3, Seed: 9})
	e.Metrics[1].Unavailable = "derived metric"
	b, _ := e.Block(2)
	for l := range b.MutableRow(4) {
		b.MutableRow(4)[l] = 0
	}
	raw := writeDataArchive(t, e, cubexWriteOptions{})
	members, err := readTarIndex(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := members["1.data"]; ok {
		t.Error("unavailable metric got a data member")
	}
	if got, want := members["2.index"].size, int64(indexHeaderSize+4+4*(b.StoredRows()-1)); got != want {
		t.Errorf("2.index has %d bytes, want %d (all-zero row dropped)", got, want)
	}
}
