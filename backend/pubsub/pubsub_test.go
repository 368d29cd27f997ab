package pubsub

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// drain reads every value left in s's channel until it is closed.
func drain[T any](s *Subscription[T]) []T {
	var out []T
	for v := range s.C {
		out = append(out, v)
	}
	return out
}

func TestBroker_DropOldestNeverBlocksThePublisher(t *testing.T) {
	b := New[int](nil)
	view := b.Subscribe(DropOldest, 2, nil)
	for i := 1; i <= 5; i++ {
		b.Publish(i) // nobody reads: a wait here would hang the test
	}
	view.Close()
	if got := drain(view); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("view kept %v, want the newest [4 5]", got)
	}
	if view.Dropped() != 3 {
		t.Errorf("dropped %d, want 3", view.Dropped())
	}
}

func TestBroker_DropOldestWithoutABuffer(t *testing.T) {
	b := New[int](nil)
	view := b.Subscribe(DropOldest, 0, nil) // gets a buffer of one
	b.Publish(1)
	b.Publish(2)
	if v := <-view.C; v != 2 || view.Dropped() != 1 {
		t.Errorf("got %d with %d dropped, want 2 with 1", v, view.Dropped())
	}
}

func TestBroker_MustDeliverGetsEveryValueInOrder(t *testing.T) {
	b := New[int](nil)
	log := b.Subscribe(MustDeliver, 1, nil)
	view := b.Subscribe(DropOldest, 1, nil) // a slow view beside it changes nothing
	const n = 1000
	go func() {
		for i := range n {
			b.Publish(i)
		}
		log.Close()
	}()
	got := drain(log)
	if len(got) != n {
		t.Fatalf("got %d values, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("value %d is %d: out of order", i, v)
		}
	}
	if log.Dropped() != 0 {
		t.Errorf("a must-deliver subscriber dropped %d", log.Dropped())
	}
	view.Close()
}

func TestBroker_MustDeliverWaitsForTheSlowSubscriber(t *testing.T) {
	b := New[int](nil)
	log := b.Subscribe(MustDeliver, 1, nil)
	b.Publish(1)
	published := make(chan struct{})
	go func() {
		b.Publish(2) // the buffer is full: waits for the reader
		close(published)
	}()
	select {
	case <-published:
		t.Fatal("Publish went on with no room for the value")
	default:
	}
	if v := <-log.C; v != 1 {
		t.Fatalf("got %d", v)
	}
	<-published
	if v := <-log.C; v != 2 {
		t.Fatalf("got %d", v)
	}
}

func TestBroker_DroppableValuesSkipAFullMustDeliverSubscriber(t *testing.T) {
	// Odd values are streamed text that a later even one repeats.
	b := New(func(v int) bool { return v%2 == 1 })
	log := b.Subscribe(MustDeliver, 1, nil)
	b.Publish(2)
	b.Publish(3) // full: missed, not waited for
	published := make(chan struct{})
	go func() {
		b.Publish(4) // full: waited for
		close(published)
	}()
	if v := <-log.C; v != 2 {
		t.Fatalf("got %d", v)
	}
	<-published
	if v := <-log.C; v != 4 {
		t.Fatalf("value 4 lost: got %d", v)
	}
	if log.Dropped() != 1 {
		t.Errorf("dropped %d, want 1", log.Dropped())
	}
}

func TestBroker_Filter(t *testing.T) {
	b := New[int](nil)
	even := b.Subscribe(MustDeliver, 8, func(v int) bool { return v%2 == 0 })
	for i := range 6 {
		b.Publish(i)
	}
	even.Close()
	if got := drain(even); !slices.Equal(got, []int{0, 2, 4}) {
		t.Errorf("got %v", got)
	}
}

func TestSubscription_Close(t *testing.T) {
	b := New[int](nil)
	s := b.Subscribe(MustDeliver, 1, nil)
	b.Publish(1)
	published := make(chan struct{})
	go func() {
		b.Publish(2) // waits on s until it closes
		close(published)
	}()
	s.Close()
	<-published
	s.Close() // twice is harmless
	if got := drain(s); len(got) > 2 || (len(got) > 0 && got[0] != 1) {
		t.Errorf("after Close the channel gave %v", got)
	}
	b.Publish(3) // nobody left: returns at once
}

func TestBroker_Close(t *testing.T) {
	b := New[int](nil)
	kept := b.Subscribe(MustDeliver, 4, nil)
	b.Publish(1)
	trying := make(chan struct{})
	blocked := b.Subscribe(MustDeliver, 0, func(v int) bool {
		if v == 2 {
			close(trying) // the publisher is about to wait on this reader-less subscriber
		}
		return true
	})
	changed := b.Changed()
	published := make(chan struct{})
	go func() {
		b.Publish(2)
		close(published)
	}()
	<-trying
	b.Close()
	<-published
	<-changed
	<-b.Changed() // closed from now on
	b.Close()     // twice is harmless
	b.Publish(3)  // a no-op
	// 2 may or may not have reached kept: Close let the publisher go on.
	if got := drain(kept); len(got) == 0 || got[0] != 1 || slices.Contains(got, 3) {
		t.Errorf("kept got %v, want 1 (and maybe 2) before the channel closed", got)
	}
	if got := drain(blocked); len(got) != 0 {
		t.Errorf("blocked got %v", got)
	}
	blocked.Close() // after the broker's Close: harmless
	if late := b.Subscribe(MustDeliver, 1, nil); len(drain(late)) != 0 {
		t.Error("a subscription after Close got a value")
	}
	feed := b.Coalesce(func(int) string { return "k" })
	b.Publish(4)
	if got := feed.Take(); len(got) != 0 {
		t.Errorf("a feed after Close got %v", got)
	}
}

