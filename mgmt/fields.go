package mgmt

import (
	"errors"
	"fmt"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
)

// fields is a set of ControlParameters fields.
type fields uint32

// The ControlParameters fields, in NFD's order.
const (
	fName fields = 1 << iota
	fFaceID
	fURI
	fLocalURI
	fOrigin
	fCost
	fCapacity
	fCount
	fFlags
	fMask
	fStrategy
	fExpiration
	fPersistency
	fBaseMarkingInterval
	fDefaultThreshold
	fMTU
	fieldEnd
)

// fieldName is NFD's name of one field.
func fieldName(f fields) string {
	switch f {
	case fName:
		return "Name"
	case fFaceID:
		return "FaceId"
	case fURI:
		return "Uri"
	case fLocalURI:
		return "LocalUri"
	case fOrigin:
		return "Origin"
	case fCost:
		return "Cost"
	case fCapacity:
		return "Capacity"
	case fCount:
		return "Count"
	case fFlags:
		return "Flags"
	case fMask:
		return "Mask"
	case fStrategy:
		return "Strategy"
	case fExpiration:
		return "ExpirationPeriod"
	case fPersistency:
		return "FacePersistency"
	case fBaseMarkingInterval:
		return "BaseCongestionMarkingInterval"
	case fDefaultThreshold:
		return "DefaultCongestionThreshold"
	}
	return "Mtu"
}

// present returns the fields a carries.
func present(a *nfd.ControlArgs) fields {
	var f fields
	set := func(field fields, ok bool) {
		if ok {
			f |= field
		}
	}
	set(fName, a.Name != nil)
	set(fFaceID, a.FaceId.IsSet())
	set(fURI, a.Uri.IsSet())
	set(fLocalURI, a.LocalUri.IsSet())
	set(fOrigin, a.Origin.IsSet())
	set(fCost, a.Cost.IsSet())
	set(fCapacity, a.Capacity.IsSet())
	set(fCount, a.Count.IsSet())
	set(fFlags, a.Flags.IsSet())
	set(fMask, a.Mask.IsSet())
	set(fStrategy, a.Strategy != nil)
	set(fExpiration, a.ExpirationPeriod.IsSet())
	set(fPersistency, a.FacePersistency.IsSet())
	set(fBaseMarkingInterval, a.BaseCongestionMarkInterval.IsSet())
	set(fDefaultThreshold, a.DefaultCongestionThreshold.IsSet())
	set(fMTU, a.Mtu.IsSet())
	return f
}

// check validates a's fields against the command's request format, as
// NFD does: every required field present, no field that is neither
// required nor optional, Flags and Mask together when both are allowed;
// then the command's own validation.
func (c command) check(a *nfd.ControlArgs) error {
	have := present(a)
	for f := fName; f < fieldEnd; f <<= 1 {
		switch {
		case c.required&f != 0 && have&f == 0:
			return fmt.Errorf("%s is required but missing", fieldName(f))
		case c.required&f == 0 && c.optional&f == 0 && have&f != 0:
			return fmt.Errorf("%s is forbidden but present", fieldName(f))
		}
	}
	if c.optional&fFlags != 0 && c.optional&fMask != 0 && (have&fFlags == 0) != (have&fMask == 0) {
		return errors.New("Flags must be accompanied by Mask")
	}
	if c.validate != nil {
		return c.validate(a)
	}
	return nil
}

// validFaceID is the validation of commands whose FaceId may not be 0.
func validFaceID(a *nfd.ControlArgs) error {
	if a.FaceId.GetOr(0) == 0 {
		return errors.New("FaceId must be valid")
	}
	return nil
}
