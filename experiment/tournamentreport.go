package experiment

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// PrintTable writes, per arena, one line per pipeline: completion time
// over the limit, queueing delay, retransmissions, timeouts, Jain.
func (r *TournamentReport) PrintTable(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "arena\tpipeline\ttime (s)\tover limit\tqueue (ms)\tretx\ttimeouts\tmarks\tJain\t")
	for i, a := range r.Arenas {
		for j, p := range r.Pipelines {
			c := r.Cells[i][j]
			if c.NotRun != "" {
				fmt.Fprintf(tw, "%s\t%s\tnot run\t\t\t\t\t\t\t\n", a.Name, p)
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\t%d\t%d\t%d\t%s\t\n", a.Name, p, timeText(c), overText(c), c.QueueMs, c.Retransmissions, c.Timeouts, c.Marks, jainText(c.Jain))
		}
	}
	tw.Flush()
}

func timeText(c TournamentCell) string {
	if !c.Complete {
		return fmt.Sprintf("(%.1f)", c.TimeS)
	}
	return fmt.Sprintf("%.2f", c.TimeS)
}

func overText(c TournamentCell) string {
	if !c.Complete {
		return "incomplete"
	}
	return fmt.Sprintf("%.3f", c.OverLimit)
}

func jainText(j float64) string {
	if j == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", j)
}

// Markdown writes the report as markdown: the arenas, a summary table
// of completion time over the limit and of queueing delay (pipeline x
// arena), each arena's full table, and where pipeline neither wins nor
// ties on time or on queueing delay.
func (r *TournamentReport) Markdown(w io.Writer, pipeline string) {
	fmt.Fprintf(w, "### Arenas\n\n| arena | what | limit (s) |\n|---|---|---|\n")
	for _, a := range r.Arenas {
		doc := a.Doc
		if a.NoProcessing {
			doc += " (forwarders take no processing time)"
		}
		fmt.Fprintf(w, "| %s | %s | %.2f |\n", a.Name, doc, a.LimitS)
	}
	head := "| arena | " + strings.Join(r.Pipelines, " | ") + " |\n|---|" + strings.Repeat("---|", len(r.Pipelines)) + "\n"
	fmt.Fprintf(w, "\n### Completion time over the limit\n\nBold: the fastest, and every pipeline within %.0f%% of it.\n\n%s", TimeTie*100, head)
	for i, a := range r.Arenas {
		var cells []string
		for j := range r.Pipelines {
			c := r.Cells[i][j]
			s := overText(c)
			if b := fastest(r.Cells[i]); c.Complete && c.TimeS <= r.Cells[i][b].TimeS*(1+TimeTie) {
				s = "**" + s + "**"
			}
			cells = append(cells, s)
		}
		fmt.Fprintf(w, "| %s | %s |\n", a.Name, strings.Join(cells, " | "))
	}
	fmt.Fprintf(w, "\n### Mean queueing delay (ms)\n\nMean RTT minus the least RTT any pipeline saw on the flow's path, averaged over the flows. Bold: the lowest among the pipelines that completed within %.0f%% of the fastest, and every such pipeline within %.0f%% (or %.1f ms) of it.\n\n%s", QueueFieldTime*100, QueueTie*100, QueueTieMs, head)
	for i, a := range r.Arenas {
		li := lowestQueue(r.Cells[i])
		low := math.Inf(-1)
		if li >= 0 {
			low = r.Cells[i][li].QueueMs
		}
		best := r.Cells[i][max(fastest(r.Cells[i]), 0)]
		var cells []string
		for j := range r.Pipelines {
			c := r.Cells[i][j]
			s := fmt.Sprintf("%.1f", c.QueueMs)
			if c.Complete && c.TimeS <= best.TimeS*(1+QueueFieldTime) && (c.QueueMs <= low*(1+QueueTie) || c.QueueMs <= low+QueueTieMs) {
				s = "**" + s + "**"
			}
			cells = append(cells, s)
		}
		fmt.Fprintf(w, "| %s | %s |\n", a.Name, strings.Join(cells, " | "))
	}
	fmt.Fprintf(w, "\n### Retransmissions / timeouts / Jain's index\n\n%s", head)
	for i, a := range r.Arenas {
		var cells []string
		for j := range r.Pipelines {
			c := r.Cells[i][j]
			cells = append(cells, fmt.Sprintf("%d / %d / %s", c.Retransmissions, c.Timeouts, jainText(c.Jain)))
		}
		fmt.Fprintf(w, "| %s | %s |\n", a.Name, strings.Join(cells, " | "))
	}
	var lost []string
	verdicts := r.Verdicts(pipeline)
	wins, lows := Score(verdicts)
	for _, v := range verdicts {
		if v.TimeOK && v.QueueOK {
			continue
		}
		var why []string
		if !v.TimeOK {
			why = append(why, fmt.Sprintf("time %s over the limit against %s's %s", overText(v.Cell), v.Best, overText(v.BestCell)))
		}
		if !v.QueueOK {
			why = append(why, fmt.Sprintf("queueing %.1f ms against %s's %.1f ms", v.Cell.QueueMs, v.LowestQueue, v.LowestQueueMs))
		}
		lost = append(lost, fmt.Sprintf("- %s: %s", v.Arena, strings.Join(why, "; ")))
	}
	fmt.Fprintf(w, "\n### %s\n\nWins or ties (within %.0f%%) on completion time in %d of %d arenas; lowest or within %.0f%% of the lowest queueing delay in %d of %d.\n",
		pipeline, TimeTie*100, wins, len(verdicts), QueueTie*100, lows, len(verdicts))
	if len(lost) > 0 {
		fmt.Fprintf(w, "Where it does not:\n\n%s\n", strings.Join(lost, "\n"))
	}
}
