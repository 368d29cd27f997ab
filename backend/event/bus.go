package event

import "hermes/backend/pubsub"

// Bus fans the events of every run in a process out to its viewers, through
// a pubsub.Broker whose promise holds here: a subscriber is must-deliver, so
// the publisher (a run's emitter, in seq order) waits for a slow one to take
// an event, except streamed text (Droppable), which model.decided repeats in
// full and a subscriber whose buffer is full misses.
type Bus struct{ b *pubsub.Broker[Event] }

// NewBus returns an empty bus.
func NewBus() *Bus {
	return &Bus{b: pubsub.New(func(e Event) bool { return e.Type.Droppable() })}
}

// Subscription is one viewer's channel of events.
type Subscription = pubsub.Subscription[Event]

// Subscribe returns a subscription with the given buffer. A nil filter takes
// every event; otherwise only the events for which it returns true.
func (b *Bus) Subscribe(buffer int, filter func(Event) bool) *Subscription {
	return b.b.Subscribe(pubsub.MustDeliver, buffer, filter)
}

// Unsubscribe stops delivery to s and closes its channel.
func (b *Bus) Unsubscribe(s *Subscription) { s.Close() }

// Publish delivers e to every subscriber, as the promise above says.
func (b *Bus) Publish(e Event) { b.b.Publish(e) }
