package wecom

import (
	"context"
	"fmt"
	"net/http"

	"hermes/backend/chat"
	"hermes/backend/config"
	"hermes/backend/i18n"
)

// The platforms' names, as [bot] platform picks them.
const (
	AppName = config.BotWeCom // a self-built application, the default
	BotName = "wecom_bot"     // an intelligent bot
)

// DefaultAPIBase is the WeCom API's address, for [bot] api_base.
const DefaultAPIBase = "https://qyapi.weixin.qq.com"

func init() {
	i18n.Register(platformMessages)
	i18n.Register(configMessages)
	chat.Register(chat.Platform{
		Config: config.BotPlatform{
			Name: AppName, About: config.Doc{EN: "a self-built WeCom application", ZH: "企业微信自建应用"},
			Keys: Keys{}, Docs: keyDocs, Validate: validate,
			APIBase: DefaultAPIBase, Ready: appReady, Contacts: true,
		},
		New: newApp,
	})
	chat.Register(chat.Platform{
		Config: config.BotPlatform{
			Name: BotName, About: config.Doc{EN: "a WeCom intelligent bot", ZH: "企业微信智能机器人"},
			Keys: Keys{}, Docs: keyDocs, Ready: botReady,
		},
		New: newIntelligentBot,
	})
}

// callbackOf is what the adapters check callbacks with: [bot]'s token and
// key, and its body limit as it stands at each one.
func callbackOf(env chat.Env) Callback {
	return Callback{Token: env.Config.WebhookSecret, EncodingAESKey: config.BotKeys[Keys](env.Config).EncodingAESKey, BodyLimit: env.BodyLimit, Now: env.Now}
}

// newApp builds the adapter of a self-built application and its API
// client. The replicas of a clustered bot share the access token, the
// company's rate, the users' send limits and the user-id conversions.
func newApp(env chat.Env) (chat.Adapter, error) {
	c, k := env.Config, config.BotKeys[Keys](env.Config)
	o := APIOptions{
		Base: c.API(), CorpID: k.CorpID, Secret: k.Secret, AgentID: k.AgentID,
		Rate: c.APIRate(), UserRate: k.UserRate(), Cache: env.Cache, HTTP: env.HTTP,
		Backoff: env.Backoff, Now: env.Now,
	}
	if sh := env.Shared; sh != nil {
		app := fmt.Sprintf("%s/%d", k.CorpID, k.AgentID)
		o.Token, o.UserLimit, o.Cache, o.RateLimit = sh.Token(app), sh.Limits(), sh.Cache(), sh.Rate(app, c.APIRate())
	}
	return NewApp(callbackOf(env), k.CorpID, NewAPI(o), env.Inbox)
}

// newIntelligentBot builds the adapter of an intelligent bot. Its replies
// are streams WeCom asks for: a clustered bot keeps them where every
// replica finds them, or cannot run as replicas.
func newIntelligentBot(env chat.Env) (chat.Adapter, error) {
	a, err := NewIntelligentBot(callbackOf(env), env.Inbox)
	if err != nil {
		return nil, err
	}
	if env.Shared == nil {
		return a, nil
	}
	s := env.Shared.Streams()
	if s == nil {
		// Not a chat.Replicated: the bot says it cannot be a replica.
		return struct{ http.Handler }{a}, nil
	}
	a.Share(s)
	return a, nil
}

// Check fetches an access token (API.Check) and says what to fix in [bot]
// when WeCom refuses.
func (a *App) Check(ctx context.Context) error {
	if err := a.api.Check(ctx); err != nil {
		return i18n.Wrap(err, "wecom.refused", err)
	}
	return nil
}

// ReplierTo is the replier of user, as a message of theirs would get: a
// clustered bot answers on one replica a message another one received.
func (a *App) ReplierTo(user, _ string) chat.Replier { return a.replier(user) }

// API is the application's client of the WeCom API.
func (a *App) API() *API { return a.api }

// Person is who user is, as the contacts say (API.Person).
func (a *App) Person(ctx context.Context, user string) (Person, error) {
	return a.api.Person(ctx, user)
}

var (
	_ chat.Checker    = (*App)(nil)
	_ chat.Replicated = (*App)(nil)
	_ chat.Replicated = (*IntelligentBot)(nil)
)

func platformMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"wecom.refused": {
			EN: "WeCom did not give an access token: %v; check [bot] corp_id and secret (the application's Secret, from the WeCom admin console) and api_base",
			ZH: "企业微信没有返回 access token：%v；请检查 [bot] 的 corp_id 和 secret（企业微信管理后台中该应用的 Secret）以及 api_base",
		},
	}
}
