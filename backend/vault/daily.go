package vault

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// Daily notes and templates are set up in Obsidian's own settings, which
// Hermes reads and never writes: .obsidian/daily-notes.json (the folder,
// the name's format in moment.js tokens, the template) and
// .obsidian/templates.json (the templates' folder, the formats of
// {{date}} and {{time}}).

// dailySettings is .obsidian/daily-notes.json, with Obsidian's defaults.
type dailySettings struct {
	Folder   string `json:"folder"`
	Format   string `json:"format"`
	Template string `json:"template"`
}

// templateSettings is .obsidian/templates.json, with Obsidian's defaults.
type templateSettings struct {
	Folder     string `json:"folder"`
	DateFormat string `json:"dateFormat"`
	TimeFormat string `json:"timeFormat"`
}

// settings reads one of Obsidian's settings files into out; a missing or
// damaged one leaves out as it was (Obsidian's defaults).
func (v *Vault) settings(name string, out any) {
	if b, err := v.root.ReadFile(".obsidian/" + name); err == nil {
		_ = json.Unmarshal(b, out)
	}
}

func (v *Vault) dailySettings() dailySettings {
	s := dailySettings{}
	v.settings("daily-notes.json", &s)
	if strings.TrimSpace(s.Format) == "" {
		s.Format = "YYYY-MM-DD"
	}
	s.Folder = strings.Trim(strings.TrimSpace(s.Folder), "/")
	return s
}

func (v *Vault) templateSettings() templateSettings {
	s := templateSettings{}
	v.settings("templates.json", &s)
	if strings.TrimSpace(s.DateFormat) == "" {
		s.DateFormat = "YYYY-MM-DD"
	}
	if strings.TrimSpace(s.TimeFormat) == "" {
		s.TimeFormat = "HH:mm"
	}
	s.Folder = strings.Trim(strings.TrimSpace(s.Folder), "/")
	return s
}

// dailyPath is where the daily note of day t is.
func (s dailySettings) path(t time.Time) string {
	p := momentFormat(t, s.Format) + ".md"
	if s.Folder != "" {
		p = s.Folder + "/" + p
	}
	return p
}

// fillTemplate replaces a template's {{title}}, {{date}}, {{time}},
// {{date:FORMAT}} and {{time:FORMAT}} as Obsidian's Templates plugin
// does; date is the day the note is for, now the time it is made.
func fillTemplate(text, title string, date, now time.Time, s templateSettings) string {
	var b strings.Builder
	for {
		i := strings.Index(text, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(text[i:], "}}")
		if j < 0 {
			break
		}
		b.WriteString(text[:i])
		name, format, _ := strings.Cut(text[i+2:i+j], ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "title":
			b.WriteString(title)
		case "date":
			if format == "" {
				format = s.DateFormat
			}
			b.WriteString(momentFormat(date, format))
		case "time":
			if format == "" {
				format = s.TimeFormat
			}
			b.WriteString(momentFormat(now, format))
		default:
			b.WriteString(text[i : i+j+2]) // not a variable of Obsidian's
		}
		text = text[i+j+2:]
	}
	b.WriteString(text)
	return b.String()
}

// momentTokens are the moment.js format tokens, longest first where one
// starts another.
var momentTokens = []string{
	"YYYY", "YY", "Qo", "Q", "MMMM", "MMM", "MMo", "Mo", "MM", "M", "DDDD", "DDDo", "DDD", "Do", "DD", "D",
	"dddd", "ddd", "do", "dd", "d", "E", "e", "wo", "ww", "w", "Wo", "WW", "W", "GGGG", "GG", "gggg", "gg",
	"HH", "H", "hh", "h", "kk", "k", "mm", "m", "ss", "s", "SSS", "A", "a", "X", "x", "ZZ", "Z",
}

// momentFormat formats t with a moment.js format, in English as
// Obsidian's default locale does; text in [brackets] is kept as written,
// and so is every character that is not a token (年, 月, /, -).
func momentFormat(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); {
		if f[i] == '[' {
			if j := strings.IndexByte(f[i:], ']'); j > 0 {
				b.WriteString(f[i+1 : i+j])
				i += j + 1
				continue
			}
		}
		tok := ""
		for _, t := range momentTokens {
			if strings.HasPrefix(f[i:], t) {
				tok = t
				break
			}
		}
		if tok == "" {
			b.WriteByte(f[i])
			i++
			continue
		}
		b.WriteString(momentToken(t, tok))
		i += len(tok)
	}
	return b.String()
}

