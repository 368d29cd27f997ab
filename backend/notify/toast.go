package notify

import (
	"strings"

	toast "git.sr.ht/~jackmordaunt/go-toast"
)

// toastOf is the Windows toast of note, from app: a click opens note.Link
// by protocol activation (the system starts hermes.exe with it, as the
// installer registered the scheme), which brings the window to the run.
// The toast's XML is written by a template that escapes nothing: the
// title and body go inside CDATA, so a "]]>" in a run's title is broken
// up, and the link is desktoplink.Run's, which holds no character XML reads.
func toastOf(app string, note Note) toast.Notification {
	n := toast.Notification{
		AppID:    app,
		Title:    noCDATAEnd(note.Title),
		Body:     noCDATAEnd(note.Body),
		Audio:    toast.Default,
		Duration: toast.Short,
		// Without a link a click only brings Hermes forward.
		ActivationType: toast.Foreground,
	}
	if note.Link != "" {
		n.ActivationType = toast.Protocol
		n.ActivationArguments = note.Link
	}
	return n
}

func noCDATAEnd(s string) string { return strings.ReplaceAll(s, "]]>", "]] >") }
