package vault

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"hermes/backend/toolbox"
)

type dailyNoteArgs struct {
	Date string `json:"date,omitempty" description:"The day: YYYY-MM-DD, or today, yesterday or tomorrow; today when left out."`
}

//go:embed daily_note.md
var dailyNoteMD string

func init() { register(dailyNoteTool) }

func dailyNoteTool(get opener) toolbox.Tool {
	return toolbox.Func("daily_note", dailyNoteMD, toolbox.RiskWrite, func(_ context.Context, env toolbox.Env, a dailyNoteArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		return v.dailyNote(env, a)
	})
}

// day reads a daily note's date as the model gave it, in the local time
// zone.
func (v *Vault) day(s string) (time.Time, error) {
	now := v.now()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "today", "今天":
		return today, nil
	case "yesterday", "昨天":
		return today.AddDate(0, 0, -1), nil
	case "tomorrow", "明天":
		return today.AddDate(0, 0, 1), nil
	}
	t, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(s), now.Location())
	if err != nil {
		return time.Time{}, toolbox.Errorf("date %q is not a day; give YYYY-MM-DD, today, yesterday or tomorrow", s)
	}
	return t, nil
}

func (v *Vault) dailyNote(env toolbox.Env, a dailyNoteArgs) (string, error) {
	pl, p, day, err := v.planDaily(a)
	if err != nil {
		return "", err
	}
	if pl == nil {
		out, err := v.readNote(readNoteArgs{Note: p})
		if err != nil {
			return "", err
		}
		return "the daily note of " + day.Format("2006-01-02") + " exists:\n" + out, nil
	}
	if _, err := v.applyPlan(env, pl); err != nil {
		return "", err
	}
	from := "empty (no template is set in the Daily notes settings)"
	if t := v.dailySettings().Template; t != "" {
		from = "from the template " + t
	}
	content := pl.files[0].afterText
	if strings.TrimSpace(content) == "" {
		return fmt.Sprintf("created the daily note %s, %s; %s", p, from, v.linkAdvice(p)), nil
	}
	return fmt.Sprintf("created the daily note %s, %s; %s:\n%s", p, from, v.linkAdvice(p), content), nil
}

// planDaily plans the creation of the daily note of a day; the plan is nil
// when the note exists.
func (v *Vault) planDaily(a dailyNoteArgs) (pl *plan, p string, day time.Time, err error) {
	day, err = v.day(a.Date)
	if err != nil {
		return nil, "", day, err
	}
	s := v.dailySettings()
	p, err = v.clean(s.path(day))
	if err != nil {
		return nil, "", day, toolbox.Errorf("the daily notes' folder or format in the vault's settings (%q, %q) makes a path that cannot be used: %v; tell the user", s.Folder, s.Format, err)
	}
	if _, err := v.root.Lstat(p); err == nil {
		return nil, p, day, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", day, toolError(p, err)
	}
	content := ""
	if s.Template != "" {
		if content, err = v.template(s.Template, noteName(p), day); err != nil {
			return nil, "", day, err
		}
	}
	return &plan{tool: "daily_note", files: []fileEdit{{path: p, after: []byte(content), afterText: content}}}, p, day, nil
}

// template reads the template name (a note of the templates folder, or a
// path from the vault root as the Daily notes settings give it) with its
// variables filled in for the note title of day.
func (v *Vault) template(name, title string, day time.Time) (string, error) {
	ts := v.templateSettings()
	candidates := []string{templatePath("", name), templatePath(ts.Folder, name)}
	for _, c := range candidates {
		p, err := v.clean(c)
		if err != nil || p == "" {
			continue
		}
		b, err := v.root.ReadFile(p)
		if err != nil {
			continue
		}
		t := Decode(b)
		return fillTemplate(t.Text, title, day, v.now(), ts), nil
	}
	where := "the vault root"
	if ts.Folder != "" {
		where = ts.Folder
	}
	return "", toolbox.Errorf("there is no template %q in %s (the folder of the Templates settings); call list_notes to see the templates, or leave template out", name, where)
}
