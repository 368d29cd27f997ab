package config

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// textDoc is a hermes.toml being migrated. It is edited as lines, so the
// user's comments, order and blank lines survive an upgrade. A key written
// inside an inline table is not seen as written; the migrated text is parsed
// again afterwards, so such an edit fails with ErrMigrate rather than
// producing a broken file.
type textDoc struct {
	lines []string
}

func newTextDoc(src string) *textDoc { return &textDoc{lines: strings.Split(src, "\n")} }

func (d *textDoc) String() string { return strings.Join(d.lines, "\n") }

// Set gives key (dotted, "agent.mode") the value v, in place when the key is
// written, else at the end of its table, which is added when missing.
func (d *textDoc) Set(key string, v any) error {
	value := tomlValue(reflect.ValueOf(v))
	start, end, found, err := d.find(key)
	if err != nil {
		return err
	}
	if found {
		written, _, _ := strings.Cut(d.lines[start], "=")
		d.replace(start, end, []string{strings.TrimRight(written, " \t") + " = " + value})
		return nil
	}
	table, name := splitLast(key)
	d.insert(table, []string{name + " = " + value})
	return nil
}

// Rename moves key from to key to, with the comment lines just above it: in
// place when both are in the table the line is written under, else to the
// end of to's table. A key that is not written is left alone; a target that
// is already written is an error, since one of the two values would be lost.
func (d *textDoc) Rename(from, to string) error {
	start, end, found, err := d.find(from)
	if err != nil || !found {
		return err
	}
	if _, _, taken, err := d.find(to); err != nil || taken {
		return fmt.Errorf("rename %s to %s: %s is already set", from, to, to)
	}
	under := d.tableAt(start)
	if rel, ok := strings.CutPrefix(to, under+"."); ok || under == "" {
		if under == "" {
			rel = to
		}
		d.lines[start] = rekey(d.lines[start], rel)
		return nil
	}
	first := d.commentsAbove(start)
	block := append([]string(nil), d.lines[first:end]...)
	toTable, name := splitLast(to)
	block[start-first] = strings.TrimLeft(rekey(block[start-first], name), " \t")
	d.replace(first, end, nil)
	d.insert(toTable, block)
	return nil
}

// Delete removes key and the comment lines just above it.
func (d *textDoc) Delete(key string) error {
	start, end, found, err := d.find(key)
	if err != nil || !found {
		return err
	}
	d.replace(d.commentsAbove(start), end, nil)
	return nil
}

// find returns the lines [start, end) that hold key's value. The end is the
// first line after which the lines parse as TOML on their own, so multi-line
// arrays and strings are taken whole.
func (d *textDoc) find(key string) (start, end int, found bool, err error) {
	p, ok := keyPositions(d.String())[key]
	if !ok {
		return 0, 0, false, nil
	}
	start = p.line - 1
	first := strings.TrimSpace(d.lines[start])
	if strings.HasPrefix(first, "[") {
		return 0, 0, false, fmt.Errorf("edit %s: it is a table, not a key", key)
	}
	for end = start + 1; end <= len(d.lines); end++ {
		var v map[string]any
		if _, err := toml.Decode(strings.Join(d.lines[start:end], "\n"), &v); err == nil {
			return start, end, true, nil
		}
	}
	return 0, 0, false, fmt.Errorf("edit %s: its value does not end", key)
}

// tableAt is the table that line i is under ("" at the top level).
func (d *textDoc) tableAt(i int) string {
	for j := i; j >= 0; j-- {
		if t := strings.TrimSpace(d.lines[j]); strings.HasPrefix(t, "[") {
			return strings.Join(splitKey(strings.Trim(strings.SplitN(t, "]", 2)[0], "[ \t")), ".")
		}
	}
	return ""
}

func (d *textDoc) commentsAbove(i int) int {
	for i > 0 && strings.HasPrefix(strings.TrimSpace(d.lines[i-1]), "#") {
		i--
	}
	return i
}

// insert adds lines at the end of table's body, before the comments that
// introduce the next table; a missing table is added at the end.
func (d *textDoc) insert(table string, lines []string) {
	at := -1
	if table == "" {
		at = 0
	} else if p, ok := keyPositions(d.String())[table]; ok && strings.HasPrefix(strings.TrimSpace(d.lines[p.line-1]), "[") {
		at = p.line
	}
	if at < 0 {
		for len(d.lines) > 0 && strings.TrimSpace(d.lines[len(d.lines)-1]) == "" {
			d.lines = d.lines[:len(d.lines)-1]
		}
		d.lines = append(d.lines, "", "["+table+"]")
		d.lines = append(d.lines, lines...)
		d.lines = append(d.lines, "")
		return
	}
	next := len(d.lines)
	for j := at; j < len(d.lines); j++ {
		if strings.HasPrefix(strings.TrimSpace(d.lines[j]), "[") {
			next = d.commentsAbove(j)
			break
		}
	}
	for next > at && strings.TrimSpace(d.lines[next-1]) == "" {
		next--
	}
	d.replace(next, next, lines)
}

func (d *textDoc) replace(start, end int, with []string) {
	d.lines = append(d.lines[:start], append(with, d.lines[end:]...)...)
}

// rekey writes line with its key replaced by key, keeping indent and value.
func rekey(line, key string) string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	_, value, _ := strings.Cut(line, "=")
	return indent + key + " =" + value
}

func splitLast(key string) (table, name string) {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[:i], key[i+1:]
	}
	return "", key
}
