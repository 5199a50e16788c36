// Package cli is the ndncc command line: its commands, their flags and
// what they print. Package main in cmd/ndncc only calls Main.
package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// exitError carries a specific exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use: "ndncc",
		Example: `  ndncc experiment seed000-linear              # paper 000's Designs #0-#3, simulated, beside the paper's table
  ndncc sim examples/linear-fixed32.toml        # one scenario in the simulator
  ndncc fw --socket /tmp/fw.sock --udp none --tcp none &
  NDN_CLIENT_TRANSPORT=unix:///tmp/fw.sock ndncc serve /example/readme README.md &
  NDN_CLIENT_TRANSPORT=unix:///tmp/fw.sock ndncc fetch /example/readme -o readme.copy`,
		Short: "Congestion control for Named Data Networking: simulate, reproduce, fetch and serve",
		Long: `ndncc implements receiver-driven NDN congestion control (fixed window, AIMD with
conservative loss recovery, CUBIC, BIC, Vegas, NDN-Vegas), congestion marking in the
network (CoDel, backlog thresholds) and PCON, in one sans-IO core that runs in a fast
deterministic simulator and over real NFD/YaNFD forwarders.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	var (
		cpuProfile string
		profile    *os.File
	)
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the command to this file (go tool pprof)")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return &exitError{2, fmt.Errorf("--cpuprofile: %w", err)}
		}
		profile = f
		return pprof.StartCPUProfile(f)
	}
	root.PersistentPostRun = func(cmd *cobra.Command, args []string) {
		if profile != nil {
			pprof.StopCPUProfile()
			profile.Close()
		}
	}
	root.AddCommand(withGCFloor(newSimCmd()), withGCFloor(newExperimentCmd()), withGCFloor(newReproduceCmd()),
		withGCFloor(newSeed001SweepCmd()), newParamsCmd())
	root.AddCommand(newFetchCmd(), newServeCmd(), newFwCmd(), newEmuCmd())
	// cobra's own commands, made here so that they too show examples.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Example = "  ndncc help fetch\n  ndncc help experiment merge"
		case "completion":
			c.Example = "  source <(ndncc completion bash)\n  ndncc completion zsh > ~/.zfunc/_ndncc"
			for _, sh := range c.Commands() {
				sh.Example = "  ndncc completion " + sh.Name() + " > ndncc." + sh.Name()
			}
		}
	}
	usageErrorsExit2(root)
	addVersionFlags(root, version())
	return root
}

// addVersionFlags gives cmd and every command under it -V/--version, as
// ndn-tools' programs have: print "ndncc VERSION" and exit 0.
func addVersionFlags(cmd *cobra.Command, v string) {
	cmd.Version = v
	cmd.SetVersionTemplate("ndncc {{.Version}}\n")
	if cmd.Flags().Lookup("version") == nil && cmd.Flags().ShorthandLookup("V") == nil {
		cmd.Flags().BoolP("version", "V", false, "print ndncc's version and exit")
	}
	for _, c := range cmd.Commands() {
		addVersionFlags(c, v)
	}
}

// usageErrorsExit2 makes every bad-arguments error of every command exit
// with status 2: an unknown command or flag, a bad flag value, the wrong
// number of arguments. (Bad values that only a command's run can see
// return usageError themselves.)
func usageErrorsExit2(root *cobra.Command) {
	root.SetFlagErrorFunc(usageError) // inherited by every subcommand
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	root.Args = usageArgs(func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())
		}
		return nil
	})
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Args != nil {
				sub.Args = usageArgs(sub.Args)
			}
			wrap(sub)
		}
	}
	wrap(root)
}

// Main runs ndncc with the process's arguments and exits with its status:
// 0, 1 for a failure, or the code of an exitError (2 for bad usage).
func Main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "ndncc:", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
