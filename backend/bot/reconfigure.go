package bot

import (
	"fmt"
	"reflect"

	"hermes/backend/agent"
	"hermes/backend/config"
)

// live is what an edit of [bot] changes while the bot runs: new tasks and
// callbacks take it up; tasks already running keep what they started with.
type live struct {
	cfg   config.Bot
	setup agent.Setup
}

func (b *Bot) current() live {
	b.liveMu.RLock()
	defer b.liveMu.RUnlock()
	return b.live
}

// restartKeys are the [bot] settings that the server, the crypto and the
// platform's API client are built from, so that a change needs a restart;
// a platform's own keys (BotPlatform.Keys) are all of them such.
var restartKeys = []struct {
	key string
	get func(config.Bot) any
}{
	{"platform", func(b config.Bot) any { return b.PlatformName() }},
	{"listen", func(b config.Bot) any { return b.ListenAddr() }},
	{"path", func(b config.Bot) any { return b.CallbackPath() }},
	{"webhook_secret", func(b config.Bot) any { return b.WebhookSecret }},
	{"api_base", func(b config.Bot) any { return b.API() }},
	{"rate_limit", func(b config.Bot) any { return b.APIRate() }},
	{"workspace", func(b config.Bot) any { return b.Workspace }},
}

// Reconfigure applies an edited [bot] section (its environment references
// resolved): allow_tools, history, run_timeout and max_body take effect for
// the next task and callback. It returns the keys whose change needs a
// restart, which keep their old values until then.
func (b *Bot) Reconfigure(cfg config.Bot) (needRestart []string, err error) {
	if err := cfg.Ready(); err != nil {
		return nil, err
	}
	// An edited secret takes effect at a restart; it is scrubbed from
	// replies from now on all the same.
	for _, secret := range botSecrets(cfg) {
		b.secrets.Add(secret)
	}
	b.liveMu.Lock()
	defer b.liveMu.Unlock()
	old := b.live.cfg
	for _, k := range restartKeys {
		if !reflect.DeepEqual(k.get(old), k.get(cfg)) {
			needRestart = append(needRestart, k.key)
		}
	}
	needRestart = append(needRestart, old.ChangedKeys(cfg)...)
	next := old
	next.AllowTools, next.History, next.RunTimeout, next.MaxBody = cfg.AllowTools, cfg.History, cfg.RunTimeout, cfg.MaxBody
	b.live.cfg = next
	p, ok := b.live.setup.Policy.(botPolicy)
	if !ok {
		return needRestart, fmt.Errorf("bot policy of type %T", b.live.setup.Policy)
	}
	p.allow = cfg.AllowTools
	b.live.setup.Policy = p
	return needRestart, nil
}

// SetSetup makes the bot's next runs with s: an edit of hermes.toml's
// [agent], [model] or [context], built again. Runs already going keep what
// they started with.
func (b *Bot) SetSetup(s agent.Setup) {
	b.liveMu.Lock()
	defer b.liveMu.Unlock()
	b.live.setup = unattended(s, b.live.cfg.AllowTools, b.wsRoot)
}
