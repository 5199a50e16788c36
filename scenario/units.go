package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseSize parses a byte count: a number with an optional unit B, KB, MB,
// GB (powers of 1000) or KiB, MiB, GiB (powers of 1024), in any case, with
// or without a space, such as "10MiB", "1.5 MB" or "1024". The result must
// be a whole, non-negative number of bytes that fits in an int64.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !strings.ContainsRune("0123456789.", r) })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	var mult int64
	switch strings.ToLower(unit) {
	case "", "b":
		mult = 1
	case "kb":
		mult = 1e3
	case "mb":
		mult = 1e6
	case "gb":
		mult = 1e9
	case "kib":
		mult = 1 << 10
	case "mib":
		mult = 1 << 20
	case "gib":
		mult = 1 << 30
	default:
		return 0, fmt.Errorf("invalid size %q: unknown unit %q (use B, KB, KiB, MB, MiB, GB or GiB)", s, unit)
	}
	if num == "" {
		return 0, fmt.Errorf("invalid size %q: no number", s)
	}
	if !strings.Contains(num, ".") {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n > math.MaxInt64/mult {
			return 0, fmt.Errorf("invalid size %q: too large or not a number", s)
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid size %q: not a number", s)
	}
	b := f * float64(mult)
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: too large", s)
	}
	if b != math.Trunc(b) {
		return 0, fmt.Errorf("invalid size %q: not a whole number of bytes", s)
	}
	return int64(b), nil
}
