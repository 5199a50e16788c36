package face

import "net"

// NewStream returns a forwarder's face over an established stream
// connection (a Unix or TCP socket). Start it once the loop knows it.
func NewStream(host Host, conn net.Conn, cfg Config) *Face {
	f := newHosted(host, cfg, func(b []byte) error {
		_, err := conn.Write(b)
		return err
	})
	f.closeTx = conn.Close
	f.backlog, f.sndbuf = kernelBacklog(conn, cfg.Scheme)
	f.direct = directWriter(conn)
	f.reader = func() { f.readStream(conn) }
	return f
}
