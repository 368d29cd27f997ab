package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"hermes/backend/i18n"
	"hermes/backend/price"
)

// PricesAsOf is the day the default prices were read from the providers'
// published list prices.
const PricesAsOf = "2026-12-01"

// DefaultPrices are list prices per million tokens of the models of the
// providers Hermes names (OpenAI, DeepSeek, Qwen on DashScope, Kimi on
// Moonshot, GLM on Zhipu), as of PricesAsOf. [prices."MODEL"] in
// hermes.toml adds a model or replaces its entry; docs/config.md lists them.
var DefaultPrices = price.Table{
	"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10, Currency: "USD"},
	"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2, Currency: "USD"},
	"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40, Currency: "USD"},
	"gpt-4.1":      {Input: 2, CachedInput: 0.50, Output: 8, Currency: "USD"},
	"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60, Currency: "USD"},
	"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40, Currency: "USD"},
	"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10, Currency: "USD"},
	"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60, Currency: "USD"},
	"o3":           {Input: 2, CachedInput: 0.50, Output: 8, Currency: "USD"},
	"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40, Currency: "USD"},

	"deepseek-chat":     {Input: 0.56, CachedInput: 0.07, Output: 1.68, Currency: "USD"},
	"deepseek-reasoner": {Input: 0.56, CachedInput: 0.07, Output: 1.68, Currency: "USD"},

	"qwen-max":   {Input: 2.4, Output: 9.6, Currency: "CNY"},
	"qwen-plus":  {Input: 0.8, Output: 2, Currency: "CNY"},
	"qwen-turbo": {Input: 0.3, Output: 0.6, Currency: "CNY"},

	"kimi-k2-0905-preview":  {Input: 4, CachedInput: 1, Output: 16, Currency: "CNY"},
	"kimi-k2-turbo-preview": {Input: 8, CachedInput: 1, Output: 58, Currency: "CNY"},
	"moonshot-v1-8k":        {Input: 2, Output: 10, Currency: "CNY"},
	"moonshot-v1-32k":       {Input: 5, Output: 20, Currency: "CNY"},
	"moonshot-v1-128k":      {Input: 10, Output: 30, Currency: "CNY"},

	"glm-4-plus":  {Input: 5, Output: 5, Currency: "CNY"},
	"glm-4-flash": {Input: 0, Output: 0, Currency: "CNY"},
}

// PriceTable is the prices runs are charged at: the defaults, with the
// entries of [prices] added or replacing theirs.
func (c Config) PriceTable() price.Table { return DefaultPrices.With(c.Prices) }

// validatePrices reports a negative price and a currency that is not a
// three-letter code, naming the entry.
func (c Config) validatePrices() []error {
	var errs []error
	for _, model := range slices.Sorted(maps.Keys(c.Prices)) {
		p := c.Prices[model]
		for _, f := range []struct {
			key string
			v   float64
		}{{"input", p.Input}, {"cached_input", p.CachedInput}, {"output", p.Output}, {"reasoning", p.Reasoning}} {
			if f.v < 0 {
				errs = append(errs, i18n.Wrap(ErrInvalid, "config.prices.negative", model, f.key, f.v))
			}
		}
		if !isCurrency(p.Currency) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.prices.currency", model, p.Currency))
		}
	}
	return errs
}

// PricesMarkdown is the table of DefaultPrices that docs/config.md shows.
func PricesMarkdown() string {
	var b strings.Builder
	b.WriteString("| model | input | cached input | output | reasoning | currency |\n|---|---|---|---|---|---|\n")
	num := func(v float64) string { return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".") }
	for _, model := range slices.Sorted(maps.Keys(DefaultPrices)) {
		p := DefaultPrices[model]
		cached, reasoning := "= input", "= output"
		if p.CachedInput != 0 {
			cached = num(p.CachedInput)
		}
		if p.Reasoning != 0 {
			reasoning = num(p.Reasoning)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", model, num(p.Input), cached, num(p.Output), reasoning, p.Currency)
	}
	return b.String()
}

func init() {
	i18n.Register(pricesMessages)
}

// pricesDocs adds the documentation of [prices]'s keys to docs, for allDocs.
func pricesDocs(docs map[string]keyDoc) {
	for key, d := range map[string]keyDoc{
		"prices": doc("The price of a model per million tokens, one [prices.\"MODEL\"] table each, added to or replacing the defaults (the providers' list prices as of "+PricesAsOf+", listed in docs/config.md). A run's cost is shown where its model has a price; a model without one shows \"—\".",
			"模型每百万令牌的价格，每个模型一张 [prices.\"模型名\"] 表，补充或替换默认价格（各服务商 "+PricesAsOf+" 的公开报价，列于 docs/config.md）。模型有价格时显示运行的费用；没有价格的模型显示“—”。"),
		"prices.input":        docShown("Prompt tokens.", "提示令牌。", 0.28),
		"prices.cached_input": docShown("Prompt tokens read from the provider's cache; 0 means the input price.", "命中服务商缓存的提示令牌；0 表示按 input 计价。", 0.028),
		"prices.output":       docShown("Completion tokens.", "输出令牌。", 0.42),
		"prices.reasoning":    docShown("Reasoning (thinking) tokens, part of the completion; 0 means the output price.", "思考令牌（属于输出）；0 表示按 output 计价。", 0.42),
		"prices.currency":     docShown(`The currency of these prices, such as "USD" or "CNY".`, `这些价格的货币，例如 "USD" 或 "CNY"。`, "USD"),
	} {
		docs[key] = d
	}
}

func pricesMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.prices.negative": {
			EN: `[prices.%q] %s is %v; a price per million tokens cannot be negative: set 0 or more`,
			ZH: `[prices.%q] %s 为 %v；每百万令牌的价格不能为负数：请设为 0 或更大`,
		},
		"config.prices.currency": {
			EN: `[prices.%q] currency is %q; set a three-letter code such as "USD" or "CNY"`,
			ZH: `[prices.%q] currency 为 %q；请设为三个大写字母的货币代码，例如 "USD" 或 "CNY"`,
		},
	}
}
