// Package examples embeds the example topologies (Mini-NDN .conf files)
// and scenarios (.toml) so that the experiment catalog and tests use the
// very files users read and copy.
package examples

import "embed"

// FS holds every *.conf and *.toml file of this directory and the
// experiment files of experiments/.
//
//go:embed *.conf *.toml experiments/*.toml
var FS embed.FS
