package config

import (
	"fmt"
	"strconv"
	"strings"

	"hermes/backend/i18n"
)

// DepartmentRefs name departments of the company's contacts, each by its id
// (2, or "2") or by its name ("研发部"), as [bot] allow_departments gives
// them.
type DepartmentRefs []string

// UnmarshalTOML takes an array of integers and strings.
func (d *DepartmentRefs) UnmarshalTOML(v any) error {
	list, ok := v.([]any)
	if !ok {
		return i18n.Wrap(ErrInvalid, "config.bot.departments", fmt.Sprint(v))
	}
	out := make(DepartmentRefs, 0, len(list))
	for _, e := range list {
		switch e := e.(type) {
		case int64:
			out = append(out, strconv.FormatInt(e, 10))
		case string:
			out = append(out, strings.TrimSpace(e))
		default:
			return i18n.Wrap(ErrInvalid, "config.bot.departments", fmt.Sprint(v))
		}
	}
	*d = out
	return nil
}

// validateContacts checks allow_departments: only a WeCom application can
// look up who a user is, and every entry must name something.
func (b Bot) validateContacts() []error {
	if len(b.AllowDepartments) == 0 {
		return nil
	}
	var errs []error
	if p, ok := botPlatform(b.PlatformName()); ok && !p.Contacts {
		var names []string
		for _, p := range botPlatformList() {
			if p.Contacts {
				names = append(names, `"`+p.Name+`"`)
			}
		}
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.bot.departments_platform", strings.Join(names, " / "), b.PlatformName()))
	}
	for _, ref := range b.AllowDepartments {
		if n, err := strconv.Atoi(ref); ref == "" || (err == nil && n <= 0) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.bot.departments", fmt.Sprint([]string(b.AllowDepartments))))
			break
		}
	}
	return errs
}

func init() { i18n.Register(botContactsMessages) }

func botContactsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.bot.departments": {
			EN: `[bot] allow_departments is %s but must list departments by id or name, such as [2, "研发部"]; change it in hermes.toml`,
			ZH: `[bot] allow_departments 为 %s，但应按 ID 或名称列出部门，例如 [2, "研发部"]；请在 hermes.toml 中修改`,
		},
		"config.bot.departments_platform": {
			EN: `[bot] allow_departments needs platform %s (one that can read the company's contacts, such as a WeCom self-built application), but platform is %q; remove allow_departments or change the platform`,
			ZH: `[bot] allow_departments 需要平台 %s（可读取通讯录的平台，例如企业微信自建应用），但当前平台为 %q；请删除 allow_departments 或更换平台`,
		},
	}
}
