package feishu

import (
	"errors"
	"fmt"

	"hermes/backend/callback"
)

var (
	// ErrToken is returned for an event whose verification token is not
	// [bot] verification_token: it was not sent by Feishu for this app. It
	// is a callback.ErrSignature, refused alike.
	ErrToken = fmt.Errorf("%w: wrong verification token", callback.ErrSignature)
	// ErrUnsigned is returned for an event without X-Lark-Signature while
	// [bot] encrypt_key is set, as Feishu signs every event then. It is a
	// callback.ErrSignature, refused alike.
	ErrUnsigned = fmt.Errorf("%w: no X-Lark-Signature while encrypt_key is set", callback.ErrSignature)
	// ErrAPI is wrapped by every error the Feishu open API answers with;
	// the *APIError carries its code.
	ErrAPI = errors.New("Feishu API error") //nolint:staticcheck // Feishu is a name
)
