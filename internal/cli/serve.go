package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/eventloop"
)

// serveFlags are serve's flags.
type serveFlags struct {
	segmentSize  int
	cacheMB      int64
	freshness    string
	printVersion bool
	sign         string
	key          string
	noRegister   bool
	transport    string
	mtu          int
	reconnect    string
	verbose      bool
	quiet        bool
}

func newServeCmd() *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use: "serve NAME [FILE|-]",
		Example: `  ndncc serve /example/readme README.md
  tar c docs | ndncc serve /example/docs -                      # standard input
  ndncc serve /example/movie movie.bin --sign ed25519 --key my.key
  ndncc serve /example/movie movie.bin --transport unix:///tmp/fw.sock -v`,
		Short: "Serve a file as a segmented, versioned object (like ndn-tools' ndnserve, formerly ndnputchunks)",
		Long: `Serve FILE (or stdin, when FILE is - or absent) under NAME until interrupted.

The object is named NAME/v=<version>/seg=<N> with the typed version and
segment components of the NDN naming conventions; the version is NAME's
last component if it is a version, else the current time in microseconds.
Every segment carries the FinalBlockId and the freshness period; the RDR
metadata packet (NAME/32=metadata) tells consumers such as ndnget and
'ndnd cat' the version. A file is read segment by segment as Interests
ask for it (stdin is read into memory first).

Data are signed with a SHA-256 digest by default, or with an Ed25519 or
ECDSA key: --key FILE (a key as 'ndnd sec keygen' writes it, with or
without its certificate), or a fresh key of --sign's type. The key's
certificate (self-signed if the file has none) is served too.

The prefix NAME is registered with the forwarder through NFD management
(the signed rib/register command) unless --no-register is given. The
forwarder is found as for fetch (--transport, $NDN_CLIENT_TRANSPORT,
client.conf, unix:///run/nfd/nfd.sock).

When the connection to the forwarder is lost (a forwarder restarted), serve
reconnects for up to --reconnect and registers its routes again.

Exit status: 0 after an interrupt, 1 failure, 2 bad arguments, 6 forwarder
unreachable, or the connection lost and not restored within --reconnect.`,
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd, &sf, args)
		},
	}
	cmd.SetFlagErrorFunc(usageError)
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.IntVarP(&sf.segmentSize, "size", "s", 8000, "payload size of a segment, in bytes")
	fs.StringVarP(&sf.freshness, "freshness", "f", "10000", "FreshnessPeriod of every segment (`ms`, or a duration such as 10s)")
	fs.Int64Var(&sf.cacheMB, "cache", 256, "keep up to this many `MB` of prepared (signed, encoded) segments, the object's first, to send again as they are; with a DigestSha256 signature a segment asked for brings the next 15 into it, digested together; 0: none")
	fs.BoolVarP(&sf.printVersion, "print-data-version", "p", false, "print the versioned name on stdout")
	fs.StringVar(&sf.sign, "sign", "", "`signature`: digest (default), ed25519, ecdsa or rsa (2048-bit)")
	fs.StringVar(&sf.key, "key", "", "sign with this key `file` (from 'ndnd sec keygen', PEM or TLV)")
	fs.BoolVar(&sf.noRegister, "no-register", false, "do not register the prefix with the forwarder")
	fs.StringVar(&sf.transport, "transport", "", "the forwarder's `uri`: unix:///path, tcp://host[:port] or udp://host[:port]")
	fs.IntVar(&sf.mtu, "mtu", live.DefaultUDPMTU, "largest datagram on a UDP transport (larger packets are fragmented)")
	fs.Var(textVar(&sf.reconnect, defaultReconnect, "ms"), "reconnect", reconnectDoc)
	fs.BoolVarP(&sf.verbose, "verbose", "v", false, "report the transport, the routes and the counters at exit")
	fs.BoolVarP(&sf.quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

func runServe(cmd *cobra.Command, sf *serveFlags, args []string) error {
	name, err := parseNameArg(args[0])
	switch {
	case err != nil:
	case len(name) == 1 && name[0].IsVersion():
		// Its prefix would be the root: serve would register "/" and take
		// every Interest the forwarder has no better route for.
		err = fmt.Errorf("name %q is only a version: give at least one component before it", args[0])
	default:
		err = live.CheckName(name)
	}
	if err != nil {
		return usageError(cmd, err)
	}
	freshness, err := parseMillis(sf.freshness)
	if err != nil {
		return usageError(cmd, fmt.Errorf("-f/--freshness: %w", err))
	}
	if err := live.CheckMTU(sf.mtu); err != nil {
		return usageError(cmd, err)
	}
	reconnect, err := parseMillis(sf.reconnect)
	if err != nil {
		return usageError(cmd, fmt.Errorf("--reconnect: %w", err))
	}
	if sf.cacheMB < 0 || sf.cacheMB > 1<<30 {
		return usageError(cmd, fmt.Errorf("--cache must be between 0 and %d MB, got %d", 1<<30, sf.cacheMB))
	}
	if sf.segmentSize < 1 || sf.segmentSize > live.MaxPacketSize {
		return usageError(cmd, fmt.Errorf("-s/--size must be between 1 and %d, got %d", live.MaxPacketSize, sf.segmentSize))
	}
	if !name[len(name)-1].IsVersion() {
		name = name.Append(live.NewVersion(time.Now()))
	}
	identity := name[:len(name)-1]
	signing, err := live.LoadSigning(sf.sign, sf.key, identity)
	if err != nil {
		return usageError(cmd, err)
	}
	path := "-"
	if len(args) == 2 {
		path = args[1]
	}
	content, size, closeContent, err := openContent(path, cmd.InOrStdin())
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer closeContent()

	stderr := cmd.ErrOrStderr()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	conn, err := live.Connect(ctx, sf.transport, live.FaceConfig{MTU: sf.mtu})
	if err != nil {
		if errors.Is(err, live.ErrBadTransport) {
			return usageError(cmd, err)
		}
		return &exitError{exitNoForward, err}
	}
	defer conn.Close()

	srv, err := live.NewServer(conn.Endpoint, live.ServeConfig{
		Name: name, Content: content, Size: size, SegmentSize: sf.segmentSize,
		Freshness: freshness, Signing: signing, Register: !sf.noRegister, CacheBytes: sf.cacheMB * 1e6,
	})
	if err != nil {
		return usageError(cmd, err)
	}
	conn.KeepAlive(reconnect)
	conn.Endpoint.OnLost(func(err error) { conn.Loop.Stop(err) })
	conn.Endpoint.OnRestored(func() {
		srv.Start(func(err error) {
			if err != nil && conn.Endpoint.Face().Err() != nil {
				return // lost again: the next connection registers again
			}
			if err != nil {
				conn.Loop.Stop(fmt.Errorf("after reconnecting: %w", err))
				return
			}
			if sf.verbose {
				fmt.Fprintf(stderr, "Reconnected to %s; routes registered again\n", conn.Transport)
			}
		})
	})
	conn.Loop.After(0, func() {
		srv.Start(func(err error) {
			if err != nil {
				conn.Loop.Stop(err)
				return
			}
			sf.announce(cmd, conn, srv, name)
		})
	})
	err = conn.Loop.Run(ctx)
	if sf.verbose {
		st := srv.Stats()
		fmt.Fprintf(stderr, "Interests: %d, Data sent: %d (%d payload bytes; %d prepared before), metadata: %d, certificates: %d, unknown: %d\n",
			st.Interests+st.Metadata+st.Certificates+st.PrefixProbes, st.DataSent+st.PrefixProbes, st.PayloadBytes, st.CacheHits,
			st.Metadata, st.Certificates, st.Unknown)
		writeFaceStats(stderr, conn.Endpoint.Face().Stats())
	}
	if err == nil || (errors.Is(err, eventloop.ErrStopped) && ctx.Err() != nil) {
		return nil // interrupted: the normal end of serving
	}
	return &exitError{exitCodeOf(err), fmt.Errorf("serve %s: %w", name, err)}
}

// announce reports that the object is being served.
func (sf *serveFlags) announce(cmd *cobra.Command, conn *live.Conn, srv *live.Server, name enc.Name) {
	if sf.printVersion {
		fmt.Fprintln(cmd.OutOrStdout(), name)
	}
	if sf.quiet {
		return
	}
	stderr := cmd.ErrOrStderr()
	if sf.verbose {
		fmt.Fprintf(stderr, "Forwarder: %s (from %s)\n", conn.Transport, conn.Source)
		if c := srv.Certificate(); c != nil {
			fmt.Fprintf(stderr, "Signing with %s, certificate %s\n", srv.SignatureScheme(), c.Name)
		} else {
			fmt.Fprintf(stderr, "Signing with %s\n", srv.SignatureScheme())
		}
		for _, r := range srv.Routes() {
			if !sf.noRegister {
				fmt.Fprintf(stderr, "Registered route %s\n", r.Prefix)
			}
		}
	}
	fmt.Fprintf(stderr, "Serving %s (%d segments)\n", name, srv.Segments())
}

// openContent opens the object: a file read on demand, or stdin read
// into memory.
func openContent(path string, stdin io.Reader) (io.ReaderAt, int64, func(), error) {
	if path == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, 0, nil, fmt.Errorf("read stdin: %w", err)
		}
		return bytes.NewReader(b), int64(len(b)), func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, nil, fmt.Errorf("%s is not a regular file (pipe it to stdin instead)", path)
	}
	return f, st.Size(), func() { f.Close() }, nil
}

// parseMillis parses milliseconds (as ndn-tools takes durations) or a Go
// duration.
func parseMillis(s string) (time.Duration, error) {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if limit := uint64(math.MaxInt64 / int64(time.Millisecond)); err != nil || n > limit {
			return 0, fmt.Errorf("%s ms is too long (at most %d ms, about 292 years)", s, limit)
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want milliseconds or a duration like 10s, got %q", s)
	}
	return d, nil
}
