package consumer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ndncc/ndncc/cc"
)

// Profile is a named set of parameter values that selects another tool's
// or a paper's settings where they differ from the defaults (which are
// ndnget's). A scenario selects one with `profile = NAME`, `ndncc fetch`
// with --profile NAME; parameters given explicitly override it.
type Profile struct {
	Name string
	// Doc says whose settings these are and where they come from.
	Doc string
	// Pipeline is the pipeline the profile selects when none is named
	// (`ndncc fetch` without -p); "" leaves the tool's default.
	Pipeline string
	Params   []ProfileParam
}

// ProfileParam is one value of a profile.
type ProfileParam struct {
	Name, Value string
	// Pipelines limits the value to these pipelines; nil means every
	// pipeline that takes the parameter.
	Pipelines []string
}

// Profiles returns every profile, in display order.
func Profiles() []Profile {
	adaptive := []string{"aimd", "cubic"}
	return []Profile{
		{
			Name: "ndnget",
			Doc: "ndn-tools' ndnget: its defaults, stated explicitly for the pipelines ndnget has " +
				"(fixed, aimd, cubic) and the RTO estimator of every pipeline; without -p, fetch runs ndnget's default " +
				"pipeline, cubic (ndncc's is paced-delay)",
			Pipeline: "cubic",
			Params: []ProfileParam{
				{Name: "window", Value: "1", Pipelines: []string{"fixed"}},
				{Name: "init-cwnd", Value: "2", Pipelines: adaptive},
				{Name: "init-ssthresh", Value: "inf", Pipelines: adaptive},
				{Name: "aimd-step", Value: "1"},
				{Name: "aimd-beta", Value: "0.5"},
				{Name: "reset-cwnd-to-init", Value: "false", Pipelines: []string{"aimd"}},
				{Name: "cubic-beta", Value: "0.7"},
				{Name: "fast-conv", Value: "false", Pipelines: []string{"cubic"}},
				{Name: "hystart", Value: "false"},
				{Name: "conservative", Value: "true"},
				{Name: "ignore-marks", Value: "false"},
				{Name: "rto-alpha", Value: "0.125"},
				{Name: "rto-beta", Value: "0.25"},
				{Name: "rto-k", Value: "8"},
				{Name: "initial-rto", Value: "1s"},
				{Name: "min-rto", Value: "200ms"},
				{Name: "max-rto", Value: "60s"},
				{Name: "rto-backoff", Value: "2"},
				{Name: "rto-check-interval", Value: "10ms"},
				{Name: "retries", Value: "15"},
				{Name: "lifetime", Value: "4s"},
			},
		},
		{
			Name: "seed000",
			Doc: "paper 000 (Shuo Yang, \"Implementing TCP SACK Conservative Loss Recovery Algorithm within a NDN " +
				"Consumer\"): initial window 1 (the paper's 0 sends nothing) and threshold 200, its RFC 6298 estimator " +
				"(RTTVAR multiplier 4), and the 10 s RTO ceiling of paper 003, from the same lab and year",
			Params: []ProfileParam{
				{Name: "init-cwnd", Value: "1"},
				{Name: "init-ssthresh", Value: "200"},
				{Name: "rto-k", Value: "4"},
				{Name: "max-rto", Value: "10s"},
				{Name: "aimd-step", Value: "1"},
				{Name: "hystart", Value: "false"},
				{Name: "aimd-beta", Value: "0.5"},
				{Name: "rto-check-interval", Value: "10ms"},
			},
		},
		{
			Name: "seed003",
			Doc:  "paper 003 (the AIMD and sequence-hole report, untitled): its parameter list, section 3.2",
			Params: []ProfileParam{
				{Name: "max-rto", Value: "10s"},
				{Name: "rto-alpha", Value: "0.125"},
				{Name: "rto-beta", Value: "0.25"},
				{Name: "rto-k", Value: "4"},
				{Name: "rto-backoff", Value: "2"},
				{Name: "init-cwnd", Value: "1"},
				{Name: "init-ssthresh", Value: "200"},
				{Name: "aimd-step", Value: "1"},
				{Name: "aimd-beta", Value: "0.5"},
				{Name: "hole-threshold", Value: "5"},
				{Name: "hystart", Value: "false"},
				{Name: "rto-check-interval", Value: "10ms"},
			},
		},
	}
}

// ProfileNames lists the profiles' names.
func ProfileNames() []string {
	var out []string
	for _, p := range Profiles() {
		out = append(out, p.Name)
	}
	return out
}

// LookupProfile returns the profile called name.
func LookupProfile(name string) (Profile, error) {
	for _, p := range Profiles() {
		if p.Name == name {
			return p, nil
		}
	}
	return Profile{}, fmt.Errorf("no profile %q (have %s)", name, strings.Join(ProfileNames(), ", "))
}

// Values returns the profile's values that pipeline takes.
func (p Profile) Values(pipeline string) map[string]string {
	takes := map[string]bool{}
	for _, d := range ParamDocs() {
		takes[d.Name] = true
	}
	for _, n := range cc.ParamNames(pipeline) {
		takes[n] = true
	}
	out := map[string]string{}
	for _, v := range p.Params {
		if takes[v.Name] && (v.Pipelines == nil || slices.Contains(v.Pipelines, pipeline)) {
			out[v.Name] = v.Value
		}
	}
	return out
}

// WithProfile returns params over the values of the named profile that
// pipeline takes ("" is no profile): what ParseParams should get.
func WithProfile(pipeline, profile string, params map[string]string) (map[string]string, error) {
	if profile == "" {
		return params, nil
	}
	p, err := LookupProfile(profile)
	if err != nil {
		return nil, err
	}
	out := p.Values(pipeline)
	maps.Copy(out, params)
	return out, nil
}
