import type { Layers } from '../api/types'
import type { RunView } from './timeline'

/** The context layers, in the order they are stacked in gauges and charts. */
export const layerOrder = ['system', 'tool_schemas', 'task_anchor', 'summary', 'memory', 'recent', 'tool_results'] as const
export type LayerName = (typeof layerOrder)[number]

export interface LayerShare {
  layer: LayerName
  tokens: number
  /** The layer's part of the window, 0..1. */
  share: number
}

export interface BudgetSplit {
  layers: LayerShare[]
  used: number
  window: number
  /** Tokens left in the window (never negative). */
  free: number
  /** used / window; above 1 when the request overflowed. */
  fill: number
}

/**
 * budgetSplit splits a request's tokens by layer against the window. When
 * the layers do not add up to the counted total (an older log, or tokens the
 * layers do not name), the total wins and the rest is left unnamed.
 */
export function budgetSplit(layers: Partial<Layers>, window: number, total = 0): BudgetSplit {
  const shares = layerOrder.map((layer) => {
    const tokens = Math.max(0, layers[layer] ?? 0)
    return { layer, tokens, share: window > 0 ? tokens / window : 0 }
  })
  const sum = shares.reduce((s, l) => s + l.tokens, 0)
  const used = Math.max(sum, total)
  return { layers: shares, used, window, free: Math.max(0, window - used), fill: window > 0 ? used / window : 0 }
}

export interface BudgetPoint {
  iteration: number
  layers: Record<LayerName, number>
  /**
   * Hermes's estimate of the request, counted before it was sent (the sum of
   * its layers, tool schemas included): what the chart draws.
   */
  total: number
  /**
   * The prompt tokens the provider reported for the turn (its usage), as the
   * card and the inspector show them; 0 until the model answered. It differs
   * from total: the provider counts with its own tokenizer, and may count the
   * tool schemas differently or not at all.
   */
  provider: number
  window: number
  compressed: boolean
  /** Schema tokens left out because the tools were not relevant to the task. */
  schemasSaved: number
}

/** budgetSeries is the chart's data: one point per iteration that built a context. */
export function budgetSeries(view: RunView): BudgetPoint[] {
  const out: BudgetPoint[] = []
  for (const it of view.iterations) {
    const c = it.context
    if (!c) continue
    const layers = {} as Record<LayerName, number>
    for (const l of layerOrder) layers[l] = c.layers[l] ?? 0
    out.push({
      iteration: it.n,
      layers,
      total: Math.max(c.tokens, layerOrder.reduce((s, l) => s + layers[l], 0)),
      provider: it.tokensIn,
      window: c.window,
      compressed: c.compressed,
      schemasSaved: c.schemasSaved,
    })
  }
  return out
}

/** axisTicks are round token counts from 0 up to top, about count of them, for the chart's axis. */
export function axisTicks(top: number, count = 4): number[] {
  if (top <= 0) return [0]
  const raw = top / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw
  const out: number[] = []
  for (let v = 0; v <= top; v += step) out.push(v)
  return out
}

/** iterationTicks are the indexes of at most count points to label on the chart's iteration axis, first and last included. */
export function iterationTicks(n: number, count = 6): number[] {
  if (n <= 0) return []
  if (n <= count) return Array.from({ length: n }, (_, i) => i)
  const step = Math.ceil((n - 1) / (count - 1))
  const out: number[] = []
  for (let i = 0; i < n - 1; i += step) out.push(i)
  if (n - 1 - out[out.length - 1] <= step / 2) out.pop()
  out.push(n - 1)
  return out
}
