package wecom

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"hermes/backend/callback"
)

// The samples that WeCom's own SDKs publish, copied value for value:
//   - sbzhu/weworkapi_golang, sample.go (the Go WXBizMsgCrypt SDK): token
//     QDG6eK, corp id wx5823bf96d3bd56c7, its URL verification and its XML
//     message callback;
//   - workweixin/weworkapi_golang, json_callback/sample.go (the JSON SDK):
//     the same keys, a JSON message callback whose plaintext is the sample's
//     respData;
//   - sbzhu/weworkapi_python, callback/Sample.py: token
//     hJqcu3uJ9Tn2gXPmxx2w9kkCkCE2EPYo, corp id ww1436e0e65a779aee, its URL
//     verification and message callback, whose plaintext is the sample's
//     sRespData.
//
// The SDKs print the echo strings' plaintext rather than state it; the
// values below are what decrypting gives, tied to the samples by their
// published signatures and by the receiver id check.
const (
	sampleToken  = "QDG6eK"
	sampleAESKey = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C"
	sampleCorpID = "wx5823bf96d3bd56c7"

	pySampleToken  = "hJqcu3uJ9Tn2gXPmxx2w9kkCkCE2EPYo"
	pySampleAESKey = "6qkdMrq68nTKduznJYO1A37W2oEgpkMUvkttRToqhUt"
	pySampleCorpID = "ww1436e0e65a779aee"
)

var sdkSamples = []struct {
	name                              string
	token, aesKey, corpID             string
	signature, timestamp, nonce, data string
	want                              string
}{
	{
		name: "go sdk url verification", token: sampleToken, aesKey: sampleAESKey, corpID: sampleCorpID,
		signature: "5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3", timestamp: "1409659589", nonce: "263014780",
		data: "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==",
		want: "1616140317555161061",
	},
	{
		name: "go sdk xml message", token: sampleToken, aesKey: sampleAESKey, corpID: sampleCorpID,
		signature: "477715d11cdb4164915debcba66cb864d751f3e6", timestamp: "1409659813", nonce: "1372623149",
		data: "RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==",
		want: "<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName>\n<FromUserName><![CDATA[mycreate]]></FromUserName>\n<CreateTime>1409659813</CreateTime>\n<MsgType><![CDATA[text]]></MsgType>\n<Content><![CDATA[hello]]></Content>\n<MsgId>4561255354251345929</MsgId>\n<AgentID>218</AgentID>\n</xml>",
	},
	{
		name: "json sdk message", token: sampleToken, aesKey: sampleAESKey, corpID: sampleCorpID,
		signature: "0623cbc5a8cbee5bcc137c70de99575366fc2af3", timestamp: "1409659813", nonce: "1372623149",
		data: "CZWs4CWRpI4VolQlvn4dlEC1alN2MUEY2VklGehgBVLBrlVF7SyT+SV+Toj43l4ayJ9UMGKphktKKmP7B2j/P1ey67XB8PBgS7Wr5/8+w/yWriZv3Vmoo/MH3/1HsIWZrPQ3N2mJrelStIfI2Y8kLKXA7EhfZgZX4o+ffdkZDM76SEl79Ib9mw7TGjZ9Aw/x/A2VjNbV1E8BtEbRxYYcQippYNw7hr8sFfa3nW1xLdxokt8QkRX83vK3DFP2F6TQFPL2Tu98UwhcUpPvdJBuu1/yiOQIScppV3eOuLWEsko=",
		want: `{"ToUserName":"wx5823bf96d3bd56c7","FromUserName":"mycreate","CreateTime": 1409659813,"MsgType":"text","Content":"hello","MsgId":4561255354251345929,"AgentID": 218}`,
	},
	{
		name: "python sdk url verification", token: pySampleToken, aesKey: pySampleAESKey, corpID: pySampleCorpID,
		signature: "012bc692d0a58dd4b10f8dfe5c4ac00ae211ebeb", timestamp: "1476416373", nonce: "47744683",
		data: "fsi1xnbH4yQh0+PJxcOdhhK6TDXkjMyhEPA7xB2TGz6b+g7xyAbEkRxN/3cNXW9qdqjnoVzEtpbhnFyq6SVHyA==",
		want: "1288432023552776189",
	},
	{
		name: "python sdk xml message", token: pySampleToken, aesKey: pySampleAESKey, corpID: pySampleCorpID,
		signature: "0c3914025cb4b4d68103f6bfc8db550f79dcf48e", timestamp: "1476422779", nonce: "1597212914",
		data: "Kl7kjoSf6DMD1zh7rtrHjFaDapSCkaOnwu3bqLc5tAybhhMl9pFeK8NslNPVdMwmBQTNoW4mY7AIjeLvEl3NyeTkAgGzBhzTtRLNshw2AEew+kkYcD+Fq72Kt00fT0WnN87hGrW8SqGc+NcT3mu87Ha3dz1pSDi6GaUA6A0sqfde0VJPQbZ9U+3JWcoD4Z5jaU0y9GSh010wsHF8KZD24YhmZH4ch4Ka7ilEbjbfvhKkNL65HHL0J6EYJIZUC2pFrdkJ7MhmEbU2qARR4iQHE7wy24qy0cRX3Mfp6iELcDNfSsPGjUQVDGxQDCWjayJOpcwocugux082f49HKYg84EpHSGXAyh+/oxwaWbvL6aSDPOYuPDGOCI8jmnKiypE+",
		want: "<xml><ToUserName>ww1436e0e65a779aee</ToUserName><FromUserName>ChenJiaShun</FromUserName><CreateTime>1476422779</CreateTime><MsgType>text</MsgType><Content>你好</Content><MsgId>1456453720</MsgId><AgentID>1000002</AgentID></xml>",
	},
}

