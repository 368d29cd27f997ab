// Package clustertest starts a real NATS server with JetStream in the test
// process, on a loopback port with its store in a temporary folder, for
// the tests and benchmarks of the bot's cluster mode. Production code never
// imports it: the server module stays out of the hermes binary.
package clustertest

import (
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is a running NATS server with JetStream.
type Server struct {
	URL string
	srv *server.Server
}

// Start runs a server until the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: tb.TempDir(),
	})
	if err != nil {
		tb.Fatal(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		tb.Fatal("clustertest: the NATS server did not start")
	}
	tb.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	return &Server{URL: srv.ClientURL(), srv: srv}
}
