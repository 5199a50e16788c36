package report

import (
	"fmt"
	"reflect"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/sim"
)

// table is an experiment's results table as the HTML page shows it: the
// cells of experiment.Report.PrintTable, grouped by variant.
type table struct {
	Columns []experiment.Column
	Groups  []tableGroup
}

// tableGroup is one variant: a row per flow.
type tableGroup struct {
	Variant, Description string
	Rows                 []tableRow
}

// tableRow is one flow of a variant.
type tableRow struct {
	Flow  string
	Cells []tableCell // one per column
}

// tableCell is our figure, "mean (min–max)", beside the seed's.
type tableCell struct{ Ours, Seed string }

func buildTable(rep *experiment.Report, cols []experiment.Column) table {
	t := table{Columns: cols}
	for vi := range rep.Variants {
		v := &rep.Variants[vi]
		g := tableGroup{Variant: v.Name, Description: v.Description}
		for i, f := range v.Flows {
			row := tableRow{Flow: f.ID}
			for _, c := range cols {
				row.Cells = append(row.Cells, tableCell{Ours: ourCell(v, c, i, rep.Runs), Seed: seedCell(v, c.Key, i)})
			}
			g.Rows = append(g.Rows, row)
		}
		t.Groups = append(t.Groups, g)
	}
	return t
}

func cellFormat(c experiment.Column) string {
	if c.Format == "" {
		return "%.2f"
	}
	return c.Format
}

// ourCell formats a mean, followed by "(min–max)" when runs differed.
func ourCell(v *experiment.VariantResult, c experiment.Column, flow, runs int) string {
	format := cellFormat(c)
	if x, ok := v.Extra[c.Key]; ok {
		return withRange(format, x, v.ExtraMin[c.Key], v.ExtraMax[c.Key], runs)
	}
	x, ok := anyField(v.Flows[flow], c.Key)
	if !ok {
		return "-"
	}
	var lo, hi float64
	if flow < len(v.FlowsMin) && flow < len(v.FlowsMax) {
		lo, _ = anyField(v.FlowsMin[flow], c.Key)
		hi, _ = anyField(v.FlowsMax[flow], c.Key)
	} else {
		lo, hi = x, x
	}
	return withRange(format, x, lo, hi, runs)
}

func withRange(format string, x, lo, hi float64, runs int) string {
	s := fmt.Sprintf(format, x)
	if runs > 1 && lo != hi {
		s += fmt.Sprintf(" ("+format+"–"+format+")", lo, hi)
	}
	return s
}

func seedCell(v *experiment.VariantResult, key string, flow int) string {
	figs := v.SeedFigures[key]
	if flow < len(figs) && figs[flow] != "" {
		return figs[flow]
	}
	return "-"
}

// anyField is numericField that also reads yes/no fields, as 1 or 0.
func anyField(f sim.FlowResult, key string) (float64, bool) {
	if x, ok := numericField(f, key); ok {
		return x, true
	}
	v := reflect.ValueOf(f)
	for i := 0; i < v.NumField(); i++ {
		if jsonName(v.Type().Field(i)) == key && v.Field(i).Kind() == reflect.Bool {
			if v.Field(i).Bool() {
				return 1, true
			}
			return 0, true
		}
	}
	return 0, false
}
