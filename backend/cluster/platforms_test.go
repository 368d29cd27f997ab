package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/feishu"
	"hermes/backend/feishu/feishutest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// countingModel answers each task with its token ("done: u0-m0"), counting
// the requests.
func countingModel(t *testing.T) (*llmtest.Server, *atomic.Int32) {
	var asked atomic.Int32
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		asked.Add(1)
		return llmtest.Step{Content: wecomtest.Answer(req)}
	}), &asked
}

// TestReplicas_FeishuAnsweredOnceByAnyReplica: a Feishu event reaches one
// replica, which loses NATS at once; the other replica runs the message
// and replies to it through Feishu's API, once, with the tenant token the
// replicas share.
func TestReplicas_FeishuAnsweredOnceByAnyReplica(t *testing.T) {
	const appID, appSecret, verify, encrypt = "cli_feishutest", "feishu-secret-9a8b7c", "verify-token-1f2e", "encrypt-key-3d4c"
	lark := feishutest.NewServer(t, appID, appSecret, 0)
	model, asked := countingModel(t)
	srv := clustertest.Start(t)
	cfg := config.WithBotKeys(config.Bot{Platform: feishu.Name, APIBase: lark.URL},
		feishu.Keys{AppID: appID, AppSecret: appSecret, VerificationToken: verify, EncryptKey: encrypt})
	var rs [2]*clustertest.Replica
	for i, name := range []string{"replica-0", "replica-1"} {
		rs[i] = clustertest.StartReplica(t, clustertest.ReplicaOptions{
			Name: name, NATSURL: srv.URL, Model: model.URL, Bot: cfg, AckWait: 2 * time.Second,
		})
	}
	events := feishutest.NewEvents(rs[0].URL, verify, encrypt)
	status, err := events.Send(feishutest.Text{EventID: "ev-1", MessageID: "om_1", OpenID: "ou_alice", ChatID: "oc_1", Text: "u0-m0 please"})
	if err != nil || status != http.StatusOK {
		t.Fatalf("event: status %d, %v", status, err)
	}
	rs[0].Die() // whatever it took goes to the other
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	answered := func(replies []feishutest.Reply) int {
		n := 0
		for _, r := range replies {
			if strings.Contains(r.Text(), "done: u0-m0") {
				n++
			}
		}
		return n
	}
	if err := lark.WaitFor(ctx, func(r []feishutest.Reply) bool { return answered(r) > 0 }); err != nil {
		t.Fatal(err)
	}
	rs[0].Close()
	rs[1].Close() // every reply still queued goes out, or none would
	replies := lark.Replies()
	if answered(replies) != 1 || replies[len(replies)-1].To != "om_1" {
		t.Fatalf("Feishu got %+v; want one answer to om_1", replies)
	}
	if st := lark.Stats(); st.Tokens != 1 {
		t.Errorf("%d tenant tokens fetched, want 1 for the replicas", st.Tokens)
	}
	if n := asked.Load(); n < 1 || n > 2 {
		t.Errorf("the model was asked %d times", n)
	}
}

// aibot posts an intelligent bot callback to url and returns the stream
// the reply names.
func aibot(t *testing.T, url string, crypt *wecom.Crypter, payload string) (id string, finish bool, content string) {
	t.Helper()
	ts, nonce := strconv.FormatInt(time.Now().Unix(), 10), wecomtest.Nonce()
	enc, sig, err := crypt.Seal([]byte(payload), ts, nonce)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"encrypt": enc})
	resp, err := http.Post(url+"?"+queryOf(sig, ts, nonce), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("callback: status %d", resp.StatusCode)
	}
	var reply struct {
		Encrypt   string `json:"encrypt"`
		Signature string `json:"msgsignature"`
		Timestamp int64  `json:"timestamp"`
		Nonce     string `json:"nonce"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	plain, err := crypt.Open(reply.Signature, strconv.FormatInt(reply.Timestamp, 10), reply.Nonce, reply.Encrypt)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Stream struct {
			ID      string `json:"id"`
			Finish  bool   `json:"finish"`
			Content string `json:"content"`
		} `json:"stream"`
	}
	if err := json.Unmarshal(plain, &p); err != nil {
		t.Fatal(err)
	}
	return p.Stream.ID, p.Stream.Finish, p.Stream.Content
}

func queryOf(sig, ts, nonce string) string {
	return url.Values{"msg_signature": {sig}, "timestamp": {ts}, "nonce": {nonce}}.Encode()
}

// TestReplicas_WeComBotStreamsFromAnyReplica: an intelligent bot's message
// reaches one replica, which loses NATS at once; the other runs it, and
// WeCom's requests for more of the stream, sent to that other replica,
// get the answer; a resend of the message there names the same stream.
func TestReplicas_WeComBotStreamsFromAnyReplica(t *testing.T) {
	model, asked := countingModel(t)
	srv := clustertest.Start(t)
	cfg := config.WithBotKeys(config.Bot{Platform: wecom.BotName, WebhookSecret: clustertest.Token}, wecom.Keys{EncodingAESKey: clustertest.AESKey})
	var rs [2]*clustertest.Replica
	for i, name := range []string{"replica-0", "replica-1"} {
		rs[i] = clustertest.StartReplica(t, clustertest.ReplicaOptions{
			Name: name, NATSURL: srv.URL, Model: model.URL, Bot: cfg, AckWait: 2 * time.Second,
		})
	}
	crypt, err := wecom.NewCrypter(clustertest.Token, clustertest.AESKey, "")
	if err != nil {
		t.Fatal(err)
	}
	// The streams as the replicas store them, to wait for the answer.
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(t.Context(), "hermes_bot_streams")
	if err != nil {
		t.Fatal(err)
	}
	w, err := kv.Watch(t.Context(), "*", jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	msg := `{"msgid":"aibot-1","aibotid":"AIBOTID","chattype":"single","from":{"userid":"zhangsan"},"msgtype":"text","text":{"content":"u0-m0 please"}}`
	id, finish, _ := aibot(t, rs[0].URL, crypt, msg)
	if id == "" || finish {
		t.Fatalf("first answer: stream %q finish=%v; want an open stream", id, finish)
	}
	rs[0].Die()
	if again, _, _ := aibot(t, rs[1].URL, crypt, msg); again != id {
		t.Fatalf("the resend to another replica named stream %q, want %q", again, id)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for done := false; !done; {
		select {
		case e := <-w.Updates():
			done = e != nil && bytes.Contains(e.Value(), []byte(`"finished":true`))
		case <-ctx.Done():
			t.Fatal("the stream was never finished")
		}
	}
	refresh := `{"msgid":"aibot-2","msgtype":"stream","stream":{"id":"` + id + `"}}`
	if _, finish, content := aibot(t, rs[1].URL, crypt, refresh); !finish || !strings.Contains(content, "done: u0-m0") {
		t.Fatalf("refresh from the other replica: finish=%v content %q", finish, content)
	}
	rs[0].Close()
	rs[1].Close()
	if n := asked.Load(); n < 1 || n > 2 {
		t.Errorf("the model was asked %d times", n)
	}
}
