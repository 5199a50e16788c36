package report

import (
	"github.com/ndncc/ndncc/experiment"
)

// table is an experiment's results table as the HTML page shows it: the
// cells of experiment.Report.PrintTable, grouped by variant.
type table struct {
	Columns []experiment.Column
	Groups  []tableGroup
	Paper   bool // the paper's figures are shown beside ours
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

// tableCell is our figure, "mean (min–max)", beside the seed's; Out
// when ours lies outside the seed's range.
type tableCell struct {
	Ours, Seed string
	Out        bool
}

func buildTable(rep *experiment.Report, cols []experiment.Column) table {
	t := table{Columns: cols, Paper: rep.ShowsPaper()}
	for vi := range rep.Variants {
		v := &rep.Variants[vi]
		g := tableGroup{Variant: v.Name, Description: v.Description}
		for i, f := range v.Flows {
			row := tableRow{Flow: f.ID}
			for _, c := range cols {
				row.Cells = append(row.Cells, tableCell{Ours: v.MarkedCell(c, i, rep.Runs), Seed: v.SeedFigure(c.Key, i),
					Out: v.Verdict(c, i) == experiment.Outside})
			}
			g.Rows = append(g.Rows, row)
		}
		t.Groups = append(t.Groups, g)
	}
	return t
}
