package fwd

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"

	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/mgmt"
)

// TestCreateRefusesOwnListener checks that faces/create refuses a face to
// the forwarder's own UDP or TCP listener (every packet would loop), on
// its address or, for a listener on 0.0.0.0, on loopback.
func TestCreateRefusesOwnListener(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:0", "0.0.0.0:0"} {
		cfg := fwconf.Default()
		cfg.UDP, cfg.TCP = listen, listen
		d := startFw(t, cfg)
		var udp, tcp netip.AddrPort
		d.Do(func() { udp, tcp = d.UDPAddr(), d.tcp.Addr().(interface{ AddrPort() netip.AddrPort }).AddrPort() })
		for _, tc := range []struct {
			scheme string
			port   uint16
			own    bool
		}{
			{"udp4", udp.Port(), true},
			{"tcp4", tcp.Port(), true},
			{"udp4", udp.Port() + 1, false},
		} {
			t.Run(fmt.Sprintf("%s %s:%d", listen, tc.scheme, tc.port), func(t *testing.T) {
				req := mgmt.FaceRequest{Remote: fmt.Sprintf("%s://127.0.0.1:%d", tc.scheme, tc.port), Scheme: tc.scheme,
					IP: [4]byte{127, 0, 0, 1}, Port: tc.port}
				got := make(chan error, 1)
				d.Do(func() { d.Create(req, func(_ mgmt.FaceInfo, err error) { got <- err }) })
				err := <-got
				var se *mgmt.StatusError
				refused := errors.As(err, &se) && se.Code == 406
				if refused != tc.own {
					t.Errorf("Create: %v; want refused %v", err, tc.own)
				}
			})
		}
	}
}
