package cli

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/live/fwd"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
)

// fwFlags are fw's flags.
type fwFlags struct {
	config  string
	socket  string
	udp     string
	tcp     string
	verbose bool
	quiet   bool
}

func newFwCmd() *cobra.Command {
	var ff fwFlags
	cmd := &cobra.Command{
		Use: "fw [--config FILE] [--socket PATH]",
		Example: `  ndncc fw                                                     # NFD's places: /run/nfd/nfd.sock, UDP and TCP 6363
  ndncc fw --socket /tmp/fw.sock --udp none --tcp none         # local applications only
  ndncc fw --config fw.toml -v                                 # strategies, queues, faces, routes (docs/forwarder.md)`,
		Short: "Run an NDN forwarder with ndncc's strategies, queues and congestion marking",
		Long: `Run a live NDN forwarder: the forwarding core the simulator runs (PIT, Content
Store, FIB, best-route, multicast, pcon, pi and cf strategies, drop-tail, CoDel and
backlog-marking queues, link-loss detection) on real Unix, UDP and TCP faces.

Local applications connect to the Unix socket (NFD's /run/nfd/nfd.sock unless
the configuration or --socket says otherwise); peers reach the UDP and TCP
listeners (0.0.0.0:6363 by default). Without --config every setting has its
documented default (docs/forwarder.md): best-route, no Content Store, and NFD's
congestion marking by send-queue backlog on every face.

The configuration file is TOML with the keys of a scenario file (strategy,
cs-capacity, queue, queue-params, loss-detection, link keys) plus listeners,
permanent faces to peers, routes and strategy choices: docs/forwarder.md.

SIGUSR1 prints the counters (the forwarder's and every face's) on stdout, as
the forwarder does when it exits (SIGINT, SIGTERM).

Exit status: 0 after an interrupt, 1 failure, 2 bad arguments or configuration.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFw(cmd, &ff)
		},
	}
	cmd.SetFlagErrorFunc(usageError)
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVarP(&ff.config, "config", "c", "", "configuration file (TOML, docs/forwarder.md)")
	fs.StringVar(&ff.socket, "socket", "", "Unix socket for local applications (overrides the configuration)")
	fs.StringVar(&ff.udp, "udp", "", `UDP listening address host:port, "none" for no UDP listener (overrides the configuration)`)
	fs.StringVar(&ff.tcp, "tcp", "", `TCP listening address host:port, "none" for no TCP listener (overrides the configuration)`)
	fs.BoolVarP(&ff.verbose, "verbose", "v", false, "log every face's comings and goings and dropped frames")
	fs.BoolVarP(&ff.quiet, "quiet", "q", false, "log errors only, and no counters at exit")
	return cmd
}

func runFw(cmd *cobra.Command, ff *fwFlags) error {
	if ff.verbose && ff.quiet {
		return usageError(cmd, fmt.Errorf("-v and -q exclude each other"))
	}
	cfg := fwconf.Default()
	if ff.config != "" {
		var err error
		if cfg, err = fwconf.Load(ff.config); err != nil {
			return &exitError{2, err}
		}
	}
	for _, o := range []struct {
		flag  string
		val   string
		dst   *string
		isSet *bool
	}{{"socket", ff.socket, &cfg.Socket, &cfg.ListenSet.Socket}, {"udp", ff.udp, &cfg.UDP, &cfg.ListenSet.UDP}, {"tcp", ff.tcp, &cfg.TCP, &cfg.ListenSet.TCP}} {
		if !cmd.Flags().Changed(o.flag) {
			continue
		}
		*o.dst, *o.isSet = o.val, true
		if o.val == "none" {
			*o.dst = ""
		}
	}
	level := slog.LevelInfo
	switch {
	case ff.verbose:
		level = slog.LevelDebug
	case ff.quiet:
		level = slog.LevelError
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
	d, err := fwd.New(cfg, log)
	if err != nil {
		return &exitError{2, err}
	}
	// The listeners open before anything else: a --socket path holding a
	// file or a live socket, or a port taken, is a configuration error.
	if err := d.Listen(); err != nil {
		return &exitError{2, fmt.Errorf("fw: %w", err)}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	defer signal.Stop(usr1)
	out := cmd.OutOrStdout()
	go func() {
		for {
			select {
			case <-usr1:
				d.Loop().Post(func() { d.Status(out) })
			case <-ctx.Done():
				return
			}
		}
	}()
	err = d.Run(ctx)
	if !ff.quiet {
		d.Status(out)
	}
	if err != nil {
		return fmt.Errorf("fw: %w", err)
	}
	return nil
}
