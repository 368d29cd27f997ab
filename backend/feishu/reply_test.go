package feishu

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFormat_TextPostOrCard(t *testing.T) {
	long := strings.Repeat("第一行 line with \"quotes\" and <tags>\n", 400)
	cases := []struct {
		name, text string
		types      []string
	}{
		{"short answer", "The answer is 42.", []string{"text"}},
		{"many lines", strings.Repeat("row\n", 10), []string{"post"}},
		{"long answer", long, []string{"post", "post", "post"}},
		{"question", "❓ The agent asks: which branch?\nReply with the value to use.", []string{"interactive"}},
	}
	for _, tc := range cases {
		msgs := format(tc.text)
		var types []string
		var joined strings.Builder
		for _, m := range msgs {
			types = append(types, m.typ)
			if len(m.content) > 28<<10 {
				t.Errorf("%s: a %s of %d bytes", tc.name, m.typ, len(m.content))
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(m.content), &v); err != nil {
				t.Fatalf("%s: content is not JSON: %v", tc.name, err)
			}
			if m.typ == "post" {
				for _, row := range v["zh_cn"].(map[string]any)["content"].([]any) {
					joined.WriteString(row.([]any)[0].(map[string]any)["text"].(string) + "\n")
				}
			}
		}
		if strings.Join(types, ",") != strings.Join(tc.types, ",") {
			t.Errorf("%s: sent as %v, want %v", tc.name, types, tc.types)
		}
		if tc.name == "long answer" && joined.String() != tc.text {
			t.Errorf("the long answer's parts do not add up to it")
		}
	}
}
