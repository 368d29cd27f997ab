package wecom

import (
	"errors"
	"fmt"

	"hermes/backend/callback"
)

var (
	// ErrReceiver is returned when a decrypted message is addressed to
	// another receiver id (another company, or another bot).
	ErrReceiver = fmt.Errorf("%w: a message for another company or bot", callback.ErrReceiver)
	// ErrAESKey is returned by NewCrypter for an EncodingAESKey that is not
	// 43 characters of base64.
	ErrAESKey = errors.New("bad EncodingAESKey")
	// ErrAPI is wrapped by every error the WeCom API answers with; the
	// *APIError carries its code.
	ErrAPI = errors.New("WeCom API error")
	// ErrNoContacts is returned by API.Person, once per client, when WeCom
	// refuses a contacts lookup for lack of permission; the person is then
	// known by id alone.
	ErrNoContacts = errors.New("the WeCom application may not read the contacts, so users are shown by id: in the admin console give the application the contacts permission (通讯录) and put the users' departments in its visible range")
)
