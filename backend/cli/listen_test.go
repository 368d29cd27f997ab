package cli

import (
	"net"
	"testing"
)

// Serve's and the bot's listener take no Multipath TCP on loopback (an
// MPTCP client is then served over plain TCP); beyond it Go's default stays.
func TestListenTCP_NoMultipathOnLoopback(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		ln, err := listenTCP(addr)
		if err != nil {
			if addr == "[::1]:0" {
				continue // no IPv6 here
			}
			t.Fatal(err)
		}
		var d net.Dialer
		d.SetMultipathTCP(true)
		accepted := make(chan net.Conn, 1)
		go func() {
			c, _ := ln.Accept()
			accepted <- c
		}()
		c, err := d.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s := <-accepted
		if s == nil {
			t.Fatal("nothing accepted")
		}
		if mp, err := s.(*net.TCPConn).MultipathTCP(); err != nil || mp {
			t.Errorf("%s: the connection is Multipath TCP (%v)", addr, err)
		}
		c.Close()
		s.Close()
		ln.Close()
	}
	for host, want := range map[string]bool{"127.0.0.1": true, "127.1.2.3": true, "::1": true, "LocalHost": true, "0.0.0.0": false, "": false, "10.0.0.1": false, "example.org": false} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v", host, got)
		}
	}
}
