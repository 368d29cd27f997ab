package toolbox

import "hermes/backend/i18n"

func init() { i18n.Register(summaryMessages) }

// summaryMessages are the lines a person reads of each built-in skill and
// tool in a list, in both languages (Summary); the descriptions beside them
// are the model's, in English.
func summaryMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"toolbox.summary.files":    {EN: "List, read and write the files of the run's workspace.", ZH: "列出、读取和写入本次运行工作区中的文件。"},
		"toolbox.summary.shell":    {EN: "Run command lines in the workspace with the platform's shell (bash, or PowerShell on Windows).", ZH: "在工作区中用系统的 shell 运行命令行（bash，Windows 上为 PowerShell）。"},
		"toolbox.summary.obsidian": {EN: "Search, read, query and edit the notes of your Obsidian vault.", ZH: "搜索、读取、查询和编辑你的 Obsidian 笔记库中的笔记。"},

		"toolbox.summary.list_files":      {EN: "List the files and folders in the workspace.", ZH: "列出工作区中的文件和文件夹。"},
		"toolbox.summary.read_file":       {EN: "Read a text file in the workspace.", ZH: "读取工作区中的文本文件。"},
		"toolbox.summary.write_file":      {EN: "Create, replace or append to a text file in the workspace.", ZH: "在工作区中创建、覆盖或追加写入文本文件。"},
		"toolbox.summary.read_artifact":   {EN: "Read part of a tool result too long to show whole.", ZH: "读取过长而未完整显示的工具结果中的一部分。"},
		"toolbox.summary.execute_command": {EN: "Run a command line in the workspace and return its exit code and output.", ZH: "在工作区中运行命令行，返回退出码和输出。"},
		"toolbox.summary.load_skill":      {EN: "Load a skill's instructions, and its tools from the next turn.", ZH: "加载技能的说明，并从下一轮起提供其工具。"},

		"toolbox.summary.search_notes":   {EN: "Search the vault's notes by full text.", ZH: "全文搜索笔记库中的笔记。"},
		"toolbox.summary.read_note":      {EN: "Read a note, whole or one section.", ZH: "读取一篇笔记，整篇或其中一节。"},
		"toolbox.summary.list_notes":     {EN: "List the notes in a folder of the vault.", ZH: "列出笔记库某个文件夹中的笔记。"},
		"toolbox.summary.get_backlinks":  {EN: "List the notes that link to a note.", ZH: "列出链接到某篇笔记的笔记（反向链接）。"},
		"toolbox.summary.list_tags":      {EN: "List the tags used in the vault.", ZH: "列出笔记库中用到的标签。"},
		"toolbox.summary.query_notes":    {EN: "Find notes by tag, folder, properties, links or date.", ZH: "按标签、文件夹、属性、链接或日期查找笔记。"},
		"toolbox.summary.get_properties": {EN: "Read a note's properties (its front matter).", ZH: "读取笔记的属性（其 front matter）。"},
		"toolbox.summary.get_links":      {EN: "List the links going out of a note, resolved as Obsidian resolves them.", ZH: "列出笔记中的外链，并按 Obsidian 的方式解析其目标。"},
		"toolbox.summary.append_note":    {EN: "Add text to the end of a note or of one of its sections.", ZH: "在笔记或其某一节的末尾追加文字。"},
		"toolbox.summary.edit_note":      {EN: "Edit one section or block of a note, leaving the rest as it was.", ZH: "编辑笔记中的某一节或某个块，其余内容保持不变。"},
		"toolbox.summary.set_property":   {EN: "Set or remove one property of a note.", ZH: "设置或删除笔记的一个属性。"},
		"toolbox.summary.create_note":    {EN: "Create a new note.", ZH: "新建一篇笔记。"},
		"toolbox.summary.daily_note":     {EN: "Open a day's daily note, as Obsidian's Daily notes plugin names it.", ZH: "打开某天的日记，命名方式与 Obsidian 日记插件一致。"},
		"toolbox.summary.rename_note":    {EN: "Rename or move a note or folder, and update every link to it.", ZH: "重命名或移动笔记或文件夹，并更新所有指向它的链接。"},
	}
}
