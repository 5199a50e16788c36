package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/internal/atomicfile"
)

//go:embed page.html.tmpl
var pageTemplate string

// Page is everything index.html shows. Images are files (PNG or SVG, as
// PlotRun and SummaryCharts return them) that WriteHTML embeds; when both
// NAME.png and NAME.svg are listed, the PNG is embedded and the SVG linked.
type Page struct {
	// Title heads the page.
	Title string
	// Experiment is the catalog name, e.g. "seed000-linear".
	Experiment string
	// SeedDocument names the paper reproduced, e.g. "000".
	SeedDocument string
	// Description says what is run and what to look for.
	Description string
	// Parameters describe the scenario, in the order given: those every
	// variant shares; VariantParameters holds the ones that differ.
	Parameters        []Param
	VariantParameters []VariantParams
	// Topologies are drawings of the network (DrawTopology's SVG files),
	// each with a caption (the variants that use it, for an experiment).
	Topologies []Drawing
	// Tables are shown after the results table: a run's flows and links.
	Tables []Table
	// Version is ndncc's version; GoVersion the Go toolchain's.
	Version, GoVersion string
	// Report supplies the table, the runs and the seeds; nil for a page
	// of plots without a table.
	Report *experiment.Report
	// Columns of the table, as the experiment prints them.
	Columns []experiment.Column
	// Findings are the experiment's qualitative claims checked against
	// Report, shown under the table.
	Findings []experiment.FindingResult
	// Fidelity counts the cells within the paper's range; the page states
	// it under the table for an experiment that reproduces a paper
	// (SeedDocument) or has the paper's figures.
	Fidelity experiment.Fidelity
	// Summary lists the summary charts, shown after the table.
	Summary []string
	// Variants lists each variant's trace plots, shown last, one section
	// per variant under its name.
	Variants []VariantPlots
}

// Param is one scenario parameter.
type Param struct{ Key, Value string }

// VariantParams are the parameters of one variant that not every variant
// shares.
type VariantParams struct {
	Variant string
	Params  []Param
}

// Drawing is an image file with a caption.
type Drawing struct{ File, Caption string }

// Table is a table of text cells; Caption says what it shows.
type Table struct {
	Title, Caption string
	Header         []string
	Rows           [][]string
}

// VariantPlots are one variant's trace plots (PlotRun's files for a
// traced run of that variant); Run says which run they show.
type VariantPlots struct {
	Name  string
	Run   string
	Files []string
}

// NewPage fills a Page's description of an experiment and its table from
// the catalog entry and its report; the caller adds Parameters, versions
// and plots.
func NewPage(e *experiment.Experiment, rep *experiment.Report) Page {
	return Page{
		Title:        fmt.Sprintf("%s — %s", e.Name, e.Title),
		Experiment:   e.Name,
		SeedDocument: paperText(e.Seed),
		Description:  e.Description,
		Report:       rep,
		Columns:      e.Columns,
		Findings:     rep.CheckFindings(e),
		Fidelity:     rep.Fidelity(e),
	}
}

// paperText names paper id with its citation ("" for none).
func paperText(id string) string {
	if id == "" {
		return ""
	}
	if c := experiment.PaperCitation(id); c != "" {
		return id + ": " + c
	}
	return id
}

// pageData is what the template renders.
type pageData struct {
	Title, Experiment, SeedDocument, Description string
	Parameters                                   []Param
	VariantParameters                            []VariantParams
	Topologies                                   []figureData
	Tables                                       []Table
	Version, GoVersion                           string
	Runs                                         int
	Seeds                                        string
	Table                                        *table
	Findings                                     []experiment.FindingResult
	Fidelity                                     string
	Summary                                      []figureData
	Groups                                       []groupData
}

type groupData struct {
	Name, Description, Run string
	Figures                []figureData
}

type figureData struct {
	Src           template.URL // a data: URI built here
	Name          string
	Caption       string // shown instead of Name when set
	SVG           string // relative link to the SVG version, if any
	Width, Height int    // PNG size in pixels (0 for SVG)
}

