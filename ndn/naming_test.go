package ndn

import (
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"
)

func TestSegmentAndVersionOf(t *testing.T) {
	v := enc.NewVersionComponent(1700000000000000)
	tests := []struct {
		name       string
		n          Name
		seg        uint64
		hasSeg     bool
		version    uint64
		hasVersion bool
	}{
		{"empty", nil, 0, false, 0, false},
		{"segment", Name{v, enc.NewSegmentComponent(300)}, 300, true, 1700000000000000, true},
		{"segment 0", Name{enc.NewSegmentComponent(0)}, 0, true, 0, false},
		{"largest segment", Name{enc.NewSegmentComponent(1<<64 - 1)}, 1<<64 - 1, true, 0, false},
		{"version last", Name{enc.NewGenericComponent("a"), v}, 0, false, 1700000000000000, true},
		{"segment not last", Name{enc.NewSegmentComponent(1), enc.NewGenericComponent("a")}, 0, false, 0, false},
		{"generic component", name("a", "1"), 0, false, 0, false},
		{"3-byte segment", Name{{Typ: enc.TypeSegmentNameComponent, Val: []byte{1, 2, 3}}}, 0, false, 0, false},
		{"empty version", Name{{Typ: enc.TypeVersionNameComponent}}, 0, false, 0, false},
		{"last version wins", Name{enc.NewVersionComponent(1), enc.NewVersionComponent(2)}, 0, false, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seg, ok := SegmentOf(tt.n)
			if seg != tt.seg || ok != tt.hasSeg {
				t.Errorf("SegmentOf = %d, %t; want %d, %t", seg, ok, tt.seg, tt.hasSeg)
			}
			ver, ok := VersionOf(tt.n)
			if ver != tt.version || ok != tt.hasVersion {
				t.Errorf("VersionOf = %d, %t; want %d, %t", ver, ok, tt.version, tt.hasVersion)
			}
		})
	}
}

func TestFinalSegment(t *testing.T) {
	tests := []struct {
		name string
		d    Data
		want uint64
		ok   bool
	}{
		{"none", Data{}, 0, false},
		{"segment", Data{FinalBlockID: enc.NewSegmentComponent(10239), HasFinal: true}, 10239, true},
		{"generic", Data{FinalBlockID: enc.NewGenericComponent("x"), HasFinal: true}, 0, false},
		{"flag unset", Data{FinalBlockID: enc.NewSegmentComponent(3)}, 0, false},
	}
	for _, tt := range tests {
		if got, ok := tt.d.FinalSegment(); got != tt.want || ok != tt.ok {
			t.Errorf("%s: FinalSegment = %d, %t; want %d, %t", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseName(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"/example/file", "/example/file", false},
		{"/a/v=7/seg=3", "/a/v=7/seg=3", false},
		{"example", "", true},
		{"/=", "", true}, // ndnd v1.5.3 panics on this one
		{"/a/%zz", "", true},
	}
	for _, tt := range tests {
		n, err := ParseName(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && n.String() != tt.want) {
			t.Errorf("ParseName(%q) = %v, %v; want %q, error %v", tt.in, n, err, tt.want, tt.wantErr)
		}
	}
}
