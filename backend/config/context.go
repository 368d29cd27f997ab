package config

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"hermes/backend/i18n"
)

// Context configures the context layers, compression and long-term memory
// (issue 5). A zero value means the default, as the accessors give it.
type Context struct {
	// RecentTurns is how many of the latest turns are always sent whole.
	RecentTurns int `toml:"recent_turns"`
	// CompressAt is the share of the context window a request may reach
	// before the oldest turns are folded into the summary.
	CompressAt float64 `toml:"compress_at"`
	// SummaryModel writes the summaries; "" means [model] model.
	SummaryModel string `toml:"summary_model"`
	// Memory is what runs do with long-term memory: MemoryOn (recall and
	// write), MemoryRead (recall only) or MemoryOff.
	Memory string `toml:"memory"`
	// MemoryTokens caps the recalled-memory layer of every request.
	MemoryTokens int `toml:"memory_tokens"`
	// MemoryFade is how long an unpinned memory that is not recalled lasts.
	MemoryFade Duration `toml:"memory_fade"`
}

// Long-term memory modes ([context] memory).
const (
	MemoryOn   = "on"
	MemoryRead = "read"
	MemoryOff  = "off"
)

// Defaults of the [context] section.
const (
	DefaultRecentTurns  = 8
	DefaultCompressAt   = 0.6
	DefaultMemoryTokens = 1000
	DefaultMemoryFade   = 90 * 24 * time.Hour
)

// Recent is recent_turns, or its default.
func (c Context) Recent() int { return cmp.Or(c.RecentTurns, DefaultRecentTurns) }

// CompressShare is compress_at, or its default.
func (c Context) CompressShare() float64 { return cmp.Or(c.CompressAt, DefaultCompressAt) }

// MemoryMode is memory, or "on".
func (c Context) MemoryMode() string { return cmp.Or(c.Memory, MemoryOn) }

// MemoryCap is memory_tokens, or its default.
func (c Context) MemoryCap() int { return cmp.Or(c.MemoryTokens, DefaultMemoryTokens) }

// FadeAfter is memory_fade, or its default.
func (c Context) FadeAfter() time.Duration { return cmp.Or(c.MemoryFade.Duration, DefaultMemoryFade) }

func (c Context) validate() error {
	var errs []error
	if c.RecentTurns < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.min", "[context] recent_turns", c.RecentTurns, 1))
	}
	// Below a tenth nearly every request is compressed; above 0.95 the
	// summary request and the answer no longer fit beside the context.
	if c.CompressAt != 0 && (c.CompressAt < 0.1 || c.CompressAt > 0.95) {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.context.compress_at", c.CompressAt))
	}
	if c.Memory != "" && !slices.Contains([]string{MemoryOn, MemoryRead, MemoryOff}, c.Memory) {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.context.memory", c.Memory))
	}
	if c.MemoryTokens < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.min", "[context] memory_tokens", c.MemoryTokens, 0))
	}
	if c.MemoryFade.Duration < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.duration", "[context] memory_fade", c.MemoryFade.String()))
	}
	return errors.Join(errs...)
}

// contextDocs adds the documentation of [context]'s keys to docs, for allDocs.
func contextDocs(docs map[string]keyDoc) {
	for key, d := range map[string]keyDoc{
		"context": doc("What each request holds: the recent turns, when old turns are folded into a summary, and long-term memory.",
			"每次请求包含什么：最近的轮次、何时把较早的轮次压缩成摘要，以及长期记忆。"),
		"context.recent_turns": docShown("The latest turns always sent whole (a turn is the model's message with its tool results).",
			"始终完整发送的最近轮次数（一轮是模型的一条消息及其工具结果）。", DefaultRecentTurns),
		"context.compress_at": docShown("The share of the context window a request may fill before older turns are folded into the summary (0.1 to 0.95).",
			"请求占上下文窗口的比例达到此值前，会先把较早的轮次压缩进摘要（0.1 到 0.95）。", DefaultCompressAt),
		"context.summary_model": doc(`The model that writes summaries, such as a cheaper one on the same endpoint; "" means [model] model.`,
			`撰写摘要的模型，例如同一服务上更便宜的模型；"" 表示使用 [model] model。`),
		"context.memory": docShown(`Long-term memory of every run: "on" (recall what the task is about, keep what the run verifies), "read" (recall only) or "off"; a run may set its own (hermes run --memory, the New run form), and a fork has none unless asked.`,
			`所有运行的长期记忆："on"（召回与任务相关的记忆，保存运行验证过的内容）、"read"（只召回）或 "off"（关闭）；单次运行可另行设置（hermes run --memory、新建运行表单），分叉默认没有记忆。`, MemoryOn),
		"context.memory_tokens": docShown("The most tokens of recalled memory in one request.",
			"单次请求中召回记忆的最大令牌数。", DefaultMemoryTokens),
		"context.memory_fade": docShown("How long an unpinned memory lasts without being recalled.",
			"未固定的记忆在未被召回时保留多久。", Duration{DefaultMemoryFade}),
	} {
		docs[key] = d
	}
}
