package wecom

import (
	"net/http"

	"hermes/backend/callback"
)

// verifyEcho answers WeCom's URL verification: the decrypted echostr.
func verifyEcho(c *Crypter, g *callback.Guard, r *http.Request) ([]byte, error) {
	v, err := callback.Query(r, "msg_signature", "timestamp", "nonce", "echostr")
	if err != nil {
		return nil, err
	}
	if err := c.Verify(v[0], v[1], v[2], v[3]); err != nil {
		return nil, err
	}
	if err := g.Fresh(v[1]); err != nil {
		return nil, err
	}
	return c.Decrypt(v[3])
}

// openSigned verifies a POSTed ciphertext against the query's signature,
// checks its timestamp and nonce, and decrypts it.
func openSigned(c *Crypter, g *callback.Guard, r *http.Request, encrypted string) ([]byte, error) {
	v, err := callback.Query(r, "msg_signature", "timestamp", "nonce")
	if err != nil {
		return nil, err
	}
	if err := c.Verify(v[0], v[1], v[2], encrypted); err != nil {
		return nil, err
	}
	if err := g.Check(v[1], v[2]); err != nil {
		return nil, err
	}
	return c.Decrypt(encrypted)
}
