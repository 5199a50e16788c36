package live

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParseTransport(t *testing.T) {
	tests := []struct {
		uri     string
		want    Transport
		wantErr bool
	}{
		{uri: "unix:///run/nfd/nfd.sock", want: Transport{"unix", "/run/nfd/nfd.sock"}},
		{uri: "unix:/tmp/x.sock", want: Transport{"unix", "/tmp/x.sock"}},
		{uri: "tcp://localhost", want: Transport{"tcp", "localhost:6363"}},
		{uri: "tcp4://192.0.2.1:7000", want: Transport{"tcp4", "192.0.2.1:7000"}},
		{uri: "tcp6://[::1]:6363", want: Transport{"tcp6", "[::1]:6363"}},
		{uri: "udp://127.0.0.1:56363", want: Transport{"udp", "127.0.0.1:56363"}},
		{uri: "udp4://router.example", want: Transport{"udp4", "router.example:6363"}},
		{uri: "unix://host/path", wantErr: true},
		{uri: "tcp://", wantErr: true},
		{uri: "tcp://host:6363/extra", wantErr: true},
		{uri: "ws://host:9696", wantErr: true},
		{uri: "/run/nfd/nfd.sock", wantErr: true},
	}
	for _, tc := range tests {
		got, err := ParseTransport(tc.uri)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%s: got %+v, want an error", tc.uri, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.uri, got, err, tc.want)
		}
	}
}

func TestTransportLocal(t *testing.T) {
	for uri, want := range map[string]bool{
		"unix:///run/nfd/nfd.sock": true,
		"tcp://127.0.0.1:6363":     true,
		"udp://[::1]:6363":         true,
		"tcp://localhost":          true,
		"udp://192.0.2.1:6363":     false,
	} {
		tr, err := ParseTransport(uri)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Local() != want {
			t.Errorf("%s: Local() = %t, want %t", uri, tr.Local(), want)
		}
	}
}

func TestResolveTransport(t *testing.T) {
	home := t.TempDir()
	conf := filepath.Join(home, ".ndn", "client.conf")
	if err := os.MkdirAll(filepath.Dir(conf), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConf := func(s string) {
		if err := os.WriteFile(conf, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == TransportEnv {
				return v
			}
			return ""
		}
	}
	writeConf("; a comment\ntransport=tcp4://192.0.2.7:6363 ; trailing comment\n")
	tests := []struct {
		name     string
		explicit string
		env      string
		home     string
		want     string
		source   TransportSource
	}{
		{"flag wins", "udp://127.0.0.1:1", "unix:///env.sock", home, "udp://127.0.0.1:1", FromFlag},
		{"environment next", "", "unix:///env.sock", home, "unix:///env.sock", FromEnv},
		{"client.conf next", "", "", home, "tcp4://192.0.2.7:6363", TransportSource(conf)},
		{"default last", "", "", "", DefaultTransport, FromDefault},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, src, err := ResolveTransport(tc.explicit, env(tc.env), tc.home)
			if err != nil {
				t.Fatal(err)
			}
			// The system-wide client.conf files may exist on the test
			// machine; only check the default when they do not.
			if tc.source == FromDefault && src != FromDefault {
				t.Skipf("a system client.conf (%s) exists", src)
			}
			if got.String() != tc.want || src != tc.source {
				t.Errorf("got %s from %s, want %s from %s", got, src, tc.want, tc.source)
			}
		})
	}
	t.Run("bad environment", func(t *testing.T) {
		if _, _, err := ResolveTransport("", env("ws://x"), home); err == nil {
			t.Error("no error for a bad NDN_CLIENT_TRANSPORT")
		}
	})
	t.Run("client.conf without transport", func(t *testing.T) {
		writeConf("protocol=nrd-0.1\n")
		_, src, err := ResolveTransport("", env(""), home)
		if err != nil || src != FromDefault {
			t.Errorf("got source %s, %v; want the default", src, err)
		}
	})
}
