package cli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestBot_ClusterReplicasAnswerOnce: two `hermes bot` replicas, each on its
// own home, with [cluster] nats_url on one NATS server; WeCom delivers one
// message to both; it is run once and answered once.
func TestBot_ClusterReplicasAnswerOnce(t *testing.T) {
	nats := clustertest.Start(t)
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "hello from the cluster"} })
	wecom := wecomtest.NewServer(t, botCorpID, botSecret, 0)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var codes []chan int
	var errOuts []*botOutput
	var urls []string
	for range 2 {
		home := t.TempDir()
		writeBotConfig(t, home, model.URL, wecom.URL, "\n[cluster]\nnats_url = \""+nats.URL+"\"\n")
		out, errOut := &botOutput{ready: make(chan string, 1)}, &botOutput{}
		code := make(chan int, 1)
		go func() {
			code <- cli.Main(ctx, botEnv(out, errOut), []string{"bot", "--home", home, "--listen", "127.0.0.1:0"})
		}()
		select {
		case url := <-out.ready:
			urls = append(urls, url)
		case c := <-code:
			t.Fatalf("hermes bot exited with %d before listening:\n%s", c, errOut)
		}
		codes, errOuts = append(codes, code), append(errOuts, errOut)
	}
	for _, url := range urls {
		cb, err := wecomtest.NewCallbacks(url, botToken, botAESKey, botCorpID)
		if err != nil {
			t.Fatal(err)
		}
		if status, _, err := cb.Text("lisi", "m1", "say hello"); err != nil || status != 200 {
			t.Fatalf("callback: %d %v", status, err)
		}
	}
	wait, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	if err := wecom.WaitFor(wait, func(m map[string][]string) bool { return len(m["lisi"]) > 0 }); err != nil {
		t.Fatal(err)
	}
	cancel()
	for i, code := range codes {
		if c := <-code; c != cli.ExitOK {
			t.Fatalf("replica %d: exit code %d after cancel:\n%s", i, c, errOuts[i])
		}
	}
	if got := wecom.Messages("lisi"); len(got) != 1 || got[0] != "hello from the cluster" {
		t.Fatalf("lisi was sent %q; want one answer", got)
	}
}

// TestBot_ClusterUnreachableSaysWhatToDo: a nats_url no server answers
// stops hermes bot with what to check.
func TestBot_ClusterUnreachableSaysWhatToDo(t *testing.T) {
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "x"} })
	wecom := wecomtest.NewServer(t, botCorpID, botSecret, 0)
	home := t.TempDir()
	writeBotConfig(t, home, model.URL, wecom.URL, "\n[cluster]\nnats_url = \"nats://127.0.0.1:9\"\n")
	out, errOut := &botOutput{}, &botOutput{}
	if c := cli.Main(t.Context(), botEnv(out, errOut), []string{"bot", "--home", home, "--listen", "127.0.0.1:0"}); c == cli.ExitOK {
		t.Fatal("hermes bot started without NATS")
	}
	if !strings.Contains(errOut.String(), "[cluster] nats_url") {
		t.Fatalf("the error does not say what to check:\n%s", errOut)
	}
}
