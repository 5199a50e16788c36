package report

import (
	"bufio"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Figure size: 8 x 4 inches; PNGs are drawn at pngDPI, 1536 x 768
// pixels, sharp when the page shows them as wide as the text (768 CSS
// pixels and more).
const (
	figureWidth  = 8 * vg.Inch
	figureHeight = 4 * vg.Inch
	pngDPI       = 192
)

// sans is the typeface of every text in a figure.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// palette is the Okabe–Ito palette, which stays distinguishable for
// colour-blind readers and in greyscale print.
var palette = [...]color.RGBA{
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermillion
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{0, 0, 0, 255},       // black
}

// seriesColor is the i-th colour of the palette, repeating past its seven.
func seriesColor(i int) color.Color {
	return palette[i%len(palette)]
}

// seriesStyle is how the i-th series of a figure is drawn: the i-th
// colour and, each time the palette's seven colours repeat, another dash
// pattern and marker, so that no two of up to 28 series look alike.
type seriesStyle struct {
	color  color.Color
	dashes []vg.Length // nil: solid
	glyph  draw.GlyphDrawer
}

// styleOf returns the style of series i.
func styleOf(i int) seriesStyle {
	round := i / len(palette)
	dashes := [][]vg.Length{
		nil,
		{vg.Points(6), vg.Points(3)},
		{vg.Points(1.5), vg.Points(2.5)},
		{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)},
	}
	glyphs := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}
	return seriesStyle{color: seriesColor(i), dashes: dashes[round%len(dashes)], glyph: glyphs[round%len(glyphs)]}
}

// lineStyle is the series' line style at width w.
func (s seriesStyle) lineStyle(w vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: s.color, Width: w, Dashes: s.dashes}
}

// glyphStyle is the series' marker at radius r.
func (s seriesStyle) glyphStyle(r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.color, Radius: r, Shape: s.glyph}
}

// newPlot returns a plot with the house style: sans-serif text sized for
// an 8-inch figure, axis labels and a light grid.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
		a.Tick.Marker = niceTicks{}
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(g)
	return p
}

// newLegend returns an empty legend in the house style.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 10)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(2)
	return l
}

// panel is one chart of a figure and the legend drawn beside it.
type panel struct {
	plot   *plot.Plot
	legend plot.Legend
	weight float64 // share of the figure's height
}

// figure is one image: panels stacked top to bottom with their x axes
// aligned and their legends in a column on the right, outside the data.
type figure struct {
	panels []panel
}

func (f *figure) draw(c draw.Canvas) {
	c.FillPolygon(color.White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	pad := vg.Points(8)
	var legendW vg.Length
	for _, p := range f.panels {
		r := p.legend.Rectangle(c)
		if w := r.Max.X - r.Min.X; w > legendW {
			legendW = w
		}
	}
	if legendW > 0 {
		legendW += 2 * pad
	}
	var total float64
	for _, p := range f.panels {
		total += p.weight
	}
	height := c.Max.Y - c.Min.Y
	areas := make([]draw.Canvas, len(f.panels))
	top := c.Max.Y
	var left vg.Length
	for i, p := range f.panels {
		h := vg.Length(float64(height) * p.weight / total)
		areas[i] = draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Min.X, Y: top - h},
			Max: vg.Point{X: c.Max.X - legendW, Y: top},
		}}
		top -= h
		if off := p.plot.DataCanvas(areas[i]).Min.X - areas[i].Min.X; off > left {
			left = off
		}
	}
	for i, p := range f.panels {
		a := areas[i]
		a.Min.X += left - (p.plot.DataCanvas(a).Min.X - a.Min.X)
		p.plot.Draw(a)
		if legendW == 0 {
			continue
		}
		data := p.plot.DataCanvas(a)
		lc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Max.X - legendW + pad, Y: data.Min.Y},
			Max: vg.Point{X: c.Max.X - pad, Y: data.Max.Y},
		}}
		p.legend.Draw(lc)
	}
}

// save writes the figure as base.EXT for every format and returns the
// paths written.
func (f *figure) save(base string, formats []string) ([]string, error) {
	var out []string
	for _, format := range formats {
		path := base + "." + format
		var cw vg.CanvasWriterTo
		if format == "png" {
			cw = pngCanvas{vgimg.NewWith(vgimg.UseWH(figureWidth, f.height()), vgimg.UseDPI(pngDPI))}
		} else {
			var err error
			if cw, err = draw.NewFormattedCanvas(figureWidth, f.height(), format); err != nil {
				return out, fmt.Errorf("plot %s: %w", path, err)
			}
		}
		f.draw(draw.New(cw))
		if err := writeTo(path, cw); err != nil {
			return out, err
		}
		out = append(out, path)
	}
	return out, nil
}

// height is the standard height, taller when panels are stacked.
func (f *figure) height() vg.Length {
	if len(f.panels) > 1 {
		return figureHeight * 5 / 4
	}
	return figureHeight
}

func writeTo(path string, w vg.CanvasWriterTo) error {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write plot: %w", err)
	}
	if _, err := w.WriteTo(file); err != nil {
		file.Close()
		return fmt.Errorf("write plot %s: %w", path, err)
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("write plot %s: %w", path, err)
	}
	return nil
}

// pngCanvas is a raster canvas written as a PNG at the fastest deflate
// level (vgimg.PngCanvas uses the default one). A figure is mostly large
// areas of one colour, which that level compresses nearly as well: the
// ten points of a sweep's report wrote 5% more PNG bytes, and the command
// took 6.3 s instead of 7.6 (most of it drawing and encoding PNGs).
type pngCanvas struct{ *vgimg.Canvas }

// WriteTo implements vg.CanvasWriterTo.
func (c pngCanvas) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	b := bufio.NewWriter(cw) // the encoder writes each chunk's parts apart
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(b, c.Image()); err != nil {
		return cw.n, err
	}
	err := b.Flush()
	return cw.n, err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// checkFormats validates image formats; nil means PNG and SVG.
func checkFormats(formats []string) ([]string, error) {
	if len(formats) == 0 {
		return []string{"png", "svg"}, nil
	}
	for _, f := range formats {
		if f != "png" && f != "svg" {
			return nil, fmt.Errorf("unsupported plot format %q (want png or svg)", f)
		}
	}
	return formats, nil
}
