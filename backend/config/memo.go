package config

import (
	"reflect"
	"sync"
)

// read remembers the last config file loaded, so that the loads of one
// start (the command's, the owner's watch and update check, each new run's)
// parse and check a file once while its bytes stay the same: a load still
// reads the file, and compares it. Each load gets a Config of its own,
// since callers apply their flags to theirs.
var read struct {
	sync.Mutex
	path, raw string
	cfg       Config
	doc       *document // read-only once made
	err       error
}

// parseOnce is parse(path, raw), made once while path holds the same bytes.
func parseOnce(path string, raw []byte) (Config, *document, error) {
	read.Lock()
	defer read.Unlock()
	if read.path != path || read.raw != string(raw) {
		cfg, doc, err := parse(path, raw)
		read.path, read.raw, read.cfg, read.doc, read.err = path, string(raw), cfg, doc, err
	}
	return clone(read.cfg), read.doc, read.err
}

// clone is a deep copy of cfg: its slices and maps are its own, nil where
// cfg's are nil.
func clone(cfg Config) Config {
	var out Config
	deepCopy(reflect.ValueOf(&out).Elem(), reflect.ValueOf(cfg))
	return out
}

func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Struct:
		dst.Set(src) // a field it cannot set (unexported) stays shared
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			deepCopy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			v := reflect.New(src.Type().Elem()).Elem()
			deepCopy(v, it.Value())
			m.SetMapIndex(it.Key(), v)
		}
		dst.Set(m)
	case reflect.Interface:
		// A platform's section (BotSections): a pointer to its keys.
		if src.IsNil() {
			return
		}
		v := reflect.New(src.Elem().Type()).Elem()
		deepCopy(v, src.Elem())
		dst.Set(v)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	default:
		dst.Set(src)
	}
}
