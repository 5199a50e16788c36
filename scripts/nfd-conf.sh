# nfd-conf.sh, sourced by the scripts that run NFD 24.07 beside ndncc fw
# (marks-vs-nfd.sh, marks-vs-nfd-udp.sh).
#
# nfd_config FILE SOCKET [UDP_PORT]: writes an NFD configuration to FILE: a
# Unix face at SOCKET, a UDP channel on UDP_PORT (IPv4, no multicast) when
# given, no other channel; NFD's default strategy choices; congestion
# marking on (NFD's default); a Content Store of ${CS_PACKETS:-0} packets
# (off, as ndncc fw's by default); any signed command accepted.
nfd_config() {
	local udp=""
	if [ -n "${3:-}" ]; then
		udp="
  udp
  {
    listen yes
    port $3
    enable_v4 yes
    enable_v6 no
    mcast no
  }"
	fi
	cat >"$1" <<EOF
general
{
}
log
{
  default_level WARN
}
tables
{
  cs_max_packets ${CS_PACKETS:-0}
  strategy_choice
  {
    /               /localhost/nfd/strategy/best-route
    /localhost      /localhost/nfd/strategy/multicast
    /localhost/nfd  /localhost/nfd/strategy/best-route
  }
}
face_system
{
  general
  {
    enable_congestion_marking yes
  }
  unix
  {
    path $2
  }$udp
}
authorizations
{
  authorize
  {
    certfile any
    privileges
    {
      faces
      fib
      cs
      strategy-choice
    }
  }
}
rib
{
  localhost_security
  {
    trust-anchor
    {
      type any
    }
  }
}
EOF
}
