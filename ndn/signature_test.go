package ndn

import (
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	sec "github.com/named-data/ndnd/std/security/signer"
)

// seedData is a Data shaped like those seed 003 measured: 1024 bytes of a
// 10,240-segment file, FreshnessPeriod 10 s, signed with RSA-2048.
func seedData(seg uint64) *Data {
	return &Data{
		Name: Name{
			enc.NewGenericComponent("example"),
			enc.NewGenericComponent("file"),
			enc.NewVersionComponent(1700000000000000),
			enc.NewSegmentComponent(seg),
		},
		Freshness:    10 * time.Second,
		FinalBlockID: enc.NewSegmentComponent(10239),
		HasFinal:     true,
		ContentLen:   1024,
		Sig:          RSASignature(DefaultSeedKeyName()),
	}
}

// TestSeedDataSize documents the size of the seeds' Data: 1405 bytes of
// NDN packet (381 bytes of overhead on 1024 bytes of payload) for the
// segments of the seeds' 10 MiB file (see DefaultSeedKeyName).
func TestSeedDataSize(t *testing.T) {
	tests := []struct {
		seg  uint64
		want int
	}{
		{0, 1404},
		{255, 1404},
		{256, 1405},
		{10239, 1405},
		{65535, 1405},
		{65536, 1407},
	}
	var s Sizer
	for _, tt := range tests {
		if got := s.DataSize(seedData(tt.seg)); got != tt.want {
			t.Errorf("segment %d: DataSize = %d, want %d", tt.seg, got, tt.want)
		}
	}
	if n := DefaultSeedKeyName().EncodingLength(); n != 61 {
		t.Errorf("DefaultSeedKeyName TLV-VALUE is %d bytes, want 61", n)
	}
}

// TestSeedDataSignedWithRSA signs a seed-shaped Data with a real RSA-2048
// key: the encoding is the 1405 bytes the Sizer predicts.
func TestSeedDataSignedWithRSA(t *testing.T) {
	signer, err := sec.KeygenRsa(DefaultSeedKeyName(), 2048)
	if err != nil {
		t.Fatal(err)
	}
	d := seedData(5000)
	d.Content = make([]byte, 1024)
	wire, err := EncodeData(d, signer)
	if err != nil {
		t.Fatal(err)
	}
	if len(wire) != 1405 {
		t.Errorf("RSA-signed seed Data is %d bytes, want 1405", len(wire))
	}
	if d.Sig.Type != SigSHA256WithRSA || d.Sig.ValueLen != RSA2048Len || !d.Sig.KeyLocator.Equal(DefaultSeedKeyName()) {
		t.Errorf("Sig = type %d, %d bytes, KeyLocator %s", d.Sig.Type, d.Sig.ValueLen, d.Sig.KeyLocator)
	}
}
