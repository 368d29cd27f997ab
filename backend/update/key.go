package update

import (
	"crypto/rand"
	"fmt"
	"strings"

	"aead.dev/minisign"
)

// builtinPublicKey is the minisign key that signs Hermes releases. It is a
// variable so that a fork's release build can link its own key with
// -ldflags "-X hermes/backend/update.builtinPublicKey=RW...", and
// [update] public_key overrides it for a self-hosted feed.
var builtinPublicKey = "RWTCzAyzrynw3LIJfRTytmRHiTgPSNr1MoTanuFnOcLxYLzeIRZ6Uu4J"

// ParsePublicKey reads a minisign public key, either the bare base64 line
// ("RW…") or the two-line .pub file.
func ParsePublicKey(text string) (minisign.PublicKey, error) {
	var key minisign.PublicKey
	if err := key.UnmarshalText([]byte(strings.TrimSpace(text))); err != nil {
		return key, fmt.Errorf("%w: %w", ErrPublicKey, err)
	}
	return key, nil
}

// ParsePrivateKey reads a minisign private key file's contents, decrypting
// it with password when it is encrypted.
func ParsePrivateKey(text []byte, password string) (minisign.PrivateKey, error) {
	if minisign.IsEncrypted(text) {
		key, err := minisign.DecryptKey(password, text)
		if err != nil {
			return key, fmt.Errorf("%w: %w", ErrPublicKey, err)
		}
		return key, nil
	}
	var key minisign.PrivateKey
	if err := key.UnmarshalText(text); err != nil {
		return key, fmt.Errorf("%w: %w", ErrPublicKey, err)
	}
	return key, nil
}

// GenerateKey makes a signing key pair: the public key as a .pub file's text,
// and the private key's file text, encrypted when password is not empty.
func GenerateKey(password string) (public, private []byte, err error) {
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate key: %w", err)
	}
	public, _ = pub.MarshalText()
	if password == "" {
		private, err = priv.MarshalText()
	} else {
		private, err = minisign.EncryptKey(password, priv)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("encode key: %w", err)
	}
	return append(public, '\n'), append(private, '\n'), nil
}
