package config

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
)

// migration upgrades a config document from one version to the next. It
// edits the textDoc, not the decoded values, so the user's comments stay.
type migration struct {
	from  int
	apply func(*textDoc) error
}

// migrations upgrade each older layout to the next: migrations[i] takes
// version i+1 to i+2, so the last one ends at Version. Version 1 is the
// first layout, so there are none yet. To change the layout: raise Version,
// append a migration from the old version, and update Default and docs.
var migrations []migration

// Upgrade is what Migrate did to a file: its version before and after, and
// the copy of the original kept beside it. From equals To when the file was
// current, newer, or missing, and nothing was written.
type Upgrade struct {
	From, To int
	Backup   string
}

// Migrate upgrades the config at path to Version, if it is older. The
// original is first copied beside it as hermes.toml.vN.bak (N its version),
// then the upgraded text replaces the file atomically. Call it on start,
// before Load; Load upgrades an old file in memory as well, so a mode that
// does not migrate still reads it right.
func Migrate(path string) (Upgrade, error) { return migrateFile(path, migrations) }

func migrateFile(path string, steps []migration) (Upgrade, error) {
	raw, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		target := len(steps) + 1
		return Upgrade{From: target, To: target}, nil
	}
	if errors.Is(err, ErrTooLarge) {
		return Upgrade{}, err
	}
	if err != nil {
		return Upgrade{}, i18n.Wrap(err, "config.read", path, err)
	}
	out, from, _, err := upgrade(string(raw), steps)
	if err != nil {
		return Upgrade{}, i18n.Wrap(err, "config.migrate", path, err)
	}
	up := Upgrade{From: from, To: len(steps) + 1}
	if out == string(raw) {
		up.To = from
		return up, nil
	}
	if up.Backup, err = writeBackup(path, ".v"+strconv.Itoa(from)+".bak", raw); err != nil {
		return Upgrade{}, err
	}
	if err := atomicfile.WriteFile(path, []byte(out), 0o600, atomicfile.KeepMode()); err != nil {
		return Upgrade{}, i18n.Wrap(err, "config.write", path, err)
	}
	return up, nil
}

// upgrade applies the steps that take src from its version to the last one,
// and returns the new text and the version src had. Text that nests too
// deep to be parsed, does not parse, or whose version is current, newer or
// not a version at all, is returned as it is, for Load and Validate to
// report. parsed is src parsed when it is returned as it is and parses, so
// that Load does not parse it again; nil otherwise.
func upgrade(src string, steps []migration) (out string, from int, p *parsed, err error) {
	if _, levels, deep := measureNesting(src); deep || levels > maxKeyLevels {
		return src, 0, nil, nil
	}
	return upgradeMeasured(src, steps)
}

// upgradeMeasured is upgrade of a text checkNesting has passed.
func upgradeMeasured(src string, steps []migration) (out string, from int, p *parsed, err error) {
	p, err = parseText(src)
	if err != nil {
		return src, 0, nil, nil
	}
	from = 1 // a file from before the version key is the first layout
	var version any
	if prim, ok := p.top["version"]; ok {
		version = p.value(prim)
	}
	if v, ok := version.(int64); ok {
		from = int(v)
	}
	target := len(steps) + 1
	if from < 1 || from >= target {
		return src, from, p, nil
	}
	doc := newTextDoc(src)
	for v := from; v < target; v++ {
		step := steps[v-1]
		var err error
		if step.from != v {
			err = fmt.Errorf("the migration registered for it starts at version %d", step.from)
		} else if err = step.apply(doc); err == nil {
			err = doc.Set("version", v+1)
		}
		if err == nil {
			var check map[string]any
			if _, perr := decode(doc.String(), &check); perr != nil {
				err = fmt.Errorf("the result is not TOML: %w", perr)
			}
		}
		if err != nil {
			return "", from, nil, fmt.Errorf("%w from version %d to %d: %w", ErrMigrate, v, v+1, err)
		}
	}
	return doc.String(), from, nil, nil
}