// WriteHTML writes dir/index.html: one self-contained page (inline CSS,
// images as data: URIs, no network needed) with what was run, the table
// beside the seed's figures, the summary charts and each variant's plots.
func WriteHTML(dir string, page Page) error {
	tmpl, err := template.New("page").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	data := pageData{
		Title: page.Title, Experiment: page.Experiment, SeedDocument: page.SeedDocument,
		Description: page.Description, Parameters: page.Parameters, VariantParameters: page.VariantParameters,
		Tables: page.Tables, Version: page.Version, GoVersion: page.GoVersion,
		Findings: page.Findings,
	}
	if page.Report != nil && (page.Fidelity.Cells > 0 || page.SeedDocument != "") {
		data.Fidelity = page.Fidelity.String()
	}
	for _, d := range page.Topologies {
		figs, err := figures(dir, []string{d.File})
		if err != nil {
			return err
		}
		figs[0].Caption = d.Caption
		data.Topologies = append(data.Topologies, figs...)
	}
	if data.Title == "" {
		data.Title = "ndncc report"
	}
	descriptions := map[string]string{}
	if rep := page.Report; rep != nil {
		data.Runs = rep.Runs
		data.Seeds = seedList(rep)
		t := buildTable(rep, page.Columns)
		data.Table = &t
		for _, v := range rep.Variants {
			descriptions[v.Name] = v.Description
		}
	}
	if data.Summary, err = figures(dir, page.Summary); err != nil {
		return err
	}
	for _, v := range page.Variants {
		figs, err := figures(dir, v.Files)
		if err != nil {
			return err
		}
		data.Groups = append(data.Groups, groupData{Name: v.Name, Description: descriptions[v.Name], Run: v.Run, Figures: figs})
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, "index.html"), buf.Bytes())
}

// figures embeds image files; an SVG whose PNG is also listed becomes
// that PNG's link instead.
func figures(dir string, files []string) ([]figureData, error) {
	listed := map[string]bool{}
	for _, f := range files {
		listed[f] = true
	}
	var out []figureData
	for _, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		stem := strings.TrimSuffix(f, filepath.Ext(f))
		if ext == ".svg" && listed[stem+".png"] {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("html report: %w", err)
		}
		fd := figureData{Name: filepath.Base(stem)}
		switch ext {
		case ".png":
			cfg, err := png.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				return nil, fmt.Errorf("html report: %s: %w", f, err)
			}
			// In CSS pixels: the PNG is drawn at pngDPI.
			fd.Width, fd.Height = cfg.Width*96/pngDPI, cfg.Height*96/pngDPI
			fd.Src = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b))
			if listed[stem+".svg"] {
				if rel, err := filepath.Rel(dir, stem+".svg"); err == nil {
					fd.SVG = filepath.ToSlash(rel)
				}
			}
		case ".svg":
			fd.Src = template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b))
		default:
			return nil, fmt.Errorf("html report: %s: not a PNG or SVG image", f)
		}
		out = append(out, fd)
	}
	return out, nil
}

// seedList lists the seeds of every run, with consecutive ones as ranges
// ("1–5, 9"); a report without per-run records uses BaseSeed and Runs.
func seedList(rep *experiment.Report) string {
	seen := map[uint64]bool{}
	var seeds []uint64
	for _, v := range rep.Variants {
		for _, r := range v.Runs {
			if !seen[r.Seed] {
				seen[r.Seed] = true
				seeds = append(seeds, r.Seed)
			}
		}
	}
	if len(seeds) == 0 {
		for i := 0; i < rep.Runs; i++ {
			seeds = append(seeds, rep.BaseSeed+uint64(i))
		}
	}
	sort.Slice(seeds, func(i, j int) bool { return seeds[i] < seeds[j] })
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprint(seeds[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", seeds[i], seeds[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
