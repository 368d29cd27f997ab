package agent

import (
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/price"
)

// costOf prices one call of model with usage u: nil when the model has no
// price, so the cost is shown as unknown rather than as 0.
func (r *Run) costOf(model string, u llm.Usage) (*float64, string) {
	p, ok := r.setup.Prices.For(model)
	if !ok {
		return nil, ""
	}
	c := p.Of(u)
	return &c, p.Currency
}

// addCost adds a call's cost to the run's totals: a summary is priced at
// the summary model's price, every other call at the run's model's.
func (r *Run) addCost(key string, u llm.Usage) {
	model := r.setup.ModelName
	if key == event.SpentSummary && r.setup.SummaryModel != "" {
		model = r.setup.SummaryModel
	}
	c, currency := r.costOf(model, u)
	t := &r.st.Totals
	t.Cost = price.Sum(t.Cost, &t.Currency, c, currency)
}
