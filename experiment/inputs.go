package experiment

import (
	"fmt"
	"io"
	"strings"
)

// Input is one input of an experiment (a rate, a delay, a queue, a
// parameter of the consumer) and where its value comes from.
type Input struct {
	// Name says what is set: a scenario key, a parameter, or a short
	// description ("bottleneck link").
	Name string
	// Value is the value, as the scenario or the profile sets it.
	Value string
	// Source names the value's source, in one of three forms (SourceKinds):
	// a line of the paper ("seed 000, line 114: `router1:router2 ...`"), a
	// measurement or the code of the reference stack ("reference stack:
	// ndn-cxx 0.9.0 ..."), or a choice ("chosen, because ...").
	Source string
}

// SourceKinds are the prefixes an Input's Source starts with: a line of the
// paper, the reference stack (NFD, ndn-cxx, ndn-tools, or the code a paper
// ran), or a choice with its reason.
var SourceKinds = []string{"seed ", "reference stack: ", "chosen, because "}

// Kind returns which of SourceKinds the input's source is ("seed",
// "reference stack", "chosen"), or "" if it is none of them.
func (in Input) Kind() string {
	for _, k := range SourceKinds {
		if strings.HasPrefix(in.Source, k) {
			return strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(k), ":"), ", because")
		}
	}
	return ""
}

// CheckInputs reports an error naming every input of e whose source is of
// none of the SourceKinds, and an experiment of a paper without inputs.
func (e *Experiment) CheckInputs() error {
	var bad []string
	if e.Seed != "" && len(e.Inputs) == 0 {
		bad = append(bad, "no inputs listed")
	}
	for _, in := range e.Inputs {
		if in.Name == "" || in.Value == "" || in.Kind() == "" {
			bad = append(bad, fmt.Sprintf("input %q = %q: source %q does not start with one of %q", in.Name, in.Value, in.Source, SourceKinds))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: %s", e.Name, strings.Join(bad, "; "))
	}
	return nil
}

// WriteInputs writes e's inputs with their sources: a Markdown table when
// md, else one paragraph per input for a terminal.
func (e *Experiment) WriteInputs(w io.Writer, md bool) {
	if len(e.Inputs) == 0 {
		fmt.Fprintf(w, "%s lists no inputs.\n", e.Name)
		return
	}
	if md {
		fmt.Fprintf(w, "| input | value | source |\n|---|---|---|\n")
		for _, in := range e.Inputs {
			fmt.Fprintf(w, "| %s | %s | %s |\n", mdCell(in.Name), mdCell(in.Value), mdCell(in.Source))
		}
		return
	}
	fmt.Fprintf(w, "%s — the inputs and their sources\n\n", e.Name)
	for _, in := range e.Inputs {
		fmt.Fprintf(w, "%s = %s\n    %s\n", in.Name, in.Value, in.Source)
	}
}

// mdCell makes s safe in a Markdown table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
