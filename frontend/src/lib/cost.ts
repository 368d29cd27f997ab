// Costs are computed once, in Go (backend/price), as a run goes: each
// model.decided carries its turn's cost, run.finished's totals and the run
// summary the run's. The UI only writes them, the way `hermes runs` does.

/** Priced is what carries a cost: an event's payload, the totals, a run summary. */
export interface Priced {
  cost?: number | null
  currency?: string
}

/**
 * formatCost writes a cost as `hermes runs` does (backend/price.Format):
 * "—" when there is none (a model without a price: unknown, never 0), the
 * sign before USD and CNY amounts, the code after others; four decimals
 * below 1, two from 1 up.
 */
export function formatCost(p: Priced | null | undefined): string {
  const cost = p?.cost
  if (cost === undefined || cost === null) return '—'
  const amount = cost.toFixed(cost < 1 ? 4 : 2)
  switch (p?.currency) {
    case 'USD':
      return '$' + amount
    case 'CNY':
      return '¥' + amount
    case '':
    case undefined:
      return amount
  }
  return `${amount} ${p?.currency}`
}
