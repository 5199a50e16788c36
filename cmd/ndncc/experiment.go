package main

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/experiment"
)

func newExperimentCmd() *cobra.Command {
	var (
		list     bool
		runs     int
		asJSON   bool
		out      string
		seed     uint64
		variants []string
	)
	cmd := &cobra.Command{
		Use:   "experiment [--list] NAME",
		Short: "Run a built-in experiment (the seeds' tables) and print it beside the seed's figures",
		Long: `Run a named experiment from the catalog: every variant is simulated --runs times
with distinct seeds (run i uses seed --seed+i) and aggregated (mean, min–max). The table
prints our figures beside the seed document's. With --json, one JSON document with
variants[] {name, flows[] (means), flows_min[], flows_max[], runs[], ...}.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			if len(args) != 1 {
				return fmt.Errorf("want one experiment name (see --list)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if list {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				for _, e := range experiment.Catalog() {
					fmt.Fprintf(tw, "%s\tseed %s\t%s\n", e.Name, e.Seed, e.Title)
				}
				return tw.Flush()
			}
			e, err := experiment.Lookup(args[0])
			if err != nil {
				return &exitError{2, err}
			}
			if runs < 0 {
				return &exitError{2, fmt.Errorf("--runs must be positive")}
			}
			rep, err := e.Run(experiment.Options{Runs: runs, BaseSeed: seed, Variants: variants})
			if err != nil {
				return err
			}
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "report.json"), rep); err != nil {
					return err
				}
			}
			if asJSON {
				return rep.WriteJSON(w)
			}
			rep.PrintTable(w, e)
			return nil
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the experiments")
	cmd.Flags().IntVar(&runs, "runs", 0, "runs per variant (default: the experiment's own)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of the table")
	cmd.Flags().StringVar(&out, "out", "", "write report.json (and, later, plots and index.html) into this directory")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the first run")
	cmd.Flags().StringSliceVar(&variants, "variant", nil, "run only these variants (repeatable)")
	return cmd
}
