package runner

import (
	"context"
	"log"
	"maps"
	"reflect"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/telemetry"
)

// flushTimeout bounds how long closing an exporter waits for the
// collector to take the spans still queued.
const flushTimeout = 5 * time.Second

// traces keeps the exporter of [telemetry] as the config in force says,
// made anew when that section or its headers change.
type traces struct {
	mu      sync.Mutex
	conf    config.Telemetry
	headers map[string]string
	x       *telemetry.Exporter
}

// traceSink is the sink that exports run's events as a trace, nil when
// [telemetry] is off. A run's texts are scrubbed by its own redactor.
func (m *Manager) traceSink(setup agent.Setup) event.Sink {
	m.conf.mu.Lock()
	good := m.conf.good
	m.conf.mu.Unlock()
	var tel config.Telemetry
	if good != nil {
		tel = good.Telemetry
	}
	x := m.traces.exporter(tel, tel.Headers(m.getenv), func() *runlog.Redactor {
		return runlog.NewRedactor(good.Secrets(m.getenv)...)
	})
	if x == nil {
		return nil
	}
	var redact func([]byte) []byte
	if setup.Redactor != nil {
		redact = setup.Redactor.Redact
	}
	return x.Run(redact)
}

func (t *traces) exporter(tel config.Telemetry, headers map[string]string, redactor func() *runlog.Redactor) *telemetry.Exporter {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.x != nil && reflect.DeepEqual(tel, t.conf) && maps.Equal(headers, t.headers) {
		return t.x
	}
	if old := t.x; old != nil {
		// Its runs' spans are sent off the path of the run starting now.
		go closeExporter(old)
	}
	t.x, t.conf, t.headers = nil, tel, headers
	if !tel.Enabled() {
		return nil
	}
	scrub := redactor()
	x, err := telemetry.New(context.Background(), telemetry.Options{
		Endpoint: tel.OTLPEndpoint, Protocol: tel.ProtocolName(), Headers: headers,
		ServiceName: tel.Service(), IncludeContent: tel.IncludeContent,
		OnError: func(err error) { log.Print(scrub.String(err.Error())) },
	})
	if err != nil {
		log.Print(scrub.String(err.Error()))
		return nil
	}
	t.x = x
	return x
}

// close sends what is queued, waiting at most flushTimeout.
func (t *traces) close() {
	t.mu.Lock()
	x := t.x
	t.x = nil
	t.mu.Unlock()
	if x != nil {
		closeExporter(x)
	}
}

func closeExporter(x *telemetry.Exporter) {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := x.Close(ctx); err != nil {
		log.Printf("traces: %v", err)
	}
}
