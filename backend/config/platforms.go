package config

import (
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// BotPlatform is a chat platform as [bot] knows it. A platform's package
// registers it (chat.Register, which calls RegisterBotPlatform) so that
// [bot] platform may name it, its own keys are read, checked and
// documented with the others of [bot], and the bot's start says what it
// lacks.
type BotPlatform struct {
	// Name is the value of [bot] platform that picks the platform.
	Name string
	// About says what it is in a few words, in both languages, for the
	// documentation of [bot] platform ("a Feishu or Lark app's bot").
	About Doc
	// Keys, when set, is the zero value of a struct whose fields (with toml
	// tags, as Config's) are the platform's own keys of [bot]: a file
	// writes them in [bot] beside the others, and BotKeys reads them back.
	// A key X_env beside a string X is its environment reference, and a
	// key named as a secret is one (Secrets, Redacted), as everywhere.
	// Two platforms may share one Keys type.
	Keys any
	// Docs documents each key of Keys, by its name, in both languages
	// (`hermes config init`, docs/config.md); a key without them panics at
	// its registration.
	Docs map[string]Doc
	// APIBase is the default of [bot] api_base for the platform.
	APIBase string
	// Ready reports every setting the platform needs and lacks in b, its
	// environment references resolved (Bot.Ready); Missing says so of one.
	Ready func(b Bot) []error
	// Warnings are what b lets the platform start with but leaves open
	// (Bot.Warnings).
	Warnings func(b Bot) []error
	// Contacts says its adapter can tell where a user works (the bot asks
	// it, as a directory, for [bot] allow_departments and who asked a run).
	Contacts bool
	// Validate checks the values of the platform's own keys in b, whichever
	// platform b names, as Config.Validate checks the others (CheckURL).
	Validate func(b Bot) []error
}

// Doc says what a key does, in both languages. Shown is written as its
// value where the zero value means a default ("0 means 65536").
type Doc struct {
	EN, ZH string
	Shown  any
}

var botPlatforms struct {
	sync.Mutex
	byName map[string]BotPlatform
	keys   []reflect.Type // the Keys types checked, in the order registered
	// unchecked are the platforms with Keys registered since the last
	// check: their keys are compared with the others' when [bot]'s keys
	// are first needed, not in the start of every process.
	unchecked []BotPlatform
}

// RegisterBotPlatform adds p to the platforms [bot] platform may name. It
// is called from an init, before any config is read: a name registered
// twice panics, and so does a key that [bot] or another platform has
// already, or one without documentation, once [bot]'s keys are first
// read (any config's load, a test's too).
func RegisterBotPlatform(p BotPlatform) {
	botPlatforms.Lock()
	defer botPlatforms.Unlock()
	if _, ok := botPlatforms.byName[p.Name]; ok || p.Name == "" {
		panic(fmt.Sprintf("config: bot platform %q registered twice or without a name", p.Name))
	}
	if botPlatforms.byName == nil {
		botPlatforms.byName = map[string]BotPlatform{}
	}
	botPlatforms.byName[p.Name] = p
	if p.Keys == nil {
		return
	}
	if t := reflect.TypeOf(p.Keys); t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("config: bot platform %q: Keys is a %s, not a struct", p.Name, t))
	}
	botPlatforms.unchecked = append(botPlatforms.unchecked, p)
}

// checkBotKeys adds the Keys types of the platforms registered since it
// last ran to botPlatforms.keys, each checked against [bot]'s and the
// others' keys. It runs under botPlatforms' lock.
func checkBotKeys() {
	for _, p := range botPlatforms.unchecked {
		t := reflect.TypeOf(p.Keys)
		if slices.Contains(botPlatforms.keys, t) {
			continue
		}
		taken := map[string]bool{}
		for _, k := range append([]reflect.Type{reflect.TypeFor[Bot]()}, botPlatforms.keys...) {
			for _, f := range tomlFields(k) {
				taken[f.name] = true
			}
		}
		for _, f := range tomlFields(t) {
			if taken[f.name] {
				panic(fmt.Sprintf("config: bot platform %q: [bot] %s is another's key", p.Name, f.name))
			}
			if d := p.Docs[f.name]; d.EN == "" || d.ZH == "" {
				panic(fmt.Sprintf("config: bot platform %q: [bot] %s has no documentation in both languages", p.Name, f.name))
			}
		}
		botPlatforms.keys = append(botPlatforms.keys, t)
	}
	botPlatforms.unchecked = nil
}

// botPlatform is the platform registered as name.
func botPlatform(name string) (BotPlatform, bool) {
	botPlatforms.Lock()
	defer botPlatforms.Unlock()
	p, ok := botPlatforms.byName[name]
	return p, ok
}

// botPlatformList are the platforms registered, by name.
func botPlatformList() []BotPlatform {
	botPlatforms.Lock()
	defer botPlatforms.Unlock()
	out := make([]BotPlatform, 0, len(botPlatforms.byName))
	for _, name := range slices.Sorted(maps.Keys(botPlatforms.byName)) {
		out = append(out, botPlatforms.byName[name])
	}
	return out
}

