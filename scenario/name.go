package scenario

import (
	"fmt"
	"strings"

	enc "github.com/named-data/ndnd/std/encoding"
)

// parseName parses an NDN name URI; it must start with "/".
func parseName(s string) (enc.Name, error) {
	if !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("name %q must start with \"/\"", s)
	}
	n, err := enc.NameFromStr(s)
	if err != nil {
		return nil, fmt.Errorf("invalid name %q: %w", s, err)
	}
	return n, nil
}
