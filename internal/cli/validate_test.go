package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestValidationDocIsCurrent checks that docs/validation.md is what
// `ndncc experiment validate` writes from the stored runs, the reasons
// and the template, and that every difference has its reason.
func TestValidationDocIsCurrent(t *testing.T) {
	var got bytes.Buffer
	if err := writeValidation(&got, "../../docs/validation", "../../docs/validation/template.md", "../../docs/validation/reasons.toml"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../docs/validation.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if got.String() != doc {
		gl, dl := strings.Split(got.String(), "\n"), strings.Split(doc, "\n")
		for i := range max(len(gl), len(dl)) {
			if i >= len(gl) || i >= len(dl) || gl[i] != dl[i] {
				t.Fatalf("docs/validation.md is stale from line %d (run ndncc experiment validate --out docs/validation.md)", i+1)
			}
		}
	}
}
