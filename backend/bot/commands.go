package bot

import (
	"strings"
	"unicode"

	"hermes/backend/i18n"
)

// command is a chat command the bot answers itself.
type command string

const (
	cmdStop   command = "stop"
	cmdPause  command = "pause"
	cmdResume command = "resume"
	cmdStatus command = "status"
	cmdNew    command = "new"
	cmdHelp   command = "help"
	cmdPin    command = "pin"
)

// commandNames maps what a user may type, in either language, to a command.
var commandNames = map[string]command{
	"stop": cmdStop, "停止": cmdStop, "停": cmdStop,
	"pause": cmdPause, "暂停": cmdPause,
	"resume": cmdResume, "continue": cmdResume, "继续": cmdResume, "恢复": cmdResume,
	"status": cmdStatus, "状态": cmdStatus,
	"new": cmdNew, "reset": cmdNew, "新会话": cmdNew, "新对话": cmdNew,
	"help": cmdHelp, "帮助": cmdHelp, "?": cmdHelp,
	"pin": cmdPin, "固定": cmdPin, "记住": cmdPin,
}

// parseCommand recognises "/stop", "／停止" (a full-width slash, as Chinese
// keyboards type it) and the like; anything after the command word is
// ignored.
func parseCommand(text string) (command, bool) {
	text = strings.TrimSpace(text)
	rest, ok := strings.CutPrefix(text, "/")
	if !ok {
		rest, ok = strings.CutPrefix(text, "／")
	}
	if !ok {
		return "", false
	}
	word, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	c, ok := commandNames[strings.ToLower(word)]
	return c, ok
}

// commandArg is what follows the command word: the fact of "/pin FACT".
func commandArg(text string) string {
	text = strings.TrimSpace(text)
	_, rest, _ := strings.Cut(text, " ")
	return strings.TrimSpace(rest)
}

// langOf is the language a message is written in: Chinese if it holds a Han
// character, English if it holds a Latin letter, else fallback (a message of
// digits or emoji says nothing).
func langOf(text string, fallback i18n.Lang) i18n.Lang {
	latin := false
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			return i18n.ZH
		}
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			latin = true
		}
	}
	if latin {
		return i18n.EN
	}
	return fallback
}
