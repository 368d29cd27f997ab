package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestProcesses_KilledMidLoadNoneLostNoneTwice: three `hermes bot`
// processes, each with its own home, on one NATS server; 50 users × 5
// messages spread across them at 500 a second. Halfway, once the first
// replica runs tasks (the model holds every answer until the load is
// sent), it is killed with SIGKILL and started again on its home; the
// callbacks it did not acknowledge go to the next replica. Every message
// is answered once, and every task the killed replica held is finished by
// another.
func TestProcesses_KilledMidLoadNoneLostNoneTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hermes binary")
	}
	bin := clustertest.BuildHermes(t)
	srv := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	release := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
	})
	cfg := clustertest.ProcConfig{Bin: bin, NATSURL: srv.URL, Model: model.URL, WeCom: wecom, RateLimit: 400, AckWait: 2 * time.Second}
	procs := make([]*clustertest.Proc, 3)
	for i := range procs {
		procs[i] = cfg.StartProc(t, fmt.Sprintf("replica-%d", i))
	}
	watch := clustertest.WatchCluster(t, srv.URL)
	load := wecomtest.Load{Users: 50, PerUser: 5}
	n := load.Users * load.PerUser
	victim := procs[0]
	var interrupted []uint64
	sent := clustertest.Drive{Load: load, Rate: 500, At: func(i int) {
		if i == n/2 {
			interrupted = watch.WaitHeld(t, victim.PID())
			victim.Kill()
			victim.Start()
		}
	}}.Run(t, procs)
	close(release)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if err := wecom.WaitFor(ctx, load.Answered); err != nil {
		t.Fatal(err)
	}
	watch.WaitAcked(t, n)
	for _, p := range procs {
		p.Stop() // every reply still queued goes out, or none would
		p.CheckLogs()
	}
	lost, twice := clustertest.Count(wecom, load)
	byAnother, before, never := watch.Finished(interrupted)
	_, over := watch.Acked()
	t.Logf("%d messages, %d lost, %d answered twice, %d callbacks resent, %d tasks taken over; the killed replica held %d",
		n, lost, twice, sent.Resent, over, len(interrupted))
	if lost != 0 || twice != 0 {
		for u := range load.Users {
			if l, d := clustertest.Count(wecom, wecomtest.Load{Users: u + 1, PerUser: load.PerUser}); l+d > 0 {
				t.Logf("%s was sent %q", load.User(u), wecom.Messages(load.User(u)))
				break
			}
		}
		t.Fatalf("%d lost, %d answered twice", lost, twice)
	}
	if byAnother != len(interrupted) || before != 0 || never != 0 {
		t.Fatalf("of the %d tasks the killed replica held, %d were finished by another, %d by it before it died, %d never",
			len(interrupted), byAnother, before, never)
	}
}
