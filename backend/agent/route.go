package agent

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// greetingWords make up a message that is only a greeting or thanks.
var greetingWords = map[string]bool{
	"hi": true, "hello": true, "hey": true, "hiya": true, "yo": true, "thanks": true, "thank": true, "you": true,
	"thx": true, "ty": true, "good": true, "morning": true, "afternoon": true, "evening": true, "night": true,
	"bye": true, "goodbye": true, "ok": true, "okay": true, "cheers": true, "there": true, "hermes": true,
	"你好": true, "您好": true, "谢谢": true, "多谢": true, "早上好": true, "下午好": true, "晚上好": true,
	"晚安": true, "再见": true, "嗨": true, "哈喽": true, "好的": true,
}

// toolWords name things that only tools can reach or do.
var toolWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(files?|folders?|director(y|ies)|notes?|vault|workspace|read|write|create|save|edit|rename|delete|remove|move|copy|list|run|execute|command|search|find|fix|update|summari[sz]e|append|open)\b|` +
		`文件|目录|笔记|写入|创建|读取|保存|修改|删除|重命名|运行|执行|搜索|查找|整理|总结|列出`)
})

// pathLike matches a path or a file name with an extension.
var pathLike = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)[\w.-]+[/\\][\w.-]+|\b[\w-]+\.(md|txt|json|ya?ml|toml|csv|tsv|log|xml|html?|css|ini|cfg|conf|env|sh|ps1|py|go|js|ts|rs|java|c|h|cpp|sql|pdf|docx?|xlsx?)\b`)
})

// routeByRules routes what the rules are sure of, and reports false for
// the rest, which a classification call decides.
func routeByRules(task string) (route, reason string, sure bool) {
	fields := strings.FieldsFunc(strings.ToLower(task), func(c rune) bool {
		return unicode.IsSpace(c) || unicode.IsPunct(c) || c == '～' || c == '~'
	})
	greeting := len(fields) > 0 && len(fields) <= 6
	for _, f := range fields {
		greeting = greeting && greetingWords[f]
	}
	switch {
	case greeting:
		return event.RouteDirect, i18n.T("agent.route.greeting"), true
	case pathLike().MatchString(task):
		return event.RouteLoop, i18n.T("agent.route.path"), true
	case toolWords().MatchString(task):
		return event.RouteLoop, i18n.T("agent.route.tools"), true
	}
	return "", "", false
}

// smallTask is the most tool calls a task may need, by the classification
// call's estimate, to be done without a plan: a plan, its checks and its
// anchor cost more than such a task.
const smallTask = 2

// route decides at intake whether the task needs the loop: by the rules
// when they are sure, else by a cheap classification call, which also
// estimates how many calls a loop task needs. A call that fails routes to
// the loop, which can do everything a direct answer can. It reports
// whether the task is small enough to skip the plan.
func (r *Run) route(ctx context.Context) (skipPlan bool) {
	route, reason, sure := routeByRules(r.st.Task)
	data := event.RouteDecidedData{Route: route, By: "rules", Reason: reason}
	if !sure {
		var verdict struct {
			Route  string `json:"route"`
			Reason string `json:"reason"`
			Calls  int    `json:"calls"`
		}
		rep, err := r.stageCall(ctx, tempRoute, routePrompt(r.setup.Tools.Names()), taskMessage(r.st.Task, r.st.Instr, ""),
			func(raw []byte, _ bool) string {
				if json.Unmarshal(raw, &verdict) != nil || (verdict.Route != event.RouteDirect && verdict.Route != event.RouteLoop) {
					return `The object must be {"route": "direct" or "loop", "reason": "one line"}.`
				}
				return ""
			})
		if ctx.Err() != nil {
			return false
		}
		data = event.RouteDecidedData{Route: verdict.Route, By: "model", Reason: modelRouteReason(verdict.Route, verdict.Reason), Usage: rep.usage, LatencyMS: rep.latencyMS()}
		if err != nil {
			data.Route, data.Reason = event.RouteLoop, i18n.T("agent.route.unreadable", i18n.Clause(err.Error()))
		} else if data.Route == event.RouteLoop {
			data.Calls = max(verdict.Calls, 0)
			data.SkipPlan = r.st.Strategy == StrategyPlan && data.Calls > 0 && data.Calls <= smallTask
		}
	}
	r.st.Route = data.Route
	r.publish(event.RouteDecided, data)
	return data.SkipPlan
}

// modelRouteReason is why the classification call routed a task, in the
// person's language, quoting the model's own words (which are its own,
// English most often).
func modelRouteReason(route, said string) string {
	key := "agent.route.model_" + route
	if said = i18n.Clause(said); said == "" {
		return i18n.T(key)
	}
	return i18n.T(key+"_said", said)
}
