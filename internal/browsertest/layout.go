package browsertest

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ViewportWidth is the window width, in CSS pixels, at which CheckLayout
// lays a page out: a laptop's screen. A page must not be wider.
const ViewportWidth = 1280

// Layout is what CheckLayout measured on a page and its SVG figures.
type Layout struct {
	// ScrollWidth is the page's document.documentElement.scrollWidth at
	// a ViewportWidth-pixel window.
	ScrollWidth int `json:"scrollWidth"`
	// Texts counts the text boxes compared: the page's lines of text and
	// the SVG figures' text elements.
	Texts int `json:"texts"`
	// SVGs counts the SVG figures laid out.
	SVGs int `json:"svgs"`
	// Overlaps names every pair of text boxes that overlap, as
	// "WHERE: "A" overlaps "B"".
	Overlaps []string `json:"overlaps"`
	// Body is the page's <body ...> tag once loaded, with what its own
	// load-time script recorded (as Body returns it).
	Body string `json:"-"`
}

// Problems lists what a reader would see wrong: a page wider than the
// window, and every pair of overlapping texts.
func (l Layout) Problems() []string {
	var out []string
	if l.ScrollWidth > ViewportWidth {
		out = append(out, fmt.Sprintf("page is %d px wide at a %d-px window", l.ScrollWidth, ViewportWidth))
	}
	return append(out, l.Overlaps...)
}

// CheckLayout lays out the HTML page at path in headless Chromium at a
// ViewportWidth-pixel window and measures it: its width, and the boxes
// of its text (each line of each text node) and of the text elements of
// every SVG file the page links to (laid out inline, after the page is
// measured). Two boxes overlap when they share more than two pixels
// each way (a box spans its font's whole height, more than its glyphs); the lines of one text node are not compared with each other,
// nor the texts of two different figures. It writes the page it lays out beside path
// (so that relative links still resolve) and removes it.
func CheckLayout(t testing.TB, browser, path string) Layout {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	// The page's SVG figures, inline in a template the script lays out
	// once it has measured the page.
	var b strings.Builder
	b.WriteString(`<template id="layout-svgs">`)
	seen := map[string]bool{}
	for _, m := range svgLink.FindAllStringSubmatch(string(page), -1) {
		name := html.UnescapeString(m[1])
		if seen[name] || strings.Contains(name, "://") {
			continue
		}
		seen[name] = true
		svg, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("%s links to %s: %v", path, name, err)
		}
		s := string(svg)
		if i := strings.Index(s, "<svg"); i >= 0 {
			s = s[i:]
		}
		fmt.Fprintf(&b, "<div class=\"svg-host\" data-file=\"%s\">%s</div>\n", html.EscapeString(name), s)
	}
	b.WriteString("</template>\n<script>\n" + layoutScript + "\n</script>\n")
	doc := string(page)
	if i := strings.LastIndex(doc, "</body>"); i >= 0 {
		doc = doc[:i] + b.String() + doc[i:]
	} else {
		doc += b.String()
	}
	file := filepath.Join(dir, ".layout-check.html")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(file)
	dom := Run(t, browser, fmt.Sprintf("--window-size=%d,900", ViewportWidth), "--hide-scrollbars", "--dump-dom", "file://"+file)
	m := resultRE.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("%s: the layout script wrote no result", path)
	}
	var l Layout
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
		t.Fatalf("%s: layout result: %v", path, err)
	}
	l.Body = bodyTag.FindString(dom)
	return l
}

// bodyTag matches a page's <body> tag.
var bodyTag = regexp.MustCompile(`<body[^>]*>`)

// svgLink matches a link to an SVG file.
var svgLink = regexp.MustCompile(`href="([^"]+\.svg)"`)

// resultRE finds what the measuring script wrote.
var resultRE = regexp.MustCompile(`(?s)<pre id="layout-result"[^>]*>(.*?)</pre>`)

// layoutScript measures the page once it has loaded and appends its
// result, a Layout as JSON, in <pre id="layout-result">.
const layoutScript = `
window.addEventListener("load", function () {
  var boxes = [], overlaps = [], svgs = 0;
  function label(s) { s = s.replace(/\s+/g, " ").trim(); return s.length > 40 ? s.slice(0, 40) + "…" : s; }
  // The page's text: every line box of every visible text node outside
  // SVG (the figures' PNG copies have none).
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var node, id = 0;
  while ((node = walker.nextNode())) {
    if (!node.textContent.trim()) continue;
    var p = node.parentElement;
    if (!p || p.closest("script,style,svg")) continue;
    var r = document.createRange();
    r.selectNodeContents(node);
    var rects = r.getClientRects();
    id++;
    for (var i = 0; i < rects.length; i++) {
      if (rects[i].width > 0 && rects[i].height > 0) {
        boxes.push({id: id, group: "page", text: node.textContent, r: rects[i]});
      }
    }
  }
  var width = document.documentElement.scrollWidth;
  // The figures' text: each SVG text element, compared within its figure,
  // laid out once the page is measured.
  var tmpl = document.getElementById("layout-svgs"), box = document.createElement("div");
  box.style.position = "absolute"; box.style.left = "0"; box.style.top = "0";
  if (tmpl) box.appendChild(tmpl.content.cloneNode(true));
  document.body.appendChild(box);
  var hosts = box.querySelectorAll(".svg-host");
  for (var h = 0; h < hosts.length; h++) {
    svgs++;
    var texts = hosts[h].querySelectorAll("text");
    for (var k = 0; k < texts.length; k++) {
      if (!texts[k].textContent.trim()) continue;
      id++;
      boxes.push({id: id, group: hosts[h].dataset.file, text: texts[k].textContent, r: texts[k].getBoundingClientRect()});
    }
  }
  // A sweep from top to bottom: each box is compared with the boxes of
  // its group that start above its bottom and end below its top.
  boxes.sort(function (p, q) { return p.r.top - q.r.top; });
  for (var a = 0; a < boxes.length; a++) {
    for (var b = a + 1; b < boxes.length && boxes[b].r.top < boxes[a].r.bottom - 2; b++) {
      var x = boxes[a], y = boxes[b];
      if (x.id === y.id || x.group !== y.group) continue;
      var w = Math.min(x.r.right, y.r.right) - Math.max(x.r.left, y.r.left);
      var hh = Math.min(x.r.bottom, y.r.bottom) - Math.max(x.r.top, y.r.top);
      if (w > 2 && hh > 2) {
        overlaps.push((x.group === "page" ? "page: " : x.group + ": ") + JSON.stringify(label(x.text)) + " overlaps " + JSON.stringify(label(y.text)) +
          " (" + Math.round(w) + "x" + Math.round(hh) + " px)");
      }
    }
  }
  var pre = document.createElement("pre");
  pre.id = "layout-result";
  pre.style.display = "none";
  box.remove();
  pre.textContent = JSON.stringify({scrollWidth: width, texts: boxes.length, svgs: svgs, overlaps: overlaps});
  document.body.appendChild(pre);
});
`
