package vault

import (
	"path/filepath"
	"strings"
	"testing"
)

// linkVault is a small vault of Chinese notes with spaces in their names,
// a table, code, CRLF line endings and the link settings of app.json.
func linkVault(t *testing.T, app string, notes map[string]string) (testVault, *Vault) {
	t.Helper()
	tv := testVault{dir: t.TempDir(), home: t.TempDir()}
	if app != "" {
		write(t, filepath.Join(tv.dir, ".obsidian/app.json"), []byte(app))
	}
	for p, text := range notes {
		write(t, filepath.Join(tv.dir, p), []byte(text))
	}
	return tv, tv.open(t, false)
}

// Renaming a note to a name another note has makes the links to it by
// name ambiguous: they become paths in the vault's link format; a link to
// the other note that the renamed one would now take is written as a
// path too. Links keep their kind, ".md" or not, encoding and angle
// brackets; code stays.
func TestRenameNote_AmbiguousNameFollowsLinkFormat(t *testing.T) {
	index := "[[计划 草稿]] 与 [[计划 草稿#目标|目标]] 与 ![[计划 草稿#^abc]] 与 [[会议]]\n" +
		"| 链接 | 说明 |\n| --- | --- |\n| [[计划 草稿\\|表格]] | x |\n" +
		"[md](../项目/计划%20草稿.md) [bare](计划%20草稿) [angle](<../项目/计划 草稿.md#目标>) `[[计划 草稿]]`\n" +
		"```\n[[计划 草稿]]\n```\n"
	old := "旧的会议：[[会议]]\r\n[[会议#议程]]\r\n"
	for _, tc := range []struct {
		app, index, old string
	}{
		{"", // shortest, Obsidian's default
			"[[归档/会议]] 与 [[归档/会议#目标|目标]] 与 ![[归档/会议#^abc]] 与 [[笔记/会议]]\n" +
				"| 链接 | 说明 |\n| --- | --- |\n| [[归档/会议\\|表格]] | x |\n" +
				"[md](../归档/会议.md) [bare](归档/会议) [angle](<../归档/会议.md#目标>) `[[计划 草稿]]`\n",
			"旧的会议：[[笔记/会议]]\r\n[[笔记/会议#议程]]\r\n"},
		{`{"newLinkFormat":"relative"}`,
			"[[../归档/会议]] 与 [[../归档/会议#目标|目标]] 与 ![[../归档/会议#^abc]] 与 [[会议]]\n" +
				"| 链接 | 说明 |\n| --- | --- |\n| [[../归档/会议\\|表格]] | x |\n" +
				"[md](../归档/会议.md) [bare](../归档/会议) [angle](<../归档/会议.md#目标>) `[[计划 草稿]]`\n",
			"旧的会议：[[../笔记/会议]]\r\n[[../笔记/会议#议程]]\r\n"},
		{`{"newLinkFormat":"absolute","useMarkdownLinks":true}`,
			"[[归档/会议]] 与 [[归档/会议#目标|目标]] 与 ![[归档/会议#^abc]] 与 [[笔记/会议]]\n" +
				"| 链接 | 说明 |\n| --- | --- |\n| [[归档/会议\\|表格]] | x |\n" +
				"[md](../归档/会议.md) [bare](归档/会议) [angle](<../归档/会议.md#目标>) `[[计划 草稿]]`\n",
			"旧的会议：[[笔记/会议]]\r\n[[笔记/会议#议程]]\r\n"},
	} {
		t.Run(tc.app, func(t *testing.T) {
			tv, v := linkVault(t, tc.app, map[string]string{
				"项目/计划 草稿.md": "# 目标\n\n一段话 ^abc\n",
				"笔记/会议.md":    "# 议程\n",
				"笔记/索引.md":    index,
				"归档/旧.md":     old,
			})
			mustCall(t, v, "rename_note", `{"path":"项目/计划 草稿.md","new_path":"归档/会议.md"}`)
			code := "```\n[[计划 草稿]]\n```\n"
			if got, want := readFile(t, tv, "笔记/索引.md"), tc.index+code; got != want {
				t.Errorf("笔记/索引.md:\n%s", lineDiff(want, got))
			}
			if got := readFile(t, tv, "归档/旧.md"); got != tc.old {
				t.Errorf("归档/旧.md: %q, want %q", got, tc.old)
			}
			for _, l := range v.OutLinks("归档/旧.md") {
				if l.To != "笔记/会议.md" {
					t.Errorf("归档/旧.md:%d leads to %q, want the meeting it named", l.Line, l.To)
				}
			}
		})
	}
}

