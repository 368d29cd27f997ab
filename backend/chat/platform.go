package chat

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"hermes/backend/chatapi"
	"hermes/backend/config"
)

// Platform is one chat platform as hermes bot builds it. Its package
// registers it once, in an init (Register), and backend/platforms links the
// package: that is all a new platform needs outside its own package.
type Platform struct {
	// Config is what [bot] knows of it: its name (the value of [bot]
	// platform that picks it), its own keys of [bot] and their
	// documentation, and the settings it needs to start.
	Config config.BotPlatform
	// New builds the platform's adapter for a bot about to serve it.
	New func(Env) (Adapter, error)
}

// Env is what a platform's adapter is built with.
type Env struct {
	// Config is [bot], environment references resolved and Ready; the
	// platform's own keys are config.BotKeys of it.
	Config config.Bot
	// Inbox is the bot, taking the messages of this platform.
	Inbox Inbox
	// BodyLimit is the most bytes a callback may hold ([bot] max_body),
	// read for each one: an edit applies at once.
	BodyLimit func() int
	// HTTP is the client for the platform's API and replies, its idle
	// connections kept for [bot] rate_limit of them at once.
	HTTP *http.Client
	// Backoff is the wait before retry n of an API call the platform said
	// was busy; nil is chatapi.Backoff (tests shorten it).
	Backoff func(n int) time.Duration
	Now     func() time.Time
	// Cache keeps what the API client looked up once (WeCom's user ids)
	// in hermes.db; a replica keeps them in Shared's instead.
	Cache chatapi.UserIDCache
	// Shared, when set, is the cluster the bot is one replica of: the
	// API client's token and rates are the replicas' together. nil for a
	// bot that is one process.
	Shared Shared
}

// Adapter is a platform's side of a running bot. Its ServeHTTP serves the
// callback path: it verifies each callback (signature, timestamp, nonce),
// decodes it (decrypting what the platform encrypts) and hands the messages
// to the Inbox with a Replier for their sender before it answers the
// callback. Its Repliers carry the replies back within the platform's
// limits (the size of one message, the API's rates), and are Drafters too
// where the platform can show a reply being written.
//
// An adapter may also be a Checker and a Replicated.
type Adapter interface {
	http.Handler
}

// Checker is an adapter whose credentials are checked before the bot takes
// a callback: Check fails, saying what to fix in [bot], when the platform
// refuses them.
type Checker interface {
	Check(ctx context.Context) error
}

// Replicated is an adapter whose replies can go out from any replica of a
// clustered bot, so that a message one replica took is answered by
// another. A platform that is not one cannot run as a replica.
type Replicated interface {
	// ReplierTo is the replier of user's message whose replier's Address
	// was to ("" for a platform that replies to a user wherever the
	// message came from); nil when this replica cannot reply there.
	ReplierTo(user, to string) Replier
}

// Shared is what a cluster shares with a platform's API client and
// callbacks (backend/cluster's is one), so that its replicas together
// keep the platform's limits.
type Shared interface {
	// Token is the access token of app (such as its id), one for every
	// replica: the platform keeps one valid token per app.
	Token(app string) chatapi.SharedToken
	// Rate holds app's API calls to n in any one second, across the
	// replicas.
	Rate(app string, n int) chatapi.Limit
	// Limits holds per-key limits (a user's messages a minute) across the
	// replicas.
	Limits() chatapi.SharedLimits
	// Cache keeps lookups (user ids) for every replica.
	Cache() chatapi.UserIDCache
	// Streams keeps replies that are streamed, which the platform may ask
	// any replica for; nil when the cluster keeps none.
	Streams() Streams
}

// Streams keeps streamed replies by id for the replicas of a clustered bot:
// the replica that runs a message's task writes its stream, and the
// platform asks whichever replica its load balancer picks for more.
type Streams interface {
	// Load returns the stream stored under id, nil when there is none.
	Load(id string) ([]byte, error)
	// Store replaces the stream stored under id.
	Store(id string, data []byte) error
}

var registry struct {
	sync.Mutex
	byName map[string]Platform
}

// Register adds p to the platforms [bot] platform may name; a platform's
// package calls it from an init. A name registered twice panics.
func Register(p Platform) {
	registry.Lock()
	defer registry.Unlock()
	name := p.Config.Name
	if name == "" || p.New == nil {
		panic("chat: Register needs the platform's name and its New")
	}
	if _, ok := registry.byName[name]; ok {
		panic(fmt.Sprintf("chat: platform %q registered twice", name))
	}
	if registry.byName == nil {
		registry.byName = map[string]Platform{}
	}
	registry.byName[name] = p
	config.RegisterBotPlatform(p.Config)
}

// Lookup returns the platform registered as name.
func Lookup(name string) (Platform, bool) {
	registry.Lock()
	defer registry.Unlock()
	p, ok := registry.byName[name]
	return p, ok
}

// Names are the platforms registered, sorted.
func Names() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.byName))
	for n := range registry.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
