package vault

import (
	"reflect"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		tags     []string
		aliases  []string
		links    []Link
		headings []Heading
	}{
		{
			name:    "front matter lists, flow and block",
			text:    "---\naliases: [\"One, two\", 'Three']\ntags:\n  - a\n  - '#b/c'\n---\nbody",
			tags:    []string{"a", "b/c"},
			aliases: []string{"One, two", "Three"},
		},
		{
			name: "front matter tags as a string",
			text: "---\ntags: x, y z\nalias: Solo\n---\n",
			tags: []string{"x", "y", "z"}, aliases: []string{"Solo"},
		},
		{
			name:     "inline tags: nested, not numbers, not in code, not in headings' marks",
			text:     "# Title #h\n#top and #a/b/c, #123 #2024/05 #v2 x#no\n`#code`\n```\n#fenced\n```\n~~~\n#tilde\n~~~\n#after",
			tags:     []string{"h", "top", "a/b/c", "v2", "after"},
			headings: []Heading{{Level: 1, Text: "Title #h", Line: 1}},
		},
		{
			name: "wikilinks, embeds and markdown links",
			text: "[[A]] [[Dir/B#Sec|alias]] ![[C.png]] [[#Local]] [x](Sub/D%20E.md#h) [web](https://x.org/a.md)\n```\n[[Code]]\n```",
			links: []Link{
				{Target: "A", Line: 1}, {Target: "Dir/B", Heading: "Sec", Line: 1}, {Target: "C.png", Line: 1},
				{Target: "Sub/D E.md", Heading: "h", Line: 1},
			},
		},
		{
			name:     "headings with closing hashes",
			text:     "## Two ##\ntext\n###### Six\n####### not a heading",
			headings: []Heading{{Level: 2, Text: "Two", Line: 1}, {Level: 6, Text: "Six", Line: 3}},
		},
		{
			name: "unclosed front matter is text",
			text: "---\ntags: x\n#real",
			tags: []string{"real"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := parse("n.md", tt.text)
			if !slices.Equal(n.Tags, tt.tags) {
				t.Errorf("tags = %q, want %q", n.Tags, tt.tags)
			}
			if !slices.Equal(n.Aliases, tt.aliases) {
				t.Errorf("aliases = %q, want %q", n.Aliases, tt.aliases)
			}
			if !reflect.DeepEqual(n.Links, tt.links) {
				t.Errorf("links = %+v, want %+v", n.Links, tt.links)
			}
			if !reflect.DeepEqual(n.Headings, tt.headings) {
				t.Errorf("headings = %+v, want %+v", n.Headings, tt.headings)
			}
		})
	}
}

func TestSection(t *testing.T) {
	text := "# Top\nintro\n## A\na1\n### A1\ndeep\n## B\nb1\n"
	n := parse("n.md", text)
	tests := []struct{ heading, want string }{
		{"a", "## A\na1\n### A1\ndeep"},
		{"Top#A1", "### A1\ndeep"},
		{"B", "## B\nb1"},
		{"Top", "# Top\nintro\n## A\na1\n### A1\ndeep\n## B\nb1"},
	}
	for _, tt := range tests {
		if got, ok := section(n, text, tt.heading); !ok || got != tt.want {
			t.Errorf("section(%q) = %q, %v; want %q", tt.heading, got, ok, tt.want)
		}
	}
	if _, ok := section(n, text, "missing"); ok {
		t.Error("a missing heading was found")
	}
}
