package feishu_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/chatapi"
	"hermes/backend/feishu"
	"hermes/backend/feishu/feishutest"
)

// gate is the company's rate limit held by the test: each call asks for
// its place on arrive and gets it when the test grants it.
type gate struct{ arrive, grant chan struct{} }

func (g gate) Acquire(ctx context.Context) (func(), error) {
	g.arrive <- struct{}{}
	select {
	case <-g.grant:
		return func() {}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestAPI_ReplyCommitsOnceItsPlaceIsGranted: a replica's answer settles
// its task (the context's commit) only when the rate limit has given the
// reply its place, just before it goes out, not while it waits; a commit
// that fails sends nothing and is not tried again.
func TestAPI_ReplyCommitsOnceItsPlaceIsGranted(t *testing.T) {
	srv := feishutest.NewServer(t, appID, appSecret, 0)
	g := gate{arrive: make(chan struct{}), grant: make(chan struct{})}
	api := feishu.NewAPI(feishu.APIOptions{Base: srv.URL, AppID: appID, AppSecret: appSecret, Rate: 50, RateLimit: g,
		Backoff: func(int) time.Duration { return time.Millisecond }})
	r := api.ReplierTo(`{"m":"om_1"}`)
	if r == nil {
		t.Fatal("no replier for the address")
	}
	if _, ok := r.(interface{ CommitsOnSend() }); !ok {
		t.Fatal("the replier does not say it commits on send")
	}
	var commits atomic.Int32
	ctx := chatapi.WithCommit(t.Context(), func() error { commits.Add(1); return nil })
	sent := make(chan error, 1)
	go func() { sent <- r.Reply(ctx, "short answer", true) }()
	<-g.arrive // the tenant token's place
	g.grant <- struct{}{}
	<-g.arrive // the reply's place
	if n := commits.Load(); n != 0 {
		t.Fatalf("committed %d times while the reply waits for its place", n)
	}
	g.grant <- struct{}{}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if n, st := commits.Load(), srv.Stats(); n != 1 || st.Replies != 1 {
		t.Fatalf("%d commits, %d replies; want 1 and 1", n, st.Replies)
	}

	lost := errors.New("lease lost")
	var tries atomic.Int32
	ctx = chatapi.WithCommit(t.Context(), func() error { tries.Add(1); return lost })
	go func() { sent <- r.Reply(ctx, "another answer", true) }()
	<-g.arrive
	g.grant <- struct{}{}
	if err := <-sent; !errors.Is(err, lost) {
		t.Fatalf("reply with a failed commit: %v, want its error", err)
	}
	if n, st := tries.Load(), srv.Stats(); n != 1 || st.Replies != 1 {
		t.Fatalf("a failed commit: tried %d times, %d replies in all; want 1 and 1", n, st.Replies)
	}
}
