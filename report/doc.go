// Package report turns ndncc's outputs into things people look at: charts
// of one simulated run's traces (congestion window, RTT and RTO per
// segment, receive rate, queue lengths), summary bar charts of an
// experiment's aggregated figures, and one self-contained HTML page that
// shows an experiment's table beside the seed document's figures together
// with all the charts.
//
// It reads what package sim writes (the CSV traces of `ndncc sim --out`)
// and what package experiment aggregates; it draws with gonum.org/v1/plot.
// It is a leaf: nothing in the protocol core, sim or experiment may import
// it, and it must never import live or the core packages (cc, consumer,
// producer, fw).
package report
