package cli

import (
	"context"
	"net"
	"net/netip"
	"strings"
)

// listenTCP listens for TCP on addr as net.Listen does, but without Multipath
// TCP on a loopback address: it has nothing to add there, and Go's first
// MPTCP listener probes the kernel for it, a cost in the start of every
// hermes serve and hermes bot on the default addresses. An address beyond
// loopback keeps Go's default.
func listenTCP(addr string) (net.Listener, error) {
	var lc net.ListenConfig
	if host, _, err := net.SplitHostPort(addr); err == nil && loopbackHost(host) {
		lc.SetMultipathTCP(false)
	}
	return lc.Listen(context.Background(), "tcp", addr)
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
