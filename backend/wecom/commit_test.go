package wecom_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"hermes/backend/chatapi"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
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

// TestAPI_SendCommitsOnceItsPlaceIsGranted: a replica's answer settles its
// task (the context's commit) only when the rate limit has given the send
// its place, just before it goes out: an answer still waiting its turn
// when the replica dies has settled nothing, and another replica answers.
// A commit that fails sends nothing and is not tried again.
func TestAPI_SendCommitsOnceItsPlaceIsGranted(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	g := gate{arrive: make(chan struct{}), grant: make(chan struct{})}
	api := wecom.NewAPI(wecom.APIOptions{
		Base: srv.URL, CorpID: testCorpID, Secret: testSecret, AgentID: 1000002,
		Rate: 1000, UserRate: 1000, RateLimit: g, Backoff: noBackoff,
	})
	var commits atomic.Int32
	ctx := chatapi.WithCommit(t.Context(), func() error { commits.Add(1); return nil })
	sent := make(chan error, 1)
	go func() { sent <- api.SendText(ctx, "user", "hello") }()
	<-g.arrive // the access token's place
	g.grant <- struct{}{}
	<-g.arrive // the message's place
	if n := commits.Load(); n != 0 {
		t.Fatalf("committed %d times while the message waits for its place", n)
	}
	g.grant <- struct{}{}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if n, st := commits.Load(), srv.Stats(); n != 1 || st.Send != 1 {
		t.Fatalf("%d commits, %d sent; want 1 and 1", n, st.Send)
	}

	lost := errors.New("lease lost")
	var tries atomic.Int32
	ctx = chatapi.WithCommit(t.Context(), func() error { tries.Add(1); return lost })
	go func() { sent <- api.SendText(ctx, "user", "hello again") }()
	<-g.arrive
	g.grant <- struct{}{}
	if err := <-sent; !errors.Is(err, lost) {
		t.Fatalf("send with a failed commit: %v, want its error", err)
	}
	if n, st := tries.Load(), srv.Stats(); n != 1 || st.Send != 1 {
		t.Fatalf("a failed commit: tried %d times, %d sent in all; want 1 and 1", n, st.Send)
	}
}
