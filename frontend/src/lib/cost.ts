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

interface CostEvent {
  type: string
  data: unknown
}

/**
 * runCost is a run's cost from its events: run.finished's totals once the
 * run ended (they count the stages' and summaries' calls too), else what its
 * turns cost so far; in one currency; nothing when no call had a price.
 */
export function runCost(events: readonly CostEvent[]): Priced {
  let cost: number | undefined
  let currency: string | undefined
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e.type === 'run.finished') {
      const totals = (e.data as { totals?: Priced } | null)?.totals
      if (totals?.cost !== undefined && totals.cost !== null) return totals
      break
    }
  }
  for (const e of events) {
    if (e.type !== 'model.decided') continue
    const d = (e.data ?? {}) as Priced
    if (d.cost === undefined || d.cost === null || (currency !== undefined && d.currency !== currency)) continue
    cost = (cost ?? 0) + d.cost
    currency = d.currency
  }
  return { cost, currency }
}

/**
 * CostIndex is runCost kept up to date as a live run's events grow: each
 * update reads only the events it has not seen, and gives the same object
 * back while the cost stays as it was (a view of it need not redraw).
 */
export interface CostIndex {
  update(events: readonly CostEvent[]): Priced
}

export function createCostIndex(): CostIndex {
  let seen: readonly CostEvent[] = []
  let cost: number | undefined
  let currency: string | undefined
  // The last run.finished's totals, when they carry a cost.
  let finished: Priced | null = null
  let out: Priced = { cost, currency }
  // out is a run.finished's totals.
  let ended = false
  return {
    update(events) {
      // Another log, or the same one merged anew: start over.
      const grows = events.length >= seen.length && (seen.length === 0 || events[seen.length - 1] === seen[seen.length - 1])
      if (!grows) {
        seen = []
        cost = currency = undefined
        finished = null
      }
      if (events.length === seen.length && grows) return out
      for (let i = seen.length; i < events.length; i++) {
        const e = events[i]
        if (e.type === 'run.finished') {
          const totals = (e.data as { totals?: Priced } | null)?.totals
          finished = totals?.cost !== undefined && totals.cost !== null ? totals : null
        } else if (e.type === 'model.decided') {
          const d = (e.data ?? {}) as Priced
          if (d.cost === undefined || d.cost === null || (currency !== undefined && d.currency !== currency)) continue
          cost = (cost ?? 0) + d.cost
          currency = d.currency
        }
      }
      seen = events
      if (finished) out = finished
      else if (out.cost !== cost || out.currency !== currency || ended) out = { cost, currency }
      ended = finished !== null
      return out
    },
  }
}
