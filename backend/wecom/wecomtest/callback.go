package wecomtest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"hermes/backend/wecom"
)

// Callbacks posts what WeCom posts to an application's callback URL:
// messages signed with the token and encrypted with the AES key.
type Callbacks struct {
	URL    string // the bot's callback URL
	CorpID string
	crypt  *wecom.Crypter
	Client *http.Client
	// Now is the time stamped on callbacks; nil means time.Now.
	Now func() time.Time
}

// NewCallbacks returns a sender for the bot at url.
func NewCallbacks(url, token, aesKey, corpID string) (*Callbacks, error) {
	c, err := wecom.NewCrypter(token, aesKey, corpID)
	if err != nil {
		return nil, err
	}
	return &Callbacks{URL: url, CorpID: corpID, crypt: c, Client: &http.Client{Timeout: 10 * time.Second}}, nil
}

func (c *Callbacks) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Nonce is a fresh random nonce.
func Nonce() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// TextXML is the plaintext of a text message from user.
func (c *Callbacks) TextXML(from, msgID, text string) []byte {
	type cdata struct {
		Text string `xml:",cdata"`
	}
	var b bytes.Buffer
	_ = xml.NewEncoder(&b).Encode(struct { // strings always encode
		XMLName      xml.Name `xml:"xml"`
		ToUserName   cdata
		FromUserName cdata
		CreateTime   int64
		MsgType      cdata
		Content      cdata
		MsgId        string
		AgentID      int
	}{ToUserName: cdata{c.CorpID}, FromUserName: cdata{from}, CreateTime: c.now().Unix(),
		MsgType: cdata{"text"}, Content: cdata{text}, MsgId: msgID, AgentID: 1000002})
	return b.Bytes()
}

// Request builds a signed callback POST of plaintext, stamped at ts with nonce.
func (c *Callbacks) Request(plaintext []byte, ts time.Time, nonce string) (*http.Request, error) {
	stamp := strconv.FormatInt(ts.Unix(), 10)
	enc, sig, err := c.crypt.Seal(plaintext, stamp, nonce)
	if err != nil {
		return nil, err
	}
	body := fmt.Sprintf("<xml><ToUserName><![CDATA[%s]]></ToUserName><Encrypt><![CDATA[%s]]></Encrypt><AgentID><![CDATA[1000002]]></AgentID></xml>", c.CorpID, enc)
	q := url.Values{"msg_signature": {sig}, "timestamp": {stamp}, "nonce": {nonce}}
	req, err := http.NewRequest(http.MethodPost, c.URL+"?"+q.Encode(), bytes.NewBufferString(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "text/xml")
	return req, nil
}

// Text posts a text message from user and returns the HTTP status and how
// long the bot took to answer.
func (c *Callbacks) Text(from, msgID, text string) (int, time.Duration, error) {
	req, err := c.Request(c.TextXML(from, msgID, text), c.now(), Nonce())
	if err != nil {
		return 0, 0, err
	}
	return c.Do(req)
}

// Do sends a request and returns its status and latency.
func (c *Callbacks) Do(req *http.Request) (int, time.Duration, error) {
	start := time.Now()
	resp, err := c.Client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	_ = resp.Body.Close() // only the status is asked
	return resp.StatusCode, time.Since(start), nil
}

// VerifyURL sends WeCom's URL verification GET with echo as the secret
// string, and returns the status and the body.
func (c *Callbacks) VerifyURL(echo string) (int, string, error) {
	stamp := strconv.FormatInt(c.now().Unix(), 10)
	nonce := Nonce()
	enc, sig, err := c.crypt.Seal([]byte(echo), stamp, nonce)
	if err != nil {
		return 0, "", err
	}
	q := url.Values{"msg_signature": {sig}, "timestamp": {stamp}, "nonce": {nonce}, "echostr": {enc}}
	resp, err := c.Client.Get(c.URL + "?" + q.Encode())
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		return 0, "", err
	}
	return resp.StatusCode, b.String(), nil
}
