package report

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// pngCanvas writes a PNG of the canvas as drawn, and counts what it wrote.
func TestPNGCanvasWritesWhatWasDrawn(t *testing.T) {
	c := pngCanvas{vgimg.NewWith(vgimg.UseWH(2*vg.Inch, vg.Inch), vgimg.UseDPI(96))}
	dc := draw.New(c)
	red := color.RGBA{R: 255, A: 255}
	dc.FillPolygon(red, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	var buf bytes.Buffer
	n, err := c.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Errorf("WriteTo counted %d bytes, wrote %d", n, buf.Len())
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 192 || b.Dy() != 96 {
		t.Errorf("image %v, want 192x96 pixels (2 x 1 inches at 96 dpi)", b)
	}
	if r, g, b, a := img.At(96, 48).RGBA(); r>>8 != 255 || g != 0 || b != 0 || a>>8 != 255 {
		t.Errorf("centre pixel %v %v %v %v, want opaque red", r, g, b, a)
	}
}
