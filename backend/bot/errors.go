package bot

import "errors"

var (
	// ErrSignature is returned when a callback's signature does not match
	// its content: it was not sent by the platform, or the token is wrong.
	ErrSignature = errors.New("bad callback signature")
	// ErrStale is returned for a callback whose timestamp is more than five
	// minutes away from this machine's clock.
	ErrStale = errors.New("stale callback timestamp")
	// ErrReplay is returned for a callback whose nonce was already used.
	ErrReplay = errors.New("replayed callback nonce")
	// ErrMalformed is returned for a callback body or ciphertext that cannot
	// be parsed.
	ErrMalformed = errors.New("malformed callback")
	// ErrTooLarge is returned for a callback body over the size limit.
	ErrTooLarge = errors.New("callback body too large")
	// ErrReceiver is returned when a decrypted message is addressed to
	// another receiver id (another company, or another bot).
	ErrReceiver = errors.New("message for another receiver")
	// ErrAESKey is returned by NewCrypter for an EncodingAESKey that is not
	// 43 characters of base64.
	ErrAESKey = errors.New("bad EncodingAESKey")
	// ErrAPI is wrapped by every error the WeCom API answers with; the
	// *APIError carries its code.
	ErrAPI = errors.New("WeCom API error")
	// ErrSetup is returned by New when its options lack the store, the run
	// manager or a complete agent setup (a programming error, not a user's).
	ErrSetup = errors.New("bot options lack a store, a run manager or a complete agent setup")
	// errNoAlways is returned for an "always allow", which no one in a chat
	// can give: tools are allowed in the bot by [bot] allow_tools.
	errNoAlways = errors.New("the bot does not remember approvals; list the tool in [bot] allow_tools")
	// ErrWorkspace is returned when a user's workspace folder cannot be
	// made under [bot] workspace.
	ErrWorkspace = errors.New("workspace folder cannot be made")
	// ErrClosed is returned when a message arrives after the bot began to
	// shut down.
	ErrClosed = errors.New("bot is shutting down")
)
