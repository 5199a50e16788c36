// Command ndncc is the NDN congestion-control toolkit: simulate scenarios,
// run the seed experiments, and fetch or serve files over real forwarders.
package main

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
		Use:   "ndncc",
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
	root.AddCommand(newSimCmd(), newExperimentCmd(), newReproduceCmd(), newParamsCmd())
	root.AddCommand(newFetchCmd(), newServeCmd(), newFwCmd())
	return root
}

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "ndncc:", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