// A Markdown link to a note in the same folder is by name and relative
// both: the vault's format says which it stays once the note moves.
func TestRenameNote_SameFolderMarkdownLinkFollowsLinkFormat(t *testing.T) {
	for app, want := range map[string]string{
		"":                                   "[x](计划.md) [y](计划) [[计划]]\n",
		`{"newLinkFormat":"relative"}`:       "[x](子/计划.md) [y](子/计划) [[子/计划]]\n",
		`{"newLinkFormat":"absolute"}`:       "[x](计划.md) [y](计划) [[计划]]\n",
		`{"newLinkFormat":"unknown format"}`: "[x](计划.md) [y](计划) [[计划]]\n",
	} {
		t.Run(app, func(t *testing.T) {
			tv, v := linkVault(t, app, map[string]string{
				"项目/计划 草稿.md": "x\n",
				"项目/同目录.md":   "[x](计划%20草稿.md) [y](计划%20草稿) [[计划 草稿]]\n",
			})
			mustCall(t, v, "rename_note", `{"path":"项目/计划 草稿.md","new_path":"项目/子/计划.md"}`)
			if got := readFile(t, tv, "项目/同目录.md"); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// Markdown links are indexed whatever their form: without ".md", between
// angle brackets, with a title; links that leave the vault are not.
func TestParse_MarkdownLinkForms(t *testing.T) {
	n := parse("a.md", "[a](Plan) [b](<Plan name.md#Goals one>) [c](Sub/Plan%20x.md \"t\") [d](#Local) [e](https://x.org/a.md) [f](mailto:a@b.c) [g](Plan_(draft).md)\n")
	var got []string
	for _, l := range n.Links {
		got = append(got, l.Target+"#"+l.Heading)
	}
	if want := "Plan# Plan name.md#Goals one Sub/Plan x.md# Plan_(draft).md#"; strings.Join(got, " ") != want {
		t.Errorf("links %q, want %q", strings.Join(got, " "), want)
	}
}

// A note a tool creates is linked to as the vault's settings write links.
func TestCreateNote_LinkAdviceFollowsSettings(t *testing.T) {
	for app, want := range map[string]string{
		"":                             "link to it as [[计划 A]]",
		`{"newLinkFormat":"absolute"}`: "link to it as [[项目/计划 A]]",
		`{"useMarkdownLinks":true}`:    "link to it as [计划 A](计划%20A.md)",
		`{"newLinkFormat":"relative","useMarkdownLinks":true}`: "link to it as [计划 A](项目/计划%20A.md) from a note at the vault root",
	} {
		t.Run(app, func(t *testing.T) {
			_, v := linkVault(t, app, map[string]string{"其他/计划 B.md": "x\n"})
			if out := mustCall(t, v, "create_note", `{"path":"项目/计划 A.md","content":"x"}`); !strings.Contains(out, want) {
				t.Errorf("create_note: %s\nwant %q", out, want)
			}
		})
	}
	// A name another note has is linked to by path.
	_, v := linkVault(t, "", map[string]string{"其他/计划 A.md": "x\n"})
	if out := mustCall(t, v, "create_note", `{"path":"项目/计划 A.md"}`); !strings.Contains(out, "link to it as [[项目/计划 A]]") {
		t.Errorf("create_note of a name taken: %s", out)
	}
}

// Links to attachments by path follow a note that moves away from them and
// a folder that moves them: a Markdown link's relative path is written
// anew, encoded or between angle brackets as it was; a link by the file's
// name, and a wikilink by the end of the file's path while that still ends
// it, stay, as Obsidian finds them anywhere.
func TestRenameNote_AttachmentLinks(t *testing.T) {
	plan := "![图](图片/架构%20图.png) ![[图片/架构 图.png]] [pdf](<../资料/报告 1.pdf>) ![](本地.png) ![x](./图片/架构%20图.png)\n"
	index := "![a](项目/图片/架构%20图.png) ![[项目/图片/架构 图.png]] [r](/资料/报告%201.pdf)\n"
	for _, tc := range []struct {
		name, from, to    string
		planAt            string
		wantPlan, wantIdx string
	}{
		{"note", "项目/计划 草稿.md", "归档/2024/计划.md", "归档/2024/计划.md",
			"![图](../../项目/图片/架构%20图.png) ![[图片/架构 图.png]] [pdf](<../../资料/报告 1.pdf>) ![](本地.png) ![x](../../项目/图片/架构%20图.png)\n", index},
		{"folder", "项目", "归档/项目 2024", "归档/项目 2024/计划 草稿.md",
			"![图](图片/架构%20图.png) ![[图片/架构 图.png]] [pdf](<../../资料/报告 1.pdf>) ![](本地.png) ![x](./图片/架构%20图.png)\n",
			"![a](归档/项目%202024/图片/架构%20图.png) ![[归档/项目 2024/图片/架构 图.png]] [r](/资料/报告%201.pdf)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tv, v := linkVault(t, "", map[string]string{
				"项目/计划 草稿.md":    plan,
				"项目/图片/架构 图.png": "png",
				"项目/本地.png":      "png",
				"资料/报告 1.pdf":    "pdf",
				"索引.md":          index,
			})
			mustCall(t, v, "rename_note", `{"path":"`+tc.from+`","new_path":"`+tc.to+`"}`)
			if got := readFile(t, tv, tc.planAt); got != tc.wantPlan {
				t.Errorf("the moved note:\n%s", lineDiff(tc.wantPlan, got))
			}
			if got := readFile(t, tv, "索引.md"); got != tc.wantIdx {
				t.Errorf("索引.md:\n%s", lineDiff(tc.wantIdx, got))
			}
		})
	}
}
