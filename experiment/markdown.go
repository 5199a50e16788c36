package experiment

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the experiment's table as Markdown: one row per
// variant and flow, each column "ours (min–max)" beside the paper's figure,
// cells outside the paper's range marked; then the findings and the
// fidelity line.
func (r *Report) WriteMarkdown(w io.Writer, e *Experiment) {
	rows := r.rows(e, func(v VariantResult) string { return "`" + v.Name + "`" })
	fmt.Fprintf(w, "| %s |\n", strings.Join(rows[0], " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(rows[0])))
	for _, row := range rows[1:] {
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
	r.writeLiveNotes(w)
	r.writeFidelity(w, e, true)
}
