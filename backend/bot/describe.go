package bot

import (
	"fmt"
	"slices"
	"strings"

	"hermes/backend/chat"
	"hermes/backend/i18n"
)

// status describes the session; call it with s.mu held.
func (s *session) status(lang i18n.Lang) string {
	if lr := s.live; lr != nil {
		lr.mu.Lock()
		defer lr.mu.Unlock()
		extra := ""
		if lr.paused {
			extra += i18n.In(lang, "bot.status_paused")
		}
		if lr.lastTool != "" {
			extra += i18n.In(lang, "bot.status_last_tool", lr.lastTool)
		}
		return i18n.In(lang, "bot.status_running", preview(lr.task, 200), lr.id, lr.iteration, lr.tokens, extra)
	}
	text := i18n.In(lang, "bot.status_idle", len(s.rec.History), s.namespace())
	if s.rec.LastRun != "" {
		text += i18n.In(lang, "bot.status_last", s.rec.LastRun, statusWords(s.rec.LastStatus, s.rec.LastError, lang))
	}
	return text
}

// namespace is the session's long-term memory namespace: the user's, and a
// fresh one after each /new.
func (s *session) namespace() string {
	return fmt.Sprintf("bot/%s/%d", s.key, s.rec.Generation)
}

// historyInstructions gives a new run the session's earlier exchanges. It
// is written for the model, so it stays in English.
func historyInstructions(history []exchange) string {
	if len(history) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("This task continues a chat with the same user. Earlier in the chat, oldest first:\n")
	for _, h := range history {
		fmt.Fprintf(&b, "\nUser: %s\nYou answered: %s\n", preview(h.User, 1500), preview(h.Answer, 1500))
	}
	return b.String()
}

func preview(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// unique drops repliers to the same sender as one before them (merging
// what a replica acknowledges with the answer): an adapter whose replier
// is the user's rather than the message's (one pointer per user) answers
// once. Repliers are pointers, so comparing them never panics.
func unique(rs []chat.Replier) []chat.Replier {
	var out []chat.Replier
	for _, r := range rs {
		if i := slices.IndexFunc(out, func(o chat.Replier) bool { return sameSender(o, r) }); i >= 0 {
			out[i] = merge(out[i], r)
			continue
		}
		out = append(out, r)
	}
	return out
}