// BotPlatformNames are the platforms registered, sorted.
func BotPlatformNames() []string {
	botPlatforms.Lock()
	defer botPlatforms.Unlock()
	return slices.Sorted(maps.Keys(botPlatforms.byName))
}

// botKeyTypes are the registered platforms' Keys types.
func botKeyTypes() []reflect.Type {
	botPlatforms.Lock()
	defer botPlatforms.Unlock()
	checkBotKeys()
	return slices.Clone(botPlatforms.keys)
}

// botDocs are the registered platforms' keys' documentation, by dotted key.
func botDocs() map[string]keyDoc {
	botPlatforms.Lock()
	defer botPlatforms.Unlock()
	checkBotKeys()
	out := map[string]keyDoc{}
	var en, zh, apiEN, apiZH []string
	for _, name := range slices.Sorted(maps.Keys(botPlatforms.byName)) {
		p := botPlatforms.byName[name]
		for k, d := range p.Docs {
			out["bot."+k] = keyDoc{Msg: i18n.Msg{EN: d.EN, ZH: d.ZH}, Shown: d.Shown}
		}
		if p.About.EN != "" {
			en = append(en, fmt.Sprintf("%q (%s)", name, p.About.EN))
			zh = append(zh, fmt.Sprintf("%q（%s）", name, p.About.ZH))
		}
		if p.APIBase != "" {
			apiEN = append(apiEN, fmt.Sprintf("%q %s", name, p.APIBase))
			apiZH = append(apiZH, fmt.Sprintf("%q 为 %s", name, p.APIBase))
		}
	}
	// [bot] api_base names the address of every platform linked that has one.
	if len(apiEN) > 0 {
		out["bot.api_base"] = doc(`The platform API's address; "" is the platform's own: `+strings.Join(apiEN, ", ")+".",
			`平台 API 的地址；"" 表示该平台自己的地址：`+strings.Join(apiZH, "，")+"。")
	}
	// [bot] platform names every platform linked, with what it is.
	if n := len(en); n > 1 {
		out["bot.platform"] = docShown(
			"The adapter: "+strings.Join(en[:n-1], ", ")+" or "+en[n-1]+".",
			"适配器："+strings.Join(zh[:n-1], "、")+"或 "+zh[n-1]+"。", BotWeCom)
	}
	return out
}

// BotSections hold the registered platforms' own keys of [bot], by the
// name of their Keys type; a section the file leaves at its zero value is
// not held. Read them with BotKeys.
type BotSections map[string]any

func sectionName(t reflect.Type) string { return t.PkgPath() + "." + t.Name() }

// BotKeys is the platform's own keys of b, of the type its BotPlatform.Keys
// is (the zero value when [bot] gives none of them).
func BotKeys[T any](b Bot) T {
	var zero T
	if v, ok := b.Sections[sectionName(reflect.TypeFor[T]())].(*T); ok {
		return *v
	}
	return zero
}

// WithBotKeys is b with keys as its platform's own keys of that type, as
// a file that wrote them would give (tests, and a change made in code).
func WithBotKeys[T any](b Bot, keys T) Bot {
	out := maps.Clone(b.Sections)
	if out == nil {
		out = BotSections{}
	}
	name := sectionName(reflect.TypeFor[T]())
	if reflect.ValueOf(keys).IsZero() {
		delete(out, name)
	} else {
		out[name] = &keys
	}
	if len(out) == 0 {
		out = nil
	}
	b.Sections = out
	return b
}

// eachSection calls fn with each registered Keys type and b's value of it
// (addressable; the zero value when b holds none), in the order
// registered.
func (b Bot) eachSection(fn func(t reflect.Type, v reflect.Value)) {
	for _, t := range botKeyTypes() {
		if p, ok := b.Sections[sectionName(t)]; ok {
			fn(t, reflect.ValueOf(p).Elem())
		} else {
			fn(t, reflect.New(t).Elem())
		}
	}
}

// CheckURL is the error that says [bot] key's value raw is no http or
// https URL, nil when it is one or is empty; for a BotPlatform's Validate.
func CheckURL(key, raw string) error {
	if raw == "" {
		return nil
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return i18n.Wrap(ErrInvalid, "config.bot.url", key, raw)
	}
	return nil
}

// Missing is the error that says [bot] key is not set though platform
// needs it, or nil when value is set; for a BotPlatform's Ready.
func (b Bot) Missing(key, value string) error {
	if value != "" {
		return nil
	}
	return i18n.Wrap(ErrInvalid, "config.bot.missing", key, b.PlatformName())
}

