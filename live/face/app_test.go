package face

import (
	"bytes"
	"testing"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/ndn"
)

// TestAppSendWire sends encoded packets on an application's stream face:
// an Interest and a Data go out byte for byte, counted by type; a TLV
// that is neither is refused and counted as a send error, and so is any
// packet on a forwarder's face, whose writer owns its output.
func TestAppSendWire(t *testing.T) {
	interest, err := ndn.EncodeFrame(&ndn.Packet{Interest: &ndn.Interest{Name: ndntest.Name(t, "/wire/i"), Nonce: 7}})
	if err != nil {
		t.Fatal(err)
	}
	data := ndntest.Data(t, "/wire/d", 100).Wire
	idle, err := ndn.EncodeLp(&ndn.LpFrame{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                  string
		wire                  []byte
		wantErr               bool
		wantInterests, wantDs uint64
	}{
		{"interest", interest, false, 1, 0},
		{"data", data, false, 0, 1},
		{"lp packet", idle, true, 0, 0},
		{"empty", nil, true, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, f, peer := appSocketPair(t)
			err := f.SendWire(tc.wire)
			if (err != nil) != tc.wantErr {
				t.Fatalf("SendWire: %v, want an error: %t", err, tc.wantErr)
			}
			st := f.Stats()
			if st.OutInterests != tc.wantInterests || st.OutData != tc.wantDs || st.PacketsOut != tc.wantInterests+tc.wantDs {
				t.Errorf("counters %+v", st)
			}
			if tc.wantErr {
				if st.SendErrors != 1 || st.FramesOut != 0 {
					t.Errorf("a refused packet: %d send errors, %d frames out; want 1 and 0", st.SendErrors, st.FramesOut)
				}
				return
			}
			f.Flush()
			got := make([]byte, len(tc.wire))
			fr := NewFrameReader(peer, MaxPacketSize)
			b, err := fr.Next()
			if err != nil {
				t.Fatal(err)
			}
			copy(got, b)
			if !bytes.Equal(got, tc.wire) || st.BytesOut != uint64(len(tc.wire)) || st.FramesOut != 1 {
				t.Errorf("sent %x (%d bytes counted, %d frames), want %x", got, st.BytesOut, st.FramesOut, tc.wire)
			}
		})
	}
	t.Run("forwarder's face", func(t *testing.T) {
		_, _, peer := appSocketPair(t)
		f := NewStream(nil, peer, Config{Scheme: "unix", Remote: "fd://fw"})
		if err := f.SendWire(interest); err == nil || f.Stats().SendErrors != 1 {
			t.Errorf("SendWire on a forwarder's face: %v, %d send errors; want a refusal, counted", err, f.Stats().SendErrors)
		}
	})
}
