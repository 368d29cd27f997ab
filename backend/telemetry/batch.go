package telemetry

import (
	"context"
	"fmt"
	"sync"
	"time"

	"hermes/backend/i18n"
)

// maxBatch is the most spans one export sends.
const maxBatch = 512

// exportTimeout bounds one export, its retries included.
const exportTimeout = 10 * time.Second

// batcher sends ended spans to the collector from a goroutine of its own:
// a batch when maxBatch spans wait or every interval. Ending a span never
// waits for the network: past queueSize waiting spans, a span is dropped.
// An export that fails is told to onError once, until one succeeds again.
type batcher struct {
	exp      *exporter
	res      resourceInfo
	interval time.Duration
	onError  func(error)

	mu      sync.Mutex
	queue   []*spanData
	closed  bool
	full    chan struct{} // a batch is waiting
	stop    chan struct{}
	done    chan struct{}
	failing bool // the last export failed, and was told
}

func newBatcher(exp *exporter, res resourceInfo, interval time.Duration, onError func(error)) *batcher {
	b := &batcher{
		exp: exp, res: res, interval: interval, onError: onError,
		full: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
	}
	go b.loop()
	return b
}

// add queues an ended span.
func (b *batcher) add(d *spanData) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || len(b.queue) >= queueSize {
		return
	}
	b.queue = append(b.queue, d)
	if len(b.queue) >= maxBatch {
		select {
		case b.full <- struct{}{}:
		default:
		}
	}
}

func (b *batcher) loop() {
	defer close(b.done)
	t := time.NewTimer(b.interval)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			for b.send() > 0 {
			}
			return
		case <-b.full:
		case <-t.C:
		}
		for b.send() >= maxBatch {
		}
		t.Reset(b.interval)
	}
}

// send exports the next batch and returns how many spans it held.
func (b *batcher) send() int {
	b.mu.Lock()
	n := min(len(b.queue), maxBatch)
	batch := b.queue[:n:n]
	b.queue = b.queue[n:]
	b.mu.Unlock()
	if n == 0 {
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	err := b.exp.export(ctx, b.res, batch)
	cancel()
	tell := err != nil && !b.failing
	b.failing = err != nil
	if tell && b.onError != nil {
		b.onError(i18n.Wrap(fmt.Errorf("%w: %w", ErrExport, err), "telemetry.export", n, err.Error()))
	}
	return n
}

// close sends what is queued and stops; past ctx's end it gives up, and
// the export under way is cut short.
func (b *batcher) close(ctx context.Context) error {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.stop)
	}
	b.mu.Unlock()
	select {
	case <-b.done:
		b.exp.shutdown()
		return nil
	case <-ctx.Done():
		b.exp.shutdown()
		return ctx.Err()
	}
}
