package telemetry

import "errors"

var (
	// ErrNoEndpoint is returned by New without an endpoint to export to.
	ErrNoEndpoint = errors.New("no OTLP endpoint")

	// ErrEndpoint is returned by New for an endpoint that is not an http or
	// https URL.
	ErrEndpoint = errors.New("invalid OTLP endpoint")

	// ErrProtocol is returned by New for a protocol other than http and grpc.
	ErrProtocol = errors.New("unknown OTLP protocol")

	// ErrExport is what Options.OnError is told when the collector did not
	// take a batch of spans; those spans are lost, the runs go on.
	ErrExport = errors.New("trace export failed")
)