func momentToken(t time.Time, tok string) string {
	pad := func(n, w int) string { return fmt.Sprintf("%0*d", w, n) }
	isoYear, isoWeek := t.ISOWeek()
	// moment's locale week (en): weeks start on Sunday, the week of
	// January 1st is the first.
	jan1 := time.Date(t.Year(), 1, 1, 0, 0, 0, 0, t.Location())
	week := (t.YearDay()+int(jan1.Weekday())-1)/7 + 1
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	switch tok {
	case "YYYY":
		return pad(t.Year(), 4)
	case "YY":
		return pad(t.Year()%100, 2)
	case "Q":
		return strconv.Itoa((int(t.Month())-1)/3 + 1)
	case "Qo":
		return ordinal((int(t.Month())-1)/3 + 1)
	case "MMMM":
		return t.Month().String()
	case "MMM":
		return t.Month().String()[:3]
	case "MM":
		return pad(int(t.Month()), 2)
	case "M":
		return strconv.Itoa(int(t.Month()))
	case "Mo", "MMo":
		return ordinal(int(t.Month()))
	case "DDDD":
		return pad(t.YearDay(), 3)
	case "DDD":
		return strconv.Itoa(t.YearDay())
	case "DDDo":
		return ordinal(t.YearDay())
	case "DD":
		return pad(t.Day(), 2)
	case "D":
		return strconv.Itoa(t.Day())
	case "Do":
		return ordinal(t.Day())
	case "dddd":
		return t.Weekday().String()
	case "ddd":
		return t.Weekday().String()[:3]
	case "dd":
		return t.Weekday().String()[:2]
	case "d", "e":
		return strconv.Itoa(int(t.Weekday()))
	case "do":
		return ordinal(int(t.Weekday()))
	case "E":
		return strconv.Itoa((int(t.Weekday())+6)%7 + 1)
	case "w":
		return strconv.Itoa(week)
	case "ww":
		return pad(week, 2)
	case "wo":
		return ordinal(week)
	case "W":
		return strconv.Itoa(isoWeek)
	case "WW":
		return pad(isoWeek, 2)
	case "Wo":
		return ordinal(isoWeek)
	case "GGGG", "gggg":
		return pad(isoYear, 4)
	case "GG", "gg":
		return pad(isoYear%100, 2)
	case "HH":
		return pad(t.Hour(), 2)
	case "H":
		return strconv.Itoa(t.Hour())
	case "hh":
		return pad(hour12, 2)
	case "h":
		return strconv.Itoa(hour12)
	case "kk":
		return pad((t.Hour()+23)%24+1, 2)
	case "k":
		return strconv.Itoa((t.Hour()+23)%24 + 1)
	case "mm":
		return pad(t.Minute(), 2)
	case "m":
		return strconv.Itoa(t.Minute())
	case "ss":
		return pad(t.Second(), 2)
	case "s":
		return strconv.Itoa(t.Second())
	case "SSS":
		return pad(t.Nanosecond()/1e6, 3)
	case "A":
		return map[bool]string{true: "PM", false: "AM"}[t.Hour() >= 12]
	case "a":
		return map[bool]string{true: "pm", false: "am"}[t.Hour() >= 12]
	case "X":
		return strconv.FormatInt(t.Unix(), 10)
	case "x":
		return strconv.FormatInt(t.UnixMilli(), 10)
	case "Z":
		return t.Format("-07:00")
	case "ZZ":
		return t.Format("-0700")
	}
	return tok
}

func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// templatePath is the note a template name ("Meeting", "Meeting.md",
// "Templates/Meeting") names in the templates folder.
func templatePath(folder, name string) string {
	name = strings.TrimSpace(name)
	if path.Ext(name) == "" {
		name += ".md"
	}
	if folder != "" && !strings.HasPrefix(strings.ToLower(name), strings.ToLower(folder)+"/") {
		name = folder + "/" + name
	}
	return name
}
