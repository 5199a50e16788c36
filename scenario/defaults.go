package scenario

import "time"

// Scenario defaults, used for every key a scenario file leaves out and by
// Default, NewProducer and NewConsumer. Link defaults are in package
// topology.
const (
	// DefaultSeed seeds a run when the scenario names none.
	DefaultSeed uint64 = 1
	// DefaultDuration bounds a run in simulated time: ten minutes, far
	// longer than any seed experiment (the slowest, a 10 MiB transfer over
	// a shared 5 Mbit/s link, takes under a minute).
	DefaultDuration = 600 * time.Second
	// DefaultHeaderOverhead is the bytes every packet carries below NDN:
	// IPv4 (20) + UDP (8) as in Mini-NDN's UDP faces, plus 16 bytes of
	// link-layer framing — paper 000's 1449-byte Data is 1405 bytes of NDN
	// packet plus these 44.
	DefaultHeaderOverhead = 44
	// DefaultStrategy is NFD's default forwarding strategy.
	DefaultStrategy = "best-route"
	// DefaultCSCapacity disables the Content Store. Each segment of the
	// seeds' transfers is fetched once, so a cache only matters when a
	// retransmission finds a copy upstream of a loss; leaving it off makes
	// queueing and loss, the subject of study, the only thing that decides
	// a retransmission's fate. Set cs-capacity = 65536 (NFD's default) to
	// mimic NFD in Mini-NDN.
	DefaultCSCapacity = 0
	// DefaultQueue is a tail-drop FIFO, what a Linux interface queue does.
	DefaultQueue = "droptail"
	// DefaultSegmentSize is the papers' payload per Data (papers 000 and
	// 003: 1024-byte segments). ndnserve's default, and ndncc serve's, is
	// 8000.
	DefaultSegmentSize = 1024
	// DefaultSignature is what ndnputchunks uses with its default identity
	// (an RSA-2048 key), the signature size the seeds measured with.
	DefaultSignature = SigRSA2048
	// DefaultFreshness is ndnputchunks' FreshnessPeriod (10 s); with it
	// and the default rsa2048 signature a 1024-byte segment is 1405 bytes,
	// 1449 on the wire, as paper 003 measured.
	DefaultFreshness time.Duration = 10 * time.Second
	// DefaultStart starts a consumer at the beginning of the run.
	DefaultStart time.Duration = 0
)

// Signature names a producer may use.
const (
	SigRSA2048 = "rsa2048" // SHA256-with-RSA, 2048-bit key
	SigDigest  = "digest"  // DigestSha256 (no key)
	SigECDSA   = "ecdsa"   // SHA256-with-ECDSA, P-256 key
	SigEd25519 = "ed25519" // Ed25519
	SigHMAC    = "hmac"    // HMAC-with-SHA256
)

// Signatures returns every signature name a producer may use.
func Signatures() []string {
	return []string{SigRSA2048, SigDigest, SigECDSA, SigEd25519, SigHMAC}
}
