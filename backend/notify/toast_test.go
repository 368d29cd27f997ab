package notify

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"git.sr.ht/~jackmordaunt/go-toast/tmpl"

	"hermes/backend/desktoplink"
)

// toastXML is the XML the toast of note is pushed as.
func toastXML(t *testing.T, note Note) string {
	t.Helper()
	n := toastOf("Hermes", note)
	var b bytes.Buffer
	if err := tmpl.XMLTemplate.Execute(&b, &n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// parsedToast is the part of a toast's XML the system reads for a click.
type parsedToast struct {
	ActivationType string   `xml:"activationType,attr"`
	Launch         string   `xml:"launch,attr"`
	Texts          []string `xml:"visual>binding>text"`
}

func TestToast_ClickOpensTheRunByItsLink(t *testing.T) {
	home := filepath.Join(t.TempDir(), `Tom & Jerry's "home"`)
	note := Note{RunID: "20261205-090000-11c0de", Title: "Hermes — Plan <the> garden ]]> & more", Body: "Waiting for your approval.", Link: desktoplink.Run(home, "20261205-090000-11c0de")}
	raw := toastXML(t, note)
	var got parsedToast
	if err := xml.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("the toast is not XML: %v\n%s", err, raw)
	}
	if got.ActivationType != "protocol" || got.Launch != note.Link {
		t.Fatalf("activation %q launch %q, want protocol %q", got.ActivationType, got.Launch, note.Link)
	}
	gotHome, id, ok := desktoplink.Parse(got.Launch)
	if !ok || gotHome != home || id != note.RunID {
		t.Fatalf("the link the click opens reads as %q %q %v", gotHome, id, ok)
	}
	if len(got.Texts) != 2 || !strings.Contains(got.Texts[0], "Plan <the> garden") || got.Texts[1] != note.Body {
		t.Fatalf("texts %q", got.Texts)
	}
}

func TestToast_WithoutALinkBringsHermesForward(t *testing.T) {
	var got parsedToast
	if err := xml.Unmarshal([]byte(toastXML(t, Note{Title: "Hermes — x", Body: "Finished."})), &got); err != nil {
		t.Fatal(err)
	}
	if got.ActivationType != "foreground" || got.Launch != "" {
		t.Fatalf("activation %q launch %q", got.ActivationType, got.Launch)
	}
}
