// Package price turns a model call's token usage into money, from a table
// of list prices per model, so the terminal, the local API and the window
// show one figure computed in one place.
package price

import (
	"strconv"
	"strings"

	"hermes/backend/llm"
)

// Price is a model's price per million tokens, in Currency. CachedInput is
// what a prompt token read from the provider's cache costs and Reasoning
// what a thinking token costs; 0 means the Input and Output price.
type Price struct {
	Input       float64 `toml:"input" json:"input"`
	CachedInput float64 `toml:"cached_input" json:"cached_input,omitempty"`
	Output      float64 `toml:"output" json:"output"`
	Reasoning   float64 `toml:"reasoning" json:"reasoning,omitempty"`
	Currency    string  `toml:"currency" json:"currency"`
}

// Of is what one call with usage u costs. The cached tokens are part of
// the prompt tokens and the reasoning tokens part of the completion tokens,
// as the OpenAI API counts them; each part is priced at its own rate.
func (p Price) Of(u llm.Usage) float64 {
	cached := min(u.CachedTokens, u.PromptTokens)
	reasoning := min(u.ReasoningTokens, u.CompletionTokens)
	cachedRate := p.CachedInput
	if cachedRate == 0 {
		cachedRate = p.Input
	}
	reasoningRate := p.Reasoning
	if reasoningRate == 0 {
		reasoningRate = p.Output
	}
	return (float64(u.PromptTokens-cached)*p.Input + float64(cached)*cachedRate +
		float64(u.CompletionTokens-reasoning)*p.Output + float64(reasoning)*reasoningRate) / 1e6
}

// Table holds prices by model name.
type Table map[string]Price

// For finds a model's price: by its name, whatever the letter case and a
// "provider/" prefix (as routers write it), else by the longest name in
// the table that the model's name starts with, followed by "-", ":" or "@"
// (a dated snapshot such as gpt-4o-2024-08-06). A model not in the table
// has no price: ok is false, and its cost is shown as unknown, never 0.
func (t Table) For(model string) (p Price, ok bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return Price{}, false
	}
	best := -1
	for k, v := range t {
		k = strings.ToLower(k)
		if k == name {
			return v, true
		}
		if len(k) > best && len(name) > len(k) && strings.HasPrefix(name, k) && strings.ContainsRune("-:@", rune(name[len(k)])) {
			best, p, ok = len(k), v, true
		}
	}
	return p, ok
}

// With is t with over's entries added or replacing t's; neither is changed.
func (t Table) With(over Table) Table {
	out := make(Table, len(t)+len(over))
	for k, v := range t {
		out[strings.ToLower(k)] = v
	}
	for k, v := range over {
		out[strings.ToLower(k)] = v
	}
	return out
}

// Sum adds one call's cost to a running total in one currency: a call in
// another currency, or without a price, leaves it as it was. A total that
// no priced call reached stays nil.
func Sum(total *float64, currency *string, cost *float64, costCurrency string) *float64 {
	if cost == nil || (total != nil && *currency != costCurrency) {
		return total
	}
	v := *cost
	if total != nil {
		v += *total
	}
	*currency = costCurrency
	return &v
}

// Format writes a cost for people: "—" when it is unknown, the currency's
// sign before the amount for USD and CNY ("$0.0123", "¥1.20"), its code
// after other amounts; four decimals below 1, two from 1 up.
func Format(cost *float64, currency string) string {
	if cost == nil {
		return "—"
	}
	digits := 2
	if *cost < 1 {
		digits = 4
	}
	amount := strconv.FormatFloat(*cost, 'f', digits, 64)
	switch currency {
	case "USD":
		return "$" + amount
	case "CNY":
		return "¥" + amount
	case "":
		return amount
	}
	return amount + " " + currency
}
