package wecom

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"hermes/backend/callback"
)

// pkcs7Block is the block WeCom pads to: 32 bytes, not AES's 16.
const pkcs7Block = 32

// Crypter is WeCom's WXBizMsgCrypt scheme: a SHA1 signature over the sorted
// token, timestamp, nonce and ciphertext, and AES-256-CBC with the key (and
// its first 16 bytes as IV) from the EncodingAESKey, over a random 16-byte
// prefix, the message's length, the message and the receiver id. The
// application callback's receiver id is the corp id; the intelligent bot's
// is empty.
type Crypter struct {
	token     string
	key       []byte
	receiveID string
	random    io.Reader
}

// NewCrypter returns the crypter of one callback. The error never holds the
// key or the token.
func NewCrypter(token, encodingAESKey, receiveID string) (*Crypter, error) {
	if len(encodingAESKey) != 43 {
		return nil, fmt.Errorf("%w: %d characters, want 43", ErrAESKey, len(encodingAESKey))
	}
	key, err := base64.StdEncoding.DecodeString(encodingAESKey + "=")
	if err != nil || len(key) != 32 {
		return nil, fmt.Errorf("%w: not base64", ErrAESKey)
	}
	return &Crypter{token: token, key: key, receiveID: receiveID, random: rand.Reader}, nil
}

// Sign is the signature of a ciphertext sent at timestamp with nonce.
func (c *Crypter) Sign(timestamp, nonce, encrypted string) string {
	parts := []string{c.token, timestamp, nonce, encrypted}
	slices.Sort(parts)
	sum := sha1.Sum([]byte(strings.Join(parts, "")))
	return hex.EncodeToString(sum[:])
}

// Verify checks signature in constant time.
func (c *Crypter) Verify(signature, timestamp, nonce, encrypted string) error {
	want := c.Sign(timestamp, nonce, encrypted)
	if subtle.ConstantTimeCompare([]byte(strings.ToLower(signature)), []byte(want)) != 1 {
		return callback.ErrSignature
	}
	return nil
}

// Encrypt seals msg for the receiver id and returns it in base64.
func (c *Crypter) Encrypt(msg []byte) (string, error) {
	var plain bytes.Buffer
	prefix := make([]byte, 16)
	if _, err := io.ReadFull(c.random, prefix); err != nil {
		return "", fmt.Errorf("encrypt: random prefix: %w", err)
	}
	plain.Write(prefix)
	plain.Write(binary.BigEndian.AppendUint32(nil, uint32(len(msg))))
	plain.Write(msg)
	plain.WriteString(c.receiveID)
	pad := pkcs7Block - plain.Len()%pkcs7Block
	plain.Write(bytes.Repeat([]byte{byte(pad)}, pad))

	block, err := aes.NewCipher(c.key)
	if err != nil {
		return "", fmt.Errorf("encrypt: %w", err)
	}
	out := plain.Bytes()
	cipher.NewCBCEncrypter(block, c.key[:aes.BlockSize]).CryptBlocks(out, out)
	return base64.StdEncoding.EncodeToString(out), nil
}

// Decrypt opens a base64 ciphertext and returns the message, after checking
// its padding, its length field and its receiver id.
func (c *Crypter) Decrypt(encrypted string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(encrypted)
	if err != nil {
		return nil, fmt.Errorf("%w: ciphertext is not base64", callback.ErrMalformed)
	}
	if len(raw) < pkcs7Block || len(raw)%aes.BlockSize != 0 {
		return nil, fmt.Errorf("%w: ciphertext of %d bytes", callback.ErrMalformed, len(raw))
	}
	block, err := aes.NewCipher(c.key)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	cipher.NewCBCDecrypter(block, c.key[:aes.BlockSize]).CryptBlocks(raw, raw)
	pad := int(raw[len(raw)-1])
	if pad < 1 || pad > pkcs7Block || pad > len(raw) || !bytes.Equal(raw[len(raw)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
		return nil, fmt.Errorf("%w: bad padding (is encoding_aes_key right?)", callback.ErrMalformed)
	}
	raw = raw[:len(raw)-pad]
	if len(raw) < 20 {
		return nil, fmt.Errorf("%w: plaintext of %d bytes", callback.ErrMalformed, len(raw))
	}
	n := binary.BigEndian.Uint32(raw[16:20])
	if uint64(n) > uint64(len(raw)-20) {
		return nil, fmt.Errorf("%w: length field %d past the end", callback.ErrMalformed, n)
	}
	msg, receiver := raw[20:20+n], raw[20+n:]
	if string(receiver) != c.receiveID {
		return nil, ErrReceiver
	}
	return msg, nil
}

// Open verifies a signed ciphertext, then decrypts it.
func (c *Crypter) Open(signature, timestamp, nonce, encrypted string) ([]byte, error) {
	if err := c.Verify(signature, timestamp, nonce, encrypted); err != nil {
		return nil, err
	}
	return c.Decrypt(encrypted)
}

// Seal encrypts msg and signs the ciphertext for timestamp and nonce.
func (c *Crypter) Seal(msg []byte, timestamp, nonce string) (encrypted, signature string, err error) {
	encrypted, err = c.Encrypt(msg)
	if err != nil {
		return "", "", err
	}
	return encrypted, c.Sign(timestamp, nonce, encrypted), nil
}
