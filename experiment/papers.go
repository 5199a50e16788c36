package experiment

// Paper is one of the five papers ndncc reproduces (the project's seed
// documents, /work/shared/seeds in its design): its number, as
// experiments name it ("000"), and who wrote what.
type Paper struct {
	ID       string
	Citation string
}

// Papers lists the papers, by number. Two of them carry neither title nor
// author; they are described by what they are.
func Papers() []Paper {
	return []Paper{
		{"000", `Shuo Yang, "Implementing TCP SACK Conservative Loss Recovery Algorithm within a NDN Consumer" (report)`},
		{"001", `an untitled, unsigned proposal and evaluation of TCP Vegas (with Reno and CUBIC) as receiver-driven congestion control for NDN, and of "NDN Vegas"`},
		{"002", `Klaus Schneider, Ashiqur Rahman, Chavoosh Ghasemi, "Progress Report: Make NDN Congestion Control work in ndnSIM", 6th NDN Hackathon, May 13, 2018 (slides)`},
		{"003", `an untitled, unsigned report on AIMD and sequence-hole detection in an NDN file-transfer application (University of Arizona, repository ndn_cc_2016)`},
		{"004", `Klaus Schneider, Cheng Yi, Beichuan Zhang, Lixia Zhang, "A Practical Congestion Control Scheme for Named Data Networking" (PCON), ACM ICN 2016 (talk slides)`},
	}
}

// PaperCitation returns paper id's citation, "" for an unknown id.
func PaperCitation(id string) string {
	for _, p := range Papers() {
		if p.ID == id {
			return p.Citation
		}
	}
	return ""
}
