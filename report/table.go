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
	Live    bool // live figures are shown beside ours (experiment --live)
}

// tableGroup is one variant: a row per flow.
type tableGroup struct {
	Variant, Description string
	Rows                 []tableRow
	Lateness             string // the live runs' (Live)
}

// tableRow is one flow of a variant.
type tableRow struct {
	Flow  string
	Cells []tableCell // one per column
}

// tableCell is our figure, "mean (min–max)", beside the seed's; Out
// when ours lies outside the seed's range; Live is the live figure.
type tableCell struct {
	Ours, Seed string
	Out        bool
	Live       string
}

func buildTable(rep *experiment.Report, cols []experiment.Column) table {
	t := table{Columns: cols, Paper: rep.ShowsPaper(), Live: rep.Live != nil}
	for vi := range rep.Variants {
		v := &rep.Variants[vi]
		g := tableGroup{Variant: v.Name, Description: v.Description}
		if t.Live {
			g.Lateness = rep.LiveLateness(*v)
		}
		for i, f := range v.Flows {
			row := tableRow{Flow: f.ID}
			for _, c := range cols {
				cell := tableCell{Ours: v.MarkedCell(c, i, rep.Runs), Seed: v.SeedFigure(c.Key, i),
					Out: v.Verdict(c, i) == experiment.Outside}
				if t.Live {
					cell.Live = rep.LiveCell(*v, c, i)
				}
				row.Cells = append(row.Cells, cell)
			}
			g.Rows = append(g.Rows, row)
		}
		t.Groups = append(t.Groups, g)
	}
	return t
}
