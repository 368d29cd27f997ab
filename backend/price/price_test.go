package price

import (
	"math"
	"testing"

	"hermes/backend/llm"
)

func TestPrice_Of(t *testing.T) {
	deepseek := Price{Input: 0.27, CachedInput: 0.07, Output: 1.10, Reasoning: 2.19, Currency: "USD"}
	for _, tc := range []struct {
		name string
		p    Price
		u    llm.Usage
		want float64
	}{
		{"prompt and completion", deepseek, llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000}, 0.27 + 1.10},
		{"cached part of the prompt", deepseek, llm.Usage{PromptTokens: 1_000_000, CachedTokens: 400_000}, 0.6*0.27 + 0.4*0.07},
		{"reasoning part of the completion", deepseek, llm.Usage{CompletionTokens: 1_000_000, ReasoningTokens: 250_000}, 0.75*1.10 + 0.25*2.19},
		{"0 cached and reasoning prices mean input and output", Price{Input: 2, Output: 8}, llm.Usage{PromptTokens: 500_000, CachedTokens: 500_000, CompletionTokens: 1_000_000, ReasoningTokens: 1_000_000}, 1 + 8},
		{"counts past their whole are capped", Price{Input: 1, CachedInput: 0.5, Output: 1}, llm.Usage{PromptTokens: 10, CachedTokens: 20}, 10 * 0.5 / 1e6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.Of(tc.u); math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("Of = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTable_For(t *testing.T) {
	tab := Table{"gpt-4o": {Input: 2.5}, "gpt-4o-mini": {Input: 0.15}, "Qwen-Plus": {Input: 0.8}}
	for _, tc := range []struct {
		model string
		want  float64
		ok    bool
	}{
		{"gpt-4o", 2.5, true},
		{"GPT-4o-mini", 0.15, true},
		{"gpt-4o-2024-08-06", 2.5, true},
		{"gpt-4o-mini-2024-07-18", 0.15, true},
		{"openai/gpt-4o", 2.5, true},
		{"qwen-plus", 0.8, true},
		{"gpt-4oo", 0, false},
		{"qwen2.5:7b", 0, false},
		{"", 0, false},
	} {
		p, ok := tab.For(tc.model)
		if ok != tc.ok || p.Input != tc.want {
			t.Errorf("For(%q) = %v, %v; want %v, %v", tc.model, p.Input, ok, tc.want, tc.ok)
		}
	}
}

func TestTable_WithReplacesByName(t *testing.T) {
	base := Table{"deepseek-chat": {Input: 0.56, Currency: "USD"}}
	got := base.With(Table{"DeepSeek-Chat": {Input: 2, Currency: "CNY"}, "local": {Currency: "USD"}})
	if p, _ := got.For("deepseek-chat"); p.Input != 2 || p.Currency != "CNY" {
		t.Fatalf("the entry was not replaced: %+v", p)
	}
	if _, ok := got.For("local"); !ok {
		t.Fatal("an added model has no price")
	}
	if base["deepseek-chat"].Input != 0.56 {
		t.Fatal("With changed its receiver")
	}
}

func TestSum_KeepsOneCurrencyAndUnknown(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	var cur string
	var total *float64
	total = Sum(total, &cur, nil, "")
	if total != nil {
		t.Fatal("an unpriced call made the total known")
	}
	total = Sum(total, &cur, f(0.5), "USD")
	total = Sum(total, &cur, f(0.25), "USD")
	total = Sum(total, &cur, f(9), "CNY")
	if total == nil || *total != 0.75 || cur != "USD" {
		t.Fatalf("total = %v %s, want 0.75 USD", total, cur)
	}
}

func TestFormat(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		cost     *float64
		currency string
		want     string
	}{
		{nil, "USD", "—"},
		{f(0), "USD", "$0.0000"},
		{f(0.01234), "USD", "$0.0123"},
		{f(1.2), "CNY", "¥1.20"},
		{f(3), "EUR", "3.00 EUR"},
	} {
		if got := Format(tc.cost, tc.currency); got != tc.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tc.cost, tc.currency, got, tc.want)
		}
	}
}
