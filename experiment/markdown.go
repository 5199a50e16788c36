package experiment

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the experiment's table as Markdown: one row per
// variant and flow, each column "ours (min–max)" beside the paper's figure.
func (r *Report) WriteMarkdown(w io.Writer, e *Experiment) {
	hdr := []string{"variant", "flow"}
	for _, c := range e.Columns {
		hdr = append(hdr, c.Header, "paper")
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(hdr, " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(hdr)))
	for _, v := range r.Variants {
		for i, f := range v.Flows {
			row := []string{"`" + v.Name + "`", f.ID}
			for _, c := range e.Columns {
				row = append(row, v.Cell(c, i, r.Runs), v.SeedFigure(c.Key, i))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
}
