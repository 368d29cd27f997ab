package bot

import (
	"encoding/json"
	"strings"

	"hermes/backend/i18n"
	"hermes/backend/vault"
)

// A call the bot was not allowed to run is told in the chat with what it
// would have changed, when its tool can tell (a vault edit), so that the
// person judges the change, not only the call's name. A chat message stays
// short: a handful of notes, of links and of lines each.
var changeLimits = vault.TextLimits{Notes: 6, Links: 3, Lines: 6, Width: 80}

// changeText is what the change an approval carried would have done, in
// lang; "" for a call without one.
func changeText(lang i18n.Lang, raw json.RawMessage) string {
	lines := vault.ChangeText(lang, raw, changeLimits)
	if len(lines) == 0 {
		return ""
	}
	return i18n.In(lang, "bot.change.title") + "\n" + strings.Join(lines, "\n")
}