// decodeConfig decodes the config p parsed into cfg, the registered
// platforms' keys of [bot] into cfg.Bot.Sections, and returns the keys
// none of them took, in file order. Each of its tables is decoded from the
// one parse, as the decoder would into Config (a key matches a field's
// name, else one that differs only in case); [bot] is decoded once into
// Bot and once into each platform's Keys, so that a key none of them has
// stays undecoded.
func (p *parsed) decodeConfig(cfg *Config) ([]toml.Key, error) {
	md := &p.md
	rv := reflect.ValueOf(cfg).Elem()
	fields := tomlFields(rv.Type())
	unknown := map[string]bool{}
	for k, prim := range p.top {
		f := -1
		for _, tf := range fields {
			if tf.name == k {
				f = tf.index
				break
			}
			if f < 0 && strings.EqualFold(tf.name, k) {
				f = tf.index
			}
		}
		if f < 0 {
			unknown[k] = true
			continue
		}
		if t, ok := p.value(prim).(map[string]any); ok && len(t) == 0 && rv.Field(f).Kind() == reflect.Struct {
			// An empty table (config init writes each section's header)
			// changes nothing; its decoding would still cost its types'
			// lookups of the decoder's interfaces.
			continue
		}
		if rv.Type().Field(f).Type == reflect.TypeFor[Bot]() {
			if err := decodeBot(md, prim, &cfg.Bot); err != nil {
				return nil, err
			}
			continue
		}
		if err := md.PrimitiveDecode(prim, rv.Field(f).Addr().Interface()); err != nil {
			return nil, err
		}
	}
	// The top-level keys were all taken into p.top; the tables' own keys
	// were marked as their decoding took them.
	undecoded := map[string]bool{}
	for _, k := range md.Undecoded() {
		undecoded[k.String()] = true
	}
	var out []toml.Key
	for _, k := range md.Keys() {
		if len(k) == 1 && unknown[k[0]] || len(k) > 1 && undecoded[k.String()] {
			out = append(out, k)
		}
	}
	return out, nil
}

// decodeBot decodes [bot] into b, and the registered platforms' keys of it
// into b.Sections.
func decodeBot(md *toml.MetaData, prim toml.Primitive, b *Bot) error {
	if err := md.PrimitiveDecode(prim, b); err != nil {
		return err
	}
	for _, t := range botKeyTypes() {
		v := reflect.New(t)
		if err := md.PrimitiveDecode(prim, v.Interface()); err != nil {
			return err
		}
		if !v.Elem().IsZero() {
			if b.Sections == nil {
				b.Sections = BotSections{}
			}
			b.Sections[sectionName(t)] = v.Interface()
		}
	}
	return nil
}

// sectionsOf are the sections held by struct v's BotSections field, if it
// has one (Bot), in a fixed order: the walks of a config's keys (its
// environment references, its secrets) take them as keys of the struct's
// own table.
func sectionsOf(v reflect.Value) []reflect.Value {
	if v.Type() != reflect.TypeFor[Bot]() {
		return nil
	}
	sections := v.Interface().(Bot).Sections
	out := make([]reflect.Value, 0, len(sections))
	for _, name := range slices.Sorted(maps.Keys(sections)) {
		out = append(out, reflect.ValueOf(sections[name]).Elem())
	}
	return out
}

// clone is a copy of s whose sections are copies too.
func (s BotSections) clone() BotSections {
	if s == nil {
		return nil
	}
	out := make(BotSections, len(s))
	for name, p := range s {
		v := reflect.New(reflect.TypeOf(p).Elem())
		deepCopy(v.Elem(), reflect.ValueOf(p).Elem())
		out[name] = v.Interface()
	}
	return out
}

// ChangedKeys are the platforms' own keys of [bot] (BotPlatform.Keys)
// whose values differ between b and next.
func (b Bot) ChangedKeys(next Bot) []string {
	var before []reflect.Value
	b.eachSection(func(_ reflect.Type, v reflect.Value) { before = append(before, v) })
	var out []string
	i := 0
	next.eachSection(func(t reflect.Type, v reflect.Value) {
		for _, f := range tomlFields(t) {
			if !reflect.DeepEqual(before[i].Field(f.index).Interface(), v.Field(f.index).Interface()) {
				out = append(out, f.name)
			}
		}
		i++
	})
	return out
}

// Marshal writes c as TOML, as a hermes.toml would give it: the
// platforms' own keys in [bot] with the others (`hermes config show`).
func Marshal(c Config) ([]byte, error) {
	// A type like Config whose Bot holds the sections' fields too.
	var botFields []reflect.StructField
	var botValues []reflect.Value
	bv := reflect.ValueOf(c.Bot)
	for i := range bv.NumField() {
		if f := bv.Type().Field(i); tagName(f) != "" {
			botFields, botValues = append(botFields, f), append(botValues, bv.Field(i))
		}
	}
	for _, s := range sectionsOf(bv) {
		for i := range s.NumField() {
			if f := s.Type().Field(i); tagName(f) != "" {
				botFields, botValues = append(botFields, f), append(botValues, s.Field(i))
			}
		}
	}
	cv := reflect.ValueOf(c)
	fields := make([]reflect.StructField, cv.NumField())
	for i := range fields {
		fields[i] = cv.Type().Field(i)
		if fields[i].Type == reflect.TypeFor[Bot]() {
			fields[i].Type = reflect.StructOf(botFields)
		}
	}
	out := reflect.New(reflect.StructOf(fields)).Elem()
	for i := range fields {
		if fields[i].Name != "Bot" {
			out.Field(i).Set(cv.Field(i))
			continue
		}
		for j, v := range botValues {
			out.Field(i).Field(j).Set(v)
		}
	}
	return toml.Marshal(out.Interface())
}
