package event

import "sync"

// Bus fans the events of every run in a process out to its viewers.
//
// Delivery guarantee: a subscriber whose buffer is full misses droppable
// events (streamed text, which model.decided repeats in full); every other
// event is delivered, and the publisher waits for a slow subscriber to take it.
type Bus struct {
	mu   sync.RWMutex
	subs map[*Subscription]struct{}
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: make(map[*Subscription]struct{})} }

// Subscription is one viewer's channel of events.
type Subscription struct {
	C       <-chan Event
	c       chan Event
	done    chan struct{}
	once    sync.Once
	filter  func(Event) bool
	dropped int64
	mu      sync.Mutex
}

// Subscribe returns a subscription with the given buffer. A nil filter takes
// every event; otherwise only the events for which it returns true.
func (b *Bus) Subscribe(buffer int, filter func(Event) bool) *Subscription {
	c := make(chan Event, buffer)
	s := &Subscription{C: c, c: c, done: make(chan struct{}), filter: filter}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Unsubscribe stops delivery to s and closes its channel.
func (b *Bus) Unsubscribe(s *Subscription) {
	s.once.Do(func() { close(s.done) })
	b.mu.Lock()
	_, ok := b.subs[s]
	delete(b.subs, s)
	b.mu.Unlock()
	if ok {
		close(s.c)
	}
}

// Dropped counts the droppable events this subscriber missed.
func (s *Subscription) Dropped() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Publish delivers e to every subscriber, as the guarantee above says.
func (b *Bus) Publish(e Event) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		if s.filter != nil && !s.filter(e) {
			continue
		}
		if e.Type.Droppable() {
			select {
			case s.c <- e:
			default:
				s.mu.Lock()
				s.dropped++
				s.mu.Unlock()
			}
			continue
		}
		select {
		case s.c <- e:
		case <-s.done:
		}
	}
}
