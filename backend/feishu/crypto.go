package feishu

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"hermes/backend/callback"
)

// Crypter opens and seals what an app with an Encrypt Key exchanges with
// Feishu: AES-256-CBC under the SHA-256 of the key, the 16-byte IV first,
// PKCS#7 padding, base64 over it all; and the X-Lark-Signature, the hex
// SHA-256 of timestamp + nonce + key + body.
type Crypter struct {
	key    string
	cipher cipher.Block
}

// NewCrypter returns the crypter of encryptKey, which must not be empty.
func NewCrypter(encryptKey string) *Crypter {
	sum := sha256.Sum256([]byte(encryptKey))
	block, _ := aes.NewCipher(sum[:]) // a 32-byte key never fails
	return &Crypter{key: encryptKey, cipher: block}
}

// Decrypt opens the base64 of an "encrypt" field. Its errors wrap
// callback.ErrMalformed and never hold the key.
func (c *Crypter) Decrypt(encrypted string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(encrypted)
	if err != nil {
		return nil, fmt.Errorf("%w: encrypt is not base64", callback.ErrMalformed)
	}
	if len(raw) < 2*aes.BlockSize || len(raw)%aes.BlockSize != 0 {
		return nil, fmt.Errorf("%w: encrypt has %d bytes, not an IV and whole AES blocks", callback.ErrMalformed, len(raw))
	}
	iv, data := raw[:aes.BlockSize], raw[aes.BlockSize:]
	plain := make([]byte, len(data))
	cipher.NewCBCDecrypter(c.cipher, iv).CryptBlocks(plain, data)
	pad := int(plain[len(plain)-1])
	if pad < 1 || pad > aes.BlockSize || pad > len(plain) {
		// A wrong key reads as bad padding, nearly always.
		return nil, fmt.Errorf("%w: encrypt does not decrypt with [bot] encrypt_key (bad padding)", callback.ErrSignature)
	}
	for _, b := range plain[len(plain)-pad:] {
		if int(b) != pad {
			return nil, fmt.Errorf("%w: encrypt does not decrypt with [bot] encrypt_key (bad padding)", callback.ErrSignature)
		}
	}
	return plain[:len(plain)-pad], nil
}

// Encrypt seals plain as Feishu does, under a random IV.
func (c *Crypter) Encrypt(plain []byte) string {
	pad := aes.BlockSize - len(plain)%aes.BlockSize
	buf := make([]byte, aes.BlockSize+len(plain)+pad)
	rand.Read(buf[:aes.BlockSize])
	copy(buf[aes.BlockSize:], plain)
	for i := len(buf) - pad; i < len(buf); i++ {
		buf[i] = byte(pad)
	}
	cipher.NewCBCEncrypter(c.cipher, buf[:aes.BlockSize]).CryptBlocks(buf[aes.BlockSize:], buf[aes.BlockSize:])
	return base64.StdEncoding.EncodeToString(buf)
}

// Sign is the X-Lark-Signature of body sent at timestamp with nonce.
func (c *Crypter) Sign(timestamp, nonce string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(timestamp + nonce + c.key))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// Verify checks a signature in constant time.
func (c *Crypter) Verify(timestamp, nonce, signature string, body []byte) error {
	want := c.Sign(timestamp, nonce, body)
	if subtle.ConstantTimeCompare([]byte(want), []byte(signature)) != 1 {
		return callback.ErrSignature
	}
	return nil
}
