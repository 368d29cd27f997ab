package bot

import (
	"context"
	"time"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/wecom"
)

// contactsWait bounds a contacts lookup before a run starts; one that takes
// longer leaves the run known by the user id alone.
const contactsWait = 10 * time.Second

// person looks up who the session's user is in the company's contacts (a
// platform that is a directory: WeCom's self-built application; ok is false
// for the others). It
// never fails a message: whatever goes wrong is logged, and the person is
// then known by id alone.
func (s *session) person() (p wecom.Person, ok bool) {
	dir, ok := s.b.platform.(directory)
	if !ok || s.platform != s.b.current().cfg.PlatformName() {
		return wecom.Person{}, false
	}
	ctx, cancel := context.WithTimeout(s.b.sendCtx, contactsWait)
	defer cancel()
	p, err := dir.Person(ctx, s.user)
	if err != nil {
		s.b.log.Warn("contacts lookup", "session", s.key, "err", s.b.scrub(err.Error(), nil))
	}
	return p, true
}

// askedBy is who the session's user is, for the run's record: their name
// and departments' names where the contacts could say, else their id.
func (s *session) askedBy() *event.Asker {
	p, ok := s.person()
	if !ok {
		return nil
	}
	return &event.Asker{UserID: p.UserID, Name: p.Name, Departments: p.DepartmentNames()}
}

// allowed reports whether the sender may use the bot under [bot]
// allow_departments, and otherwise answers them, once for this message,
// what to ask of whoever runs the bot. Someone the contacts cannot place
// is not let in.
func (s *session) allowed(in inbound, lang i18n.Lang) bool {
	refs := s.b.current().cfg.AllowDepartments
	if len(refs) == 0 {
		return true
	}
	p, ok := s.person()
	switch {
	case ok && !p.Unknown && p.InAny(refs):
		return true
	case ok && !p.Unknown:
		s.b.log.Info("message refused: the sender is outside [bot] allow_departments", "session", s.key)
		s.say(in.r, lang, "bot.not_allowed")
	default:
		s.b.log.Warn("message refused: [bot] allow_departments is set but the contacts cannot say where the sender works", "session", s.key)
		s.say(in.r, lang, "bot.not_placed")
	}
	return false
}

func init() { i18n.Register(contactsMessages) }

func contactsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"bot.not_allowed": {
			EN: "Sorry, this bot is only for some departments of the company, and yours is not among them, so I cannot take tasks from you. If you need it, ask whoever runs the bot (your IT admin) to add your department to allow_departments under [bot] in hermes.toml.",
			ZH: "抱歉，本机器人只对公司的部分部门开放，您所在的部门不在其中，所以我无法为您处理任务。如需使用，请联系机器人的管理员（IT 管理员），把您的部门加入 hermes.toml 中 [bot] 的 allow_departments。",
		},
		"bot.not_placed": {
			EN: "Sorry, this bot is only for some departments of the company, and I could not look up yours, so I cannot take tasks from you yet. Please ask whoever runs the bot (your IT admin) to give the WeCom application the contacts permission and to put your department in its visible range.",
			ZH: "抱歉，本机器人只对公司的部分部门开放，而我无法查到您所在的部门，所以暂时无法为您处理任务。请联系机器人的管理员（IT 管理员），为企业微信应用开通通讯录权限，并把您的部门加入应用的可见范围。",
		},
	}
}
