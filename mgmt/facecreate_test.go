package mgmt

import (
	"testing"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
)

// TestFaceRequestRefusesNonUnicast checks that faces/create refuses a
// remote that is not one peer: the broadcast, the unspecified address, a
// multicast group.
func TestFaceRequestRefusesNonUnicast(t *testing.T) {
	for _, tc := range []struct {
		uri  string
		code uint64 // 0: accepted
	}{
		{"udp4://192.0.2.7:6363", 0},
		{"udp4://255.255.255.255:6363", 406},
		{"tcp4://255.255.255.255:6363", 406},
		{"udp4://0.0.0.0:6363", 406},
		{"udp4://224.0.23.170:56363", 406},
		{"udp4://192.0.2.255:6363", 0}, // a subnet's broadcast cannot be told from a host here
	} {
		t.Run(tc.uri, func(t *testing.T) {
			uri := tc.uri
			_, resp, ok := faceRequest(&nfd.ControlArgs{Uri: some(uri)})
			switch {
			case tc.code == 0 && !ok:
				t.Errorf("refused: %d %s", resp.code, resp.text)
			case tc.code != 0 && (ok || resp.code != tc.code):
				t.Errorf("got ok %v, %d %s; want %d", ok, resp.code, resp.text, tc.code)
			}
		})
	}
}
