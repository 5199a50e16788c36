package report

import (
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/internal/browsertest"
)

// writeTestPage renders a page from the synthetic report, its summary
// charts and the synthetic run's plots (as variant "aimd", in a
// subdirectory as `ndncc experiment --out` lays them out) into a fresh
// directory, and returns it.
func writeTestPage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	e, rep := testExperiment(), testReport()
	summary, err := SummaryCharts(dir, rep, e.Columns)
	if err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "aimd")
	if err := os.Mkdir(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeRunTraces(t, runDir)
	traces, err := PlotRun(runDir, PlotOptions{Title: "aimd"})
	if err != nil {
		t.Fatal(err)
	}
	page := NewPage(e, rep)
	page.Parameters = []Param{{"topology", "linear.conf"}, {"bottleneck", "5 Mbit/s, 10 ms, queue 32 packets"}}
	page.Version, page.GoVersion = "v0.0.0-test", "go1.26"
	page.Summary = summary
	page.Variants = []VariantPlots{{Name: "aimd", Files: traces}}
	if err := WriteHTML(dir, page); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWriteHTML(t *testing.T) {
	dir := writeTestPage(t)
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, s := range []string{
		"<title>test-exp — a test experiment</title>",
		"Two variants &amp; one &lt;tricky&gt; description.",
		"<dt>Seeds</dt><dd>7–9</dd>",
		"<dt>ndncc</dt><dd>v0.0.0-test</dd>",
		`<th scope="row">bottleneck</th><td>5 Mbit/s, 10 ms, queue 32 packets</td>`,
		`<th colspan="2">time (s)</th>`,
		`<th scope="rowgroup" rowspan="2">aimd</th><th scope="row">c1</th><td>24.7 (24.5–25.0)</td><td class="paper">24.5–25.0</td>`,
		`<a href="aimd/cwnd.svg">SVG</a>`,
		`<a href="summary-fairness.svg">SVG</a>`,
		// aimd c2's 12 retransmissions lie outside the seed's 250.
		`<td class="out" title="outside the paper's range">12 ✗</td><td class="paper">250</td>`,
		`<p class="fidelity" id="fidelity">2 of 3 cells within the paper&#39;s range as printed (±10% for a single number); 2 of 3 within it widened by 10%.</p>`,
	} {
		if !strings.Contains(html, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	// 3 summary charts and 5 trace charts, each embedded once as a PNG.
	imgs := regexp.MustCompile(`<img src="([^"]{0,40})`).FindAllStringSubmatch(html, -1)
	if len(imgs) != 8 {
		t.Errorf("%d images, want 8", len(imgs))
	}
	for _, m := range imgs {
		if !strings.HasPrefix(m[1], "data:image/png;base64,") {
			t.Errorf("image source %q is not an embedded PNG", m[1])
		}
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
		t.Error("index.html refers to the network")
	}
}

func TestWriteHTMLErrors(t *testing.T) {
	dir := t.TempDir()
	txt := writeFile(t, dir, "notes.txt", "x")
	svg := writeFile(t, dir, "only.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`)
	if err := WriteHTML(dir, Page{Summary: []string{svg}}); err != nil {
		t.Errorf("an SVG without PNG: %v", err)
	}
	tests := []struct {
		name string
		page Page
		err  string
	}{
		{"missing image", Page{Summary: []string{filepath.Join(dir, "gone.png")}},
			"html report: open " + filepath.Join(dir, "gone.png") + ": no such file or directory"},
		{"not an image", Page{Variants: []VariantPlots{{Name: "v", Files: []string{txt}}}},
			"html report: " + txt + ": not a PNG or SVG image"},
		{"corrupt PNG", Page{Summary: []string{writeFile(t, dir, "bad.png", "not a png")}},
			"html report: " + filepath.Join(dir, "bad.png") + ": png: invalid format: not a PNG file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := WriteHTML(dir, tt.page); err == nil || err.Error() != tt.err {
				t.Errorf("error = %v\nwant    %s", err, tt.err)
			}
		})
	}
}

// TestHTMLInChromium opens the page in headless Chromium and checks what
// the page's own load-time script recorded: every image decoded, and the
// table's rows. Without a Chromium binary the test is skipped, except in
// CI (CI=true), where it fails. NDNCC_REPORT_SCREENSHOT=FILE.png keeps the
// screenshot it takes for people to look at.
func TestHTMLInChromium(t *testing.T) {
	browser := browsertest.Chromium(t)
	dir := writeTestPage(t)
	url := "file://" + filepath.Join(dir, "index.html")

	dom := browsertest.Run(t, browser, "--dump-dom", url)
	body := regexp.MustCompile(`<body[^>]*>`).FindString(dom)
	if !strings.Contains(body, `data-images-ok="8/8"`) || !strings.Contains(body, `data-table-rows="3"`) {
		t.Errorf("rendered page reports %s, want data-images-ok=\"8/8\" and data-table-rows=\"3\"", body)
	}
	if !strings.Contains(dom, "24.7 (24.5–25.0)") {
		t.Error("rendered DOM lacks the table cell 24.7 (24.5–25.0)")
	}

	shot := os.Getenv("NDNCC_REPORT_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "index.png")
	}
	browsertest.Run(t, browser, "--screenshot="+shot, "--window-size=1200,3000", url)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 3000 {
		t.Errorf("screenshot is %dx%d, want 1200x3000", b.Dx(), b.Dy())
	}
	colours := map[uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 7 {
		for x := 0; x < img.Bounds().Dx(); x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>11<<10|g>>11<<5|b>>11] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("screenshot has %d distinct colours; the page did not render its charts", len(colours))
	}
	t.Logf("screenshot: %s", shot)
}
