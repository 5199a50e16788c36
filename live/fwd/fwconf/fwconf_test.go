package fwconf

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	src := `
socket = "/tmp/x.sock"
udp = "127.0.0.1:7000"
tcp = ""
cs-capacity = 100
queue = "codel-mark"
queue-params = { target = "5ms" }
loss-detection = true
max-interest-lifetime = "30s"
pit-capacity = 5000
pit-face-limit = 500

[[strategy-choice]]
prefix = "/multi"
strategy = "pcon"

[[face]]
id = "up"
remote = "udp4://127.0.0.1:7001"
queue-params = { interval = "50ms" }
link = { bw = 20, delay = "10ms", max-queue-size = 100, in = { loss = 2 } }

[[face]]
remote = "tcp://localhost"
queue = "droptail"

[[route]]
prefix = "/multi"
face = "up"
cost = 3
`
	c, err := Parse([]byte(src), "fw.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Socket != "/tmp/x.sock" || c.UDP != "127.0.0.1:7000" || c.TCP != "" || !c.ListenSet.TCP || !c.ListenSet.UDP {
		t.Errorf("listeners %q %q %q set %+v", c.Socket, c.UDP, c.TCP, c.ListenSet)
	}
	if c.CSCapacity != 100 || c.Strategy != "best-route" || c.MTU != DefaultMTU || c.IdleTimeout != DefaultIdleTimeout {
		t.Errorf("defaults or values wrong: %+v", c)
	}
	if c.MaxInterestLifetime != 30*time.Second || c.PITCapacity != 5000 || c.PITFaceLimit != 500 ||
		c.MaxNameComponents != DefaultMaxNameComponents || c.DeadNonceCapacity != DefaultDeadNonceCapacity ||
		c.MaxFaces != DefaultMaxFaces {
		t.Errorf("limits: %+v", c)
	}
	up := &c.Faces[0]
	if up.ID != "up" || up.Scheme != "udp4" || up.Address != "127.0.0.1:7001" {
		t.Errorf("face 0: %+v", up)
	}
	wantOut := LinkEmulation{Bandwidth: 20e6, Delay: 10 * time.Millisecond, QueuePackets: 100}
	wantIn := wantOut
	wantIn.Loss = 0.02
	if up.Out != wantOut || up.In != wantIn {
		t.Errorf("link out %+v in %+v, want %+v and %+v", up.Out, up.In, wantOut, wantIn)
	}
	q, params := c.QueueFor(up)
	if q != "codel-mark" || params["target"] != "5ms" || params["interval"] != "50ms" {
		t.Errorf("queue of up: %s %v (parameters merge while the discipline stays)", q, params)
	}
	tcp := &c.Faces[1]
	if tcp.ID != "tcp://localhost" || tcp.Scheme != "tcp4" || tcp.Address != "localhost:6363" {
		t.Errorf("face 1: %+v", tcp)
	}
	if q, params := c.QueueFor(tcp); q != "droptail" || len(params) != 0 {
		t.Errorf("queue of the tcp face: %s %v (another discipline starts afresh)", q, params)
	}
	if !c.LossDetectionFor(up) || c.LossDetectionFor(tcp) {
		t.Error("loss detection: want it on the UDP face only")
	}
	if len(c.Routes) != 1 || c.Routes[0].Cost != 3 || len(c.StrategyChoices) != 1 || c.StrategyChoices[0].Strategy != "pcon" {
		t.Errorf("routes %+v, strategy choices %+v", c.Routes, c.StrategyChoices)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown key", "sockett = \"x\"", "fw.toml:1: sockett: unknown key"},
		{"bad listen address", "udp = \"6363\"", "fw.toml:1: udp: want host:port"},
		{"mtu", "mtu = 100", "fw.toml:1: mtu: must be 576 to 65507"},
		{"negative cs", "cs-capacity = -1", "fw.toml:1: cs-capacity: must not be negative"},
		{"face without remote", "[[face]]\nid = \"a\"", "fw.toml:1: face[0].remote: required"},
		{"bad scheme", "[[face]]\nremote = \"ether://x\"", "fw.toml:2: face[0].remote: face URI"},
		{"loss detection on tcp", "[[face]]\nremote = \"tcp4://1.2.3.4\"\nloss-detection = true", "fw.toml:3: face[0].loss-detection: the link-loss shim runs on UDP faces only"},
		{"bad link key", "[[face]]\nremote = \"udp4://1.2.3.4\"\nlink = { jiter = \"1ms\" }", "face[0].link.jiter: unknown key"},
		{"bad link value", "[[face]]\nremote = \"udp4://1.2.3.4\"\nlink = { out = { loss = 200 } }", "face[0].link.out.loss: must be a percentage"},
		{"duplicate id", "[[face]]\nremote = \"udp4://1.2.3.4\"\n[[face]]\nremote = \"udp4://1.2.3.4\"", "fw.toml:3: face[1].id: face id \"udp4://1.2.3.4\" is already used"},
		{"route to no face", "[[route]]\nprefix = \"/a\"\nface = \"x\"", "fw.toml:3: route[0].face: no [[face]] has id \"x\""},
		{"bad prefix", "[[route]]\nprefix = \"a b\"\nface = \"x\"", "route[0].prefix"},
		{"choice without strategy", "[[strategy-choice]]\nprefix = \"/a\"", "fw.toml:1: strategy-choice[0].strategy: required"},
		{"syntax", "udp = ", "fw.toml:1"},
		{"zero pit capacity", "pit-capacity = 0", "fw.toml:1: pit-capacity: must be positive"},
		{"negative face limit", "\n\npit-face-limit = -3", "fw.toml:3: pit-face-limit: must be positive"},
		{"lifetime cap", "max-interest-lifetime = \"0s\"", "fw.toml:1: max-interest-lifetime: must be positive"},
		{"name limit", "max-name-components = 0", "fw.toml:1: max-name-components: must be positive"},
		{"face table", "max-faces = 0", "fw.toml:1: max-faces: must be positive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), "fw.toml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestParseFaceURI(t *testing.T) {
	for _, tc := range []struct{ uri, scheme, addr string }{
		{"udp4://127.0.0.1:6364", "udp4", "127.0.0.1:6364"},
		{"udp://example.net", "udp4", "example.net:6363"},
		{"tcp6://[::1]:7000", "tcp6", "[::1]:7000"},
	} {
		s, a, err := ParseFaceURI(tc.uri)
		if err != nil || s != tc.scheme || a != tc.addr {
			t.Errorf("ParseFaceURI(%q) = %q, %q, %v; want %q, %q", tc.uri, s, a, err, tc.scheme, tc.addr)
		}
	}
	for _, bad := range []string{"unix:///run/nfd.sock", "udp4://", "udp4://h:1/path", "udp4://u@h:1"} {
		if _, _, err := ParseFaceURI(bad); err == nil {
			t.Errorf("ParseFaceURI(%q) accepted", bad)
		}
	}
}
