package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandHasExamples: every command's help has an Examples
// section, and every ndncc command line in it names a command that exists
// with flags that command accepts.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		t.Run(c.CommandPath(), func(t *testing.T) {
			if strings.TrimSpace(c.Example) == "" {
				t.Fatalf("%s has no examples", c.CommandPath())
			}
			for _, line := range strings.Split(c.Example, "\n") {
				args := exampleArgs(line)
				if args == nil {
					continue
				}
				root := newRoot()
				cmd, rest, err := root.Find(args)
				if err != nil {
					t.Errorf("%q: %v", line, err)
					continue
				}
				if err := cmd.ParseFlags(rest); err != nil {
					t.Errorf("%q: %s: %v", line, cmd.CommandPath(), err)
				}
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}

// exampleArgs returns the arguments after "ndncc" in an example line (its
// shell words, single and double quotes removed, up to a pipe, a
// redirection, an & or a comment), or nil when the line runs no ndncc
// command of its own.
func exampleArgs(line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, inWord = ch, true
		case ch == ' ' || ch == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '#' && !inWord, ch == '|', ch == '>', ch == '&', ch == ';', ch == '<':
			if inWord {
				words = append(words, cur.String())
			}
			return afterNdncc(words)
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return afterNdncc(words)
}

func afterNdncc(words []string) []string {
	for i, w := range words {
		if w == "ndncc" {
			return words[i+1:]
		}
	}
	return nil
}