func TestCrypter_WeComSDKSamples(t *testing.T) {
	for _, s := range sdkSamples {
		t.Run(s.name, func(t *testing.T) {
			c, err := NewCrypter(s.token, s.aesKey, s.corpID)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Sign(s.timestamp, s.nonce, s.data); got != s.signature {
				t.Fatalf("signature %s, want the published %s", got, s.signature)
			}
			plain, err := c.Open(s.signature, s.timestamp, s.nonce, s.data)
			if err != nil {
				t.Fatal(err)
			}
			if string(plain) != s.want {
				t.Fatalf("plaintext %q\nwant %q", plain, s.want)
			}
		})
	}
}

func TestCrypter_SampleMessageParses(t *testing.T) {
	s := sdkSamples[1]
	c, _ := NewCrypter(s.token, s.aesKey, s.corpID)
	plain, err := c.Open(s.signature, s.timestamp, s.nonce, s.data)
	if err != nil {
		t.Fatal(err)
	}
	var m appMessage
	if err := parseAppXML(plain, &m); err != nil {
		t.Fatal(err)
	}
	want := appMessage{ToUserName: sampleCorpID, FromUserName: "mycreate", CreateTime: 1409659813, MsgType: "text", Content: "hello", MsgID: "4561255354251345929", AgentID: "218"}
	if m != want {
		t.Fatalf("parsed %+v\nwant %+v", m, want)
	}
}

func TestCrypter_RoundTrip(t *testing.T) {
	for _, receiver := range []string{sampleCorpID, ""} { // application, intelligent bot
		c, err := NewCrypter(sampleToken, sampleAESKey, receiver)
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range []string{"", "a", strings.Repeat("x", 11), strings.Repeat("y", 12), "你好，世界", strings.Repeat("长", 5000)} {
			enc, sig, err := c.Seal([]byte(msg), "1700000000", "nonce")
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Open(sig, "1700000000", "nonce", enc)
			if err != nil || string(got) != msg {
				t.Fatalf("receiver %q: round trip of %d bytes gave %d bytes, %v", receiver, len(msg), len(got), err)
			}
			// Two seals of one message differ: the prefix is random.
			if enc2, _ := c.Encrypt([]byte(msg)); enc2 == enc {
				t.Fatal("two encryptions of one message are equal")
			}
		}
	}
}

func TestCrypter_Refuses(t *testing.T) {
	c, _ := NewCrypter(sampleToken, sampleAESKey, sampleCorpID)
	otherCorp, _ := NewCrypter(sampleToken, sampleAESKey, "ww-other")
	otherKey, _ := NewCrypter(sampleToken, "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", sampleCorpID)
	enc, _ := c.Encrypt([]byte("hello"))
	forOther, _ := otherCorp.Encrypt([]byte("hello"))
	wrongKey, _ := otherKey.Encrypt([]byte("hello"))
	cases := []struct {
		name      string
		signature string
		data      string
		want      error
	}{
		{"bad signature", strings.Repeat("0", 40), enc, callback.ErrSignature},
		{"signature of other data", c.Sign("1", "n", enc), forOther, callback.ErrSignature},
		{"another corp's message", c.Sign("1", "n", forOther), forOther, ErrReceiver},
		{"another key", c.Sign("1", "n", wrongKey), wrongKey, callback.ErrMalformed},
		{"not base64", c.Sign("1", "n", "%%%"), "%%%", callback.ErrMalformed},
		{"short", c.Sign("1", "n", "AAAA"), "AAAA", callback.ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Open(tc.signature, "1", "n", tc.data)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), sampleAESKey) || strings.Contains(err.Error(), sampleToken) {
				t.Fatalf("error %q holds a secret", err)
			}
		})
	}
	if _, err := NewCrypter(sampleToken, "short", sampleCorpID); !errors.Is(err, ErrAESKey) || strings.Contains(err.Error(), "short") {
		t.Fatalf("bad key: %v", err)
	}
}

// FuzzCrypter_Decrypt feeds arbitrary ciphertexts to Decrypt, which must
// refuse them with an error, never a panic, and round-trips arbitrary
// messages.
func FuzzCrypter_Decrypt(f *testing.F) {
	for _, s := range sdkSamples {
		f.Add(s.data, []byte(s.want))
	}
	f.Add("", []byte{})
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", []byte{0xff})
	c, _ := NewCrypter(sampleToken, sampleAESKey, sampleCorpID)
	f.Fuzz(func(t *testing.T, data string, msg []byte) {
		if plain, err := c.Decrypt(data); err == nil && len(plain) > len(data) {
			t.Fatalf("a plaintext longer than its ciphertext")
		}
		enc, err := c.Encrypt(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Decrypt(enc)
		if err != nil || !bytes.Equal(got, msg) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzParseAppXML feeds arbitrary bodies to the XML parsing of both the
// envelope and the message: an error or a value, never a panic, and every
// error is callback.ErrMalformed.
func FuzzParseAppXML(f *testing.F) {
	f.Add([]byte(sdkSamples[1].want))
	f.Add([]byte("<xml><Encrypt><![CDATA[abc]]></Encrypt></xml>"))
	f.Add([]byte("<xml><Content>&lt;&#x4f60;</Content>"))
	f.Add([]byte("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><xml>&a;</xml>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var env appEnvelope
		if err := parseAppXML(data, &env); err != nil && !errors.Is(err, callback.ErrMalformed) {
			t.Fatalf("envelope error %v is not callback.ErrMalformed", err)
		}
		var m appMessage
		if err := parseAppXML(data, &m); err != nil && !errors.Is(err, callback.ErrMalformed) {
			t.Fatalf("message error %v is not callback.ErrMalformed", err)
		}
	})
}
