package fw

// The PIT, the CS and nameTable keep hash maps whose values are chains of
// entries with the same name hash. unlink removes x from the chain of
// bucket h; next returns a pointer to an entry's chain link.
func unlink[T any](m map[uint64]*T, h uint64, x *T, next func(*T) **T) {
	if m[h] == x {
		if n := *next(x); n != nil {
			m[h] = n
		} else {
			delete(m, h)
		}
		return
	}
	for p := m[h]; p != nil; p = *next(p) {
		if *next(p) == x {
			*next(p) = *next(x)
			return
		}
	}
}
