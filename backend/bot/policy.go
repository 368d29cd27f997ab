package bot

import (
	"encoding/json"
	"slices"

	"hermes/backend/i18n"
	"hermes/backend/toolbox"
)

// botPolicy is the policy of the bot's runs: tools the config allows run
// without asking; every other call goes to the process's policy, or, when
// there is none, calls that only read run and all others are asked. Runs
// are unattended, so an asked call is denied and the user told why.
type botPolicy struct {
	inner toolbox.Policy
	allow []string
}

func (p botPolicy) Check(t toolbox.Tool, args json.RawMessage, env toolbox.Env) toolbox.Verdict {
	if t.Confinement != nil && t.Confinement(env, args) == toolbox.Escaping {
		// Only a person may let a call leave the sandbox, and no one is here.
		return toolbox.Verdict{Action: toolbox.Ask, Escaping: true}.Because(i18n.TextOf("skills.policy.escaping"))
	}
	if slices.Contains(p.allow, t.Name) {
		return toolbox.Verdict{Action: toolbox.Allow}
	}
	if p.inner != nil {
		return p.inner.Check(t, args, env)
	}
	if t.ReadOnly() {
		return toolbox.Verdict{Action: toolbox.Allow}
	}
	return toolbox.Verdict{Action: toolbox.Ask}.Because(i18n.TextOf("bot.policy.risk", string(t.Risk)))
}

func (p botPolicy) AllowAlways(t toolbox.Tool, pattern string) error {
	if p.inner != nil {
		return p.inner.AllowAlways(t, pattern)
	}
	return errNoAlways
}
