package scenario

import (
	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// parseName parses an NDN name URI; it must start with "/".
func parseName(s string) (enc.Name, error) { return ndn.ParseName(s) }
