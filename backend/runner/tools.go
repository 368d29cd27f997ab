package runner

import (
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"hermes/backend/api"
	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/toolbox"
)

// Toolset is what a new run is offered besides the file tools.
type Toolset = api.Toolset

// toolset is what a run started now would be offered, as cfg says: the
// toolkit opened (its MCP servers started) or brought up to date with cfg
// as a run's start does; nil when the manager offers no toolkit.
func (m *Manager) toolset(cfg config.Config) *Toolset {
	if m.openKit == nil {
		return nil
	}
	kit, err := m.Toolkit(m.ctx, cfg)
	if err == nil {
		err = kit.Configure(m.ctx, cfg)
	}
	if err != nil {
		e := Explain(err)
		return &Toolset{Vault: cfg.Obsidian.Vault, Skills: []api.SkillState{}, Error: &e}
	}
	t := toolsetOf(kit)
	return &t
}

// toolsetOf is what a run started now gets of kit.
func toolsetOf(kit *Toolkit) Toolset {
	dir, found := kit.Tools()
	t := Toolset{Vault: dir, Skills: make([]api.SkillState, 0, len(found))}
	for _, s := range found {
		st := api.SkillState{Name: s.Name, Source: s.Source, Runner: s.Runner, Status: s.Status, Tools: s.Tools}
		if s.Problem != nil {
			st.Problem = bilingual(s.Problem)
		}
		t.Skills = append(t.Skills, st)
	}
	return t
}

// skillsChanged tells of a change of HOME/skills that the toolkit applied:
// a notice of what new runs get, as for an edit of hermes.toml (its own id,
// so that it leaves a notice of a broken hermes.toml in force).
func (m *Manager) skillsChanged() {
	m.kitMu.Lock()
	kit := m.kit
	m.kitMu.Unlock()
	if kit == nil {
		return
	}
	t, dir := toolsetOf(kit), filepath.Join(m.home, "skills")
	n := Notice{ID: "skills", Kind: NoticeConfigReloaded, Time: time.Now(), Path: dir, Message: map[string]string{}}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		n.Message[string(lang)] = i18n.In(lang, "runner.skills.reloaded", dir, describeTools(lang, t))
	}
	m.notices.Publish(n)
}

// toolsChanged reports whether cfg offers runs other tools than prev (nil:
// none seen) or than the open toolkit was made with.
func (m *Manager) toolsChanged(prev *config.Config, cfg config.Config) bool {
	if prev == nil || !reflect.DeepEqual(toolsOf(*prev), toolsOf(cfg)) {
		return true
	}
	m.kitMu.Lock()
	kit := m.kit
	m.kitMu.Unlock()
	if kit == nil {
		return false
	}
	kit.mu.Lock()
	defer kit.mu.Unlock()
	return !reflect.DeepEqual(toolsOf(cfg), kit.made)
}

// reloaded is the notice of a good edit of hermes.toml at path. When it
// changes the vault, the skills or the MCP servers, they are made at once,
// so that the notice says what new runs get (each server started or why
// not), or, when they cannot be made (a vault folder that is not there),
// that new runs cannot start until it is fixed.
func (m *Manager) reloaded(path string, prev *config.Config, cfg config.Config) Notice {
	n := Notice{ID: "config", Kind: NoticeConfigReloaded, Time: time.Now(), Path: path,
		Message: bilingual(i18n.Errorf("runner.config.reloaded", path))}
	if m.openKit == nil || !m.toolsChanged(prev, cfg) {
		return n
	}
	t := m.toolset(cfg)
	if t.Error != nil {
		return Notice{ID: "config", Kind: NoticeConfigError, Time: n.Time, Path: path,
			Message:  bilingual(i18n.Errorf("runner.config.tools_failed", path)),
			Problems: []ConfigProblem{{Message: t.Error.Message}}}
	}
	n.Message = map[string]string{}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		n.Message[string(lang)] = i18n.In(lang, "runner.config.reloaded_tools", path, describeTools(lang, *t))
	}
	return n
}

// describeTools says in lang what a run is offered: the vault, the skills
// on, and each MCP server of [[tools.mcp]] with its tools or why it has
// none.
func describeTools(lang i18n.Lang, t Toolset) string {
	var on, servers []string
	for _, s := range t.Skills {
		if s.Source != "hermes.toml" {
			if s.Status == toolbox.StatusLoaded {
				on = append(on, s.Name)
			}
			continue
		}
		switch s.Status {
		case toolbox.StatusLoaded:
			servers = append(servers, i18n.In(lang, "runner.tools.mcp_tools", s.Name, len(s.Tools)))
		case toolbox.StatusDisabled:
			servers = append(servers, i18n.In(lang, "runner.tools.mcp_off", s.Name))
		default:
			servers = append(servers, i18n.In(lang, "runner.tools.mcp_failed", s.Name, s.Problem[string(lang)]))
		}
	}
	sep := i18n.In(lang, "runner.tools.sep")
	parts := []string{i18n.In(lang, "runner.tools.no_vault")}
	if t.Vault != "" {
		parts[0] = i18n.In(lang, "runner.tools.vault", t.Vault)
	}
	parts = append(parts, i18n.In(lang, "runner.tools.skills", strings.Join(on, ", ")))
	if len(servers) == 0 {
		parts = append(parts, i18n.In(lang, "runner.tools.no_mcp"))
	} else {
		parts = append(parts, i18n.In(lang, "runner.tools.mcp", strings.Join(servers, ", ")))
	}
	return strings.Join(parts, sep)
}
