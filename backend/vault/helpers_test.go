package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"

	"hermes/backend/toolbox"
)

// secret is in a file outside the vault that symlinks point at; no tool may
// ever show it.
const secret = "outsidesecret"

// decoy is in files the vault tools must never read.
const decoy = "decoyword"

// testVault is a vault made by the test: English and Chinese notes, GBK and
// UTF-16 files, front matter, wikilinks, nested folders, Obsidian's own
// folders full of decoys, and symlinks that point out.
type testVault struct {
	dir, outside, home string
}

func gbk(t testing.TB, s string) []byte {
	b, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16(t testing.TB, s string, e unicode.Endianness) []byte {
	b, err := unicode.UTF16(e, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func makeVault(t testing.TB) testVault {
	t.Helper()
	tv := testVault{dir: t.TempDir(), outside: t.TempDir(), home: t.TempDir()}
	files := map[string][]byte{
		"Welcome.md": []byte("---\ntitle: Welcome home\naliases: [Home, 首页]\ntags:\n  - intro\n  - meta/start\nstatus: done\n---\n" +
			"# Welcome\n\nStart with [[Projects/Alpha]] and [[Beta|the beta project]].\n" +
			"Chinese notes: [[机器学习#梯度下降]] and ![[日记]].\n"),
		"Projects/Alpha.md": []byte("# Alpha\n\nAlpha is a pipeline written in Go. #project/alpha #123\n\n" +
			"## Goals\n\nShip the quarterly report.\n\n### Details\n\nMore detail.\n\n## Notes\n\n" +
			"```go\n// #notatag [[NotALink]]\n```\n\nUse `#nottag` and `[[NotALinkEither]]` inline. Back to [[Welcome]].\n"),
		"Projects/Beta.md":           []byte("---\ntags: project, draft\nstatus: Doing\n---\nBeta depends on [Alpha](Alpha.md) and [[Alpha#Goals]].\n"),
		"Archive/Projects/Alpha.md":  []byte("# Old alpha\n\nThe archived alpha plan.\n"),
		"中文/机器学习.md":                 gbk(t, "# 机器学习\r\n\r\n## 梯度下降\r\n\r\n梯度下降是一种优化方法。#学习\r\n\r\n## 参考\r\n\r\n见 [[Welcome]]。\r\n"),
		"中文/日记.md":                   utf16(t, "# 日记\n\n今天读了关于向量数据库的文章。#日记\n", unicode.LittleEndian),
		"utf16be.md":                 utf16(t, "Big endian note about kangaroos.\n", unicode.BigEndian),
		"bom.md":                     append([]byte{0xEF, 0xBB, 0xBF}, "A note with a byte-order mark about wombats.\n"...),
		"attachments/data.txt":       []byte("not a note\n"),
		".obsidian/workspace.md":     []byte(decoy + "\n"),
		".obsidian/plugins/x/a.md":   []byte(decoy + "\n"),
		".trash/Deleted.md":          []byte(decoy + "\n"),
		".git/notes.md":              []byte(decoy + "\n"),
		"node_modules/pkg/README.md": []byte(decoy + "\n"),
	}
	for name, data := range files {
		write(t, filepath.Join(tv.dir, name), data)
	}
	write(t, filepath.Join(tv.outside, "secret.md"), []byte(secret+"\n"))
	for link, target := range map[string]string{
		"leak.md":                   filepath.Join(tv.outside, "secret.md"),
		"leakdir":                   tv.outside,
		"Projects/up.md":            "../../" + filepath.Base(tv.outside) + "/secret.md",
		"attachments/data-link.txt": "data.txt",
	} {
		if err := os.Symlink(target, filepath.Join(tv.dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return tv
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (tv testVault) open(t testing.TB, watch bool) *Vault {
	t.Helper()
	v, err := Open(tv.dir, Options{Home: tv.home, Watch: watch})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// call runs a vault tool as the loop does: arguments prepared against its
// schema, then run.
func call(t testing.TB, v *Vault, env toolbox.Env, name, args string) (string, error) {
	t.Helper()
	reg := toolbox.NewRegistry()
	for _, tool := range Tools(v) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	p, err := reg.Prepare(name, args)
	if err != nil {
		return "", err
	}
	return p.Tool.Run(t.Context(), env, p.Args)
}

func mustCall(t testing.TB, v *Vault, name, args string) string {
	t.Helper()
	out, err := call(t, v, toolbox.Env{}, name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return out
}

func containsAll(s string, want ...string) string {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return w
		}
	}
	return ""
}

// envNone is a call outside any run.
var envNone = toolbox.Env{}
