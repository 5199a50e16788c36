package browsertest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckLayout shows the check can fail: pages built to overlap or
// overflow are caught, and a clean page passes.
func TestCheckLayout(t *testing.T) {
	browser := Chromium(t)
	svg := func(y2 int) string {
		return `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">` +
			`<text x="10" y="50" font-family="Liberation Sans" font-size="14">aimd-droptail flow1</text>` +
			`<text x="60" y="` + strconv.Itoa(y2) + `" font-family="Liberation Sans" font-size="14">cubic-codel flow2</text></svg>`
	}
	tests := []struct {
		name     string
		body     string
		svg      string
		problems []string // substrings, one per expected problem; none: a clean page
	}{
		{"clean page", `<p>one line</p><p>another line</p><table><tr><td>a</td><td>b</td></tr></table>`, "", nil},
		{"overlapping HTML text",
			`<div style="position:relative"><span style="position:absolute;left:0;top:0">aimd-droptail flow1</span>` +
				`<span style="position:absolute;left:30px;top:4px">cubic-codel flow2</span></div>`, "",
			[]string{`page: "aimd-droptail flow1" overlaps "cubic-codel flow2"`}},
		{"page wider than the window", `<table><tr><td style="white-space:nowrap">` + strings.Repeat("wide cell ", 300) + `</td></tr></table>`, "",
			[]string{"px wide at a 1280-px window"}},
		{"overlapping SVG labels", `<figure><a href="fig.svg">SVG</a></figure>`, svg(54),
			[]string{`fig.svg: "aimd-droptail flow1" overlaps "cubic-codel flow2"`}},
		{"separate SVG labels", `<figure><a href="fig.svg">SVG</a></figure>`, svg(150), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.svg != "" {
				if err := os.WriteFile(filepath.Join(dir, "fig.svg"), []byte(tc.svg), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			page := filepath.Join(dir, "index.html")
			doc := `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>` + tc.body + `</body></html>`
			if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			l := CheckLayout(t, browser, page)
			if l.Texts == 0 {
				t.Fatal("no text measured")
			}
			got := l.Problems()
			if len(got) != len(tc.problems) {
				t.Fatalf("problems %q, want %d like %q", got, len(tc.problems), tc.problems)
			}
			for i, want := range tc.problems {
				if !strings.Contains(got[i], want) {
					t.Errorf("problem %q, want one containing %q", got[i], want)
				}
			}
		})
	}
}

// TestLayoutOfPages checks the pages named in $NDNCC_LAYOUT_PAGES
// (separated by spaces), such as an index.html that ndncc wrote with
// --out; without it the test is skipped.
func TestLayoutOfPages(t *testing.T) {
	pages := strings.Fields(os.Getenv("NDNCC_LAYOUT_PAGES"))
	if len(pages) == 0 {
		t.Skip("NDNCC_LAYOUT_PAGES names no page")
	}
	browser := Chromium(t)
	for _, p := range pages {
		l := CheckLayout(t, browser, p)
		t.Logf("%s: %d px wide, %d text boxes, %d SVG figures", p, l.ScrollWidth, l.Texts, l.SVGs)
		for _, problem := range l.Problems() {
			t.Errorf("%s: %s", p, problem)
		}
	}
}
