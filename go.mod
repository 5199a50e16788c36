module github.com/ndncc/ndncc

go 1.26.8

require (
	github.com/cespare/xxhash v1.1.0
	github.com/named-data/ndnd v1.5.3
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/spf13/cobra v1.10.2
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/exp v0.0.0-20251009144603-d2f985daa21b // indirect
)