func TestCoalesced_KeepsTheLatestOfEachKey(t *testing.T) {
	type notice struct{ id, text string }
	b := New[notice](nil)
	f := b.Coalesce(func(n notice) string { return n.id })
	defer f.Close()
	if got := f.Take(); len(got) != 0 {
		t.Fatalf("empty feed took %v", got)
	}
	b.Publish(notice{"a", "1"})
	b.Publish(notice{"b", "1"})
	b.Publish(notice{"a", "2"})
	b.Publish(notice{"c", "1"})
	<-f.Ready()
	want := []notice{{"b", "1"}, {"a", "2"}, {"c", "1"}}
	if got := f.Take(); !slices.Equal(got, want) {
		t.Errorf("took %v, want %v (publish order, a replaced)", got, want)
	}
	select {
	case <-f.Ready():
		t.Error("Ready fired twice for one batch")
	default:
	}
	f.Close()
	b.Publish(notice{"d", "1"})
	if got := f.Take(); len(got) != 0 {
		t.Errorf("a closed feed took %v", got)
	}
}

func TestCoalesced_HoldsAtMostTwiceItsKeys(t *testing.T) {
	b := New[int](nil)
	f := b.Coalesce(func(v int) string { return fmt.Sprint(v % 3) })
	for i := range 10_000 { // a reader that never takes
		b.Publish(i)
	}
	f.mu.Lock()
	held := len(f.pending)
	f.mu.Unlock()
	if held > 6 {
		t.Errorf("holds %d values for 3 keys", held)
	}
	if got := f.Take(); !slices.Equal(got, []int{9997, 9998, 9999}) {
		t.Errorf("took %v", got)
	}
}

func TestBroker_ChangedWakesEveryWaiter(t *testing.T) {
	b := New[int](nil)
	var wg sync.WaitGroup
	for range 8 {
		c := b.Changed()
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-c
		}()
	}
	b.Publish(1)
	wg.Wait()
	select {
	case <-b.Changed():
		t.Error("a new wait is woken by a publish before it")
	default:
	}
}

// TestBroker_Concurrent is for -race: publishers, subscribers coming and
// going, a coalescing feed and waiters at once.
func TestBroker_Concurrent(t *testing.T) {
	b := New(func(v int) bool { return v%3 == 0 })
	f := b.Coalesce(func(v int) string { return fmt.Sprint(v % 7) })
	var pubs, subs sync.WaitGroup
	for p := range 4 {
		pubs.Go(func() {
			for i := range 500 {
				b.Publish(p*1000 + i)
			}
		})
	}
	published := make(chan struct{})
	go func() {
		pubs.Wait()
		close(published)
	}()
	for i := range 8 {
		subs.Go(func() {
			s := b.Subscribe(Mode(i%2), 4, nil)
			for range 50 {
				select {
				case <-s.C:
				case <-b.Changed():
				case <-published:
				}
			}
			s.Close()
			drain(s)
		})
	}
	subs.Go(func() {
		for {
			select {
			case <-f.Ready():
				f.Take()
			case <-published:
				return
			}
		}
	})
	subs.Wait()
	b.Close()
}

// BenchmarkPublish measures one Publish with n subscribers that keep up
// (MustDeliver, read by a goroutine each), n views that never read
// (DropOldest), n coalescing feeds never taken from, and n waiters of
// Changed.
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("must-deliver/%d", n), func(b *testing.B) {
			br := New[int](nil)
			var wg sync.WaitGroup
			for range n {
				s := br.Subscribe(MustDeliver, 64, nil)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range s.C {
					}
				}()
				defer s.Close()
			}
			b.ResetTimer()
			for i := range b.N {
				br.Publish(i)
			}
			b.StopTimer()
			br.Close()
			wg.Wait()
		})
		b.Run(fmt.Sprintf("drop-oldest/%d", n), func(b *testing.B) {
			br := New[int](nil)
			for range n {
				br.Subscribe(DropOldest, 64, nil)
			}
			b.ResetTimer()
			for i := range b.N {
				br.Publish(i)
			}
		})
		b.Run(fmt.Sprintf("coalesced/%d", n), func(b *testing.B) {
			br := New[int](nil)
			for range n {
				br.Coalesce(func(v int) string { return "k" })
			}
			b.ResetTimer()
			for i := range b.N {
				br.Publish(i)
			}
		})
		b.Run(fmt.Sprintf("changed/%d", n), func(b *testing.B) {
			br := New[int](nil)
			for i := range b.N {
				for range n {
					br.Changed()
				}
				br.Publish(i)
			}
		})
	}
}
