package feishu

import (
	"errors"
	"testing"

	"hermes/backend/callback"
)

// The decryption example of Feishu's documentation (接收事件 / Receive
// events): key "test key", this ciphertext, "hello world".
func TestCrypter_DecryptsTheDocumentedExample(t *testing.T) {
	got, err := NewCrypter("test key").Decrypt("P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "hello world" {
		t.Fatalf("decrypted %q, want %q", got, "hello world")
	}
}

func TestCrypter_RoundTripAndRefusals(t *testing.T) {
	c := NewCrypter("encrypt-key-5d2a")
	for _, plain := range []string{"", "x", "exactly sixteen!", `{"challenge":"挑战"}`} {
		got, err := c.Decrypt(c.Encrypt([]byte(plain)))
		if err != nil || string(got) != plain {
			t.Fatalf("round trip of %q: %q, %v", plain, got, err)
		}
	}
	sealed := c.Encrypt([]byte(`{"type":"url_verification"}`))
	if _, err := NewCrypter("another key").Decrypt(sealed); !errors.Is(err, callback.ErrSignature) {
		t.Errorf("another key: %v, want ErrSignature", err)
	}
	for _, bad := range []string{"not base64!", "AAAA", "P37w+VZImNgPEO1RBhJ6Rg=="} {
		if _, err := c.Decrypt(bad); err == nil {
			t.Errorf("%q decrypted", bad)
		}
	}
}

// The signature is sha256(timestamp + nonce + encrypt_key + body), in hex;
// the value below is `printf %s '1600000000nonce-1test key{}' | sha256sum`,
// worked out apart from this code.
func TestCrypter_Signature(t *testing.T) {
	c := NewCrypter("test key")
	const got = "7385b9a25d27e0093433fee0434acae482e3b069db27132518a99ee2e1418931"
	if sig := c.Sign("1600000000", "nonce-1", []byte("{}")); sig != got {
		t.Fatalf("signature %s, want %s", sig, got)
	}
	if err := c.Verify("1600000000", "nonce-1", got, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ts, nonce, body string }{
		{"1600000001", "nonce-1", "{}"}, {"1600000000", "nonce-2", "{}"}, {"1600000000", "nonce-1", "{ }"},
	} {
		if err := c.Verify(tc.ts, tc.nonce, got, []byte(tc.body)); !errors.Is(err, callback.ErrSignature) {
			t.Errorf("%+v verified with another's signature", tc)
		}
	}
}
