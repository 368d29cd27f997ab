import type {
  ApprovalRequestedData,
  ApprovalResolvedData,
  HermesEvent,
  ModelDecidedData,
  ModelRetriedData,
  RunPausedData,
  ToolFinishedData,
  ToolStartedData,
} from '../api/types'
import type { Priced } from './cost'

// The waterfall of a run: where its time went, as spans on one time axis,
// derived from the events' timestamps alone (docs/events.md), so a replayed
// log draws what the live run drew. A model turn's span ends at its
// model.decided and began latency_ms before it; first_token_ms splits it
// into waiting for the first token and streaming. Retries, approvals, the
// stages' own model calls (failed ones too) and a person's pauses are spans
// of their own, so the time before the first iteration is drawn as well.

export type SpanKind = 'model' | 'first_token' | 'stream' | 'retry' | 'tool' | 'approval' | 'stage' | 'pause'
export type SpanStatus = 'ok' | 'failed' | 'running' | 'retried' | 'denied' | 'allowed' | 'resumed'

export interface Span {
  /** Unique in the run, stable as events arrive. */
  id: string
  iteration: number
  kind: SpanKind
  /**
   * The tool's name, the stage event's type (a failed call: the type it
   * would have sent), a retried attempt's number ("#1"), where a pause was
   * ("boundary", "decided"), or what the model turn gave: "decide" (calls),
   * "answer" or "model" (neither).
   */
  name: string
  /** Milliseconds from the run's first event. */
  start: number
  duration: number
  status: SpanStatus
  /** Lane within the iteration's row: calls that overlap in time stack. */
  lane: number
}

export interface WaterfallRow {
  iteration: number
  spans: Span[]
  lanes: number
  start: number
  end: number
  /** The turn's cost at the price of the run's model; undefined when it has none. */
  cost?: number
  currency?: string
}

export interface Waterfall {
  rows: WaterfallRow[]
  /** Every span in start order: the dense view's lines. */
  spans: Span[]
  /** The run's first event, as epoch milliseconds. */
  origin: number
  /** The end of the axis, in milliseconds from origin. */
  end: number
}

/** timeMs reads an RFC 3339 time with any number of fractional digits, keeping sub-millisecond precision. */
export function timeMs(s: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(s)
  if (!m) return Date.parse(s)
  return Date.parse(m[1] + m[3]) + (m[2] ? Number('0' + m[2]) * 1000 : 0)
}

// Stage events that carry the latency of their own model call.
const stageCalls = new Set(['route.decided', 'plan.created', 'plan.revised', 'step.evaluated', 'completion.checked'])
// The stages whose model calls are not the decision's: their retries belong to the next stage event.
const callStages = new Set(['intake', 'planning', 'evaluating', 'completion'])

const data = <T>(e: HermesEvent) => (e.data ?? {}) as T

interface Pending {
  iteration: number
  start: number
  name: string
  attempt: number
}

/**
 * waterfall computes the spans of a run from its events in seq order. Spans
 * still open when the events end (a running call, an approval not yet
 * given) end at the last event and are "running".
 */
export function waterfall(events: readonly HermesEvent[]): Waterfall {
  if (events.length === 0) return { rows: [], spans: [], origin: 0, end: 0 }
  const origin = timeMs(events[0].time)
  const at = (e: HermesEvent) => timeMs(e.time) - origin
  const spans: Span[] = []
  const costs = new Map<number, { cost: number; currency: string }>()
  const tools = new Map<string, Pending>()
  const approvals = new Map<string, Pending>()
  // Retries of the model call in flight, per iteration, until its decision.
  const retries = new Map<number, HermesEvent[]>()
  // Retries of a stage's call, until its event or its failure: one stage call runs at a time.
  let stageRetries: HermesEvent[] = []
  // When the first of them began: at the event before it.
  let stageFrom = 0
  const pauses = new Map<number, Pending>()
  let last = 0
  let prev: HermesEvent | null = null
  // stageCall draws a stage's call that ended at e, at t: its retried
  // attempts from the event before it, then the call itself, from start
  // (or the last retry's end) when it is known, else from the event before.
  const stageCall = (e: HermesEvent, t: number, start: number | null, name: string, status: SpanStatus) => {
    let cursor = stageRetries.length > 0 ? stageFrom : prev ? at(prev) : 0
    for (const r of stageRetries) {
      const rd = data<ModelRetriedData>(r)
      const end = Math.max(cursor, at(r) + (rd.wait_ms ?? 0))
      spans.push(span(e, `retry-${r.seq}`, 'retry', `#${rd.attempt ?? 1}`, cursor, end, 'retried'))
      cursor = end
    }
    const from = stageRetries.length > 0 || start === null ? cursor : start
    if (from < t || stageRetries.length > 0 || status === 'failed') spans.push(span(e, `stage-${e.seq}`, 'stage', name, Math.min(from, t), t, status))
    stageRetries = []
  }
  for (const e of events) {
    const t = at(e)
    last = Math.max(last, t)
    switch (e.type) {
      case 'model.retried':
        if (callStages.has(data<ModelRetriedData>(e).stage ?? '')) {
          if (stageRetries.length === 0) stageFrom = prev ? at(prev) : 0
          stageRetries.push(e)
        } else retries.set(e.iteration, [...(retries.get(e.iteration) ?? []), e])
        break
      case 'model.decided': {
        const d = data<ModelDecidedData & Priced & { first_token_ms?: number }>(e)
        const latency = d.latency_ms ?? 0
        const callStart = t - latency
        let cursor = callStart
        for (const r of retries.get(e.iteration) ?? []) {
          const rd = data<ModelRetriedData>(r)
          const end = Math.max(cursor, at(r) + (rd.wait_ms ?? 0))
          if (end < callStart) continue // a retry of an earlier call in this iteration
          spans.push(span(e, `retry-${r.seq}`, 'retry', `#${rd.attempt ?? 1}`, cursor, end, 'retried'))
          cursor = end
        }
        retries.delete(e.iteration)
        const first = d.first_token_ms ?? 0
        const name = d.final_answer ? 'answer' : (d.tool_calls?.length ?? 0) > 0 ? 'decide' : 'model'
        if (first > 0 && callStart + first >= cursor) {
          spans.push(span(e, `ttft-${e.seq}`, 'first_token', name, cursor, callStart + first, 'ok'))
          spans.push(span(e, `stream-${e.seq}`, 'stream', name, callStart + first, t, 'ok'))
        } else {
          spans.push(span(e, `model-${e.seq}`, 'model', name, cursor, t, 'ok'))
        }
        if (d.cost !== undefined && d.cost !== null) {
          const prev = costs.get(e.iteration)
          costs.set(e.iteration, { cost: (prev?.cost ?? 0) + d.cost, currency: d.currency ?? '' })
        }
        break
      }
      case 'tool.started': {
        const d = data<ToolStartedData>(e)
        tools.set(d.call_id ?? '', { iteration: e.iteration, start: t, name: d.name ?? '', attempt: d.attempt ?? 1 })
        break
      }
      case 'tool.finished': {
        const d = data<ToolFinishedData>(e)
        const p = tools.get(d.call_id ?? '')
        tools.delete(d.call_id ?? '')
        // A call that never started (denied, skipped) took no time.
        if (!p) break
        const end = d.duration_ms !== undefined ? p.start + d.duration_ms : t
        spans.push({ id: `tool-${d.call_id}-${d.attempt ?? p.attempt}`, iteration: e.iteration, kind: 'tool', name: d.name ?? p.name, start: p.start, duration: Math.max(0, end - p.start), status: d.ok ? 'ok' : 'failed', lane: 0 })
        break
      }
      case 'approval.requested': {
        const d = data<ApprovalRequestedData>(e)
        approvals.set(d.approval_id ?? '', { iteration: e.iteration, start: t, name: d.name ?? '', attempt: 0 })
        break
      }
      case 'approval.resolved': {
        const d = data<ApprovalResolvedData>(e)
        const p = approvals.get(d.approval_id ?? '')
        approvals.delete(d.approval_id ?? '')
        if (!p) break
        spans.push({ id: `approval-${d.approval_id}`, iteration: p.iteration, kind: 'approval', name: p.name, start: p.start, duration: t - p.start, status: d.decision === 'deny' ? 'denied' : 'allowed', lane: 0 })
        break
      }
      case 'guard.tripped': {
        // A plan that could not be made or revised: the call failed, and no plan event comes.
        const d = data<{ guard?: string; stage?: string }>(e)
        if (d.guard === 'plan' && d.stage === 'planning' && prev?.type !== 'plan.created' && prev?.type !== 'plan.revised') {
          stageCall(e, t, null, e.iteration === 0 ? 'plan.created' : 'plan.revised', 'failed')
        }
        break
      }
      case 'run.paused':
        pauses.set(e.iteration, { iteration: e.iteration, start: t, name: data<RunPausedData>(e).at ?? 'boundary', attempt: 0 })
        break
      case 'run.resumed':
        for (const [n, p] of pauses) spans.push({ id: `pause-${n}-${p.start}`, iteration: p.iteration, kind: 'pause', name: p.name, start: p.start, duration: t - p.start, status: 'resumed', lane: 0 })
        pauses.clear()
        break
      default:
        if (stageCalls.has(e.type)) {
          const latency = (e.data as { latency_ms?: number } | null)?.latency_ms ?? 0
          if (latency > 0 || stageRetries.length > 0) stageCall(e, t, t - latency, e.type, 'ok')
        }
    }
    prev = e
  }
  // What is still open runs to the last event.
  for (const [id, p] of tools) spans.push({ id: `tool-${id}-${p.attempt}`, iteration: p.iteration, kind: 'tool', name: p.name, start: p.start, duration: last - p.start, status: 'running', lane: 0 })
  for (const [id, p] of approvals) spans.push({ id: `approval-${id}`, iteration: p.iteration, kind: 'approval', name: p.name, start: p.start, duration: last - p.start, status: 'running', lane: 0 })
  for (const [n, p] of pauses) spans.push({ id: `pause-${n}-${p.start}`, iteration: p.iteration, kind: 'pause', name: p.name, start: p.start, duration: last - p.start, status: 'running', lane: 0 })
  spans.sort((a, b) => a.start - b.start || a.iteration - b.iteration)
  return { rows: rowsOf(spans, costs), spans, origin, end: spans.reduce((m, s) => Math.max(m, s.start + s.duration), last) }
}

function span(e: HermesEvent, id: string, kind: SpanKind, name: string, start: number, end: number, status: SpanStatus): Span {
  return { id, iteration: e.iteration, kind, name, start, duration: Math.max(0, end - start), status, lane: 0 }
}

// rowsOf groups spans by iteration and packs each row's spans into lanes:
// a span takes the first lane free at its start, so parallel calls stack
// and one after another share a lane.
function rowsOf(spans: Span[], costs: Map<number, { cost: number; currency: string }>): WaterfallRow[] {
  const byIteration = new Map<number, Span[]>()
  for (const s of spans) {
    const list = byIteration.get(s.iteration)
    if (list) list.push(s)
    else byIteration.set(s.iteration, [s])
  }
  const rows: WaterfallRow[] = []
  for (const [iteration, list] of [...byIteration].sort((a, b) => a[0] - b[0])) {
    const laneEnds: number[] = []
    for (const s of list) {
      // The model's segments chain end to start; a small tolerance keeps
      // them on one lane despite rounding of the times.
      let lane = laneEnds.findIndex((end) => end <= s.start + 0.5)
      if (lane < 0) lane = laneEnds.length
      laneEnds[lane] = s.start + s.duration
      s.lane = lane
    }
    const c = costs.get(iteration)
    rows.push({
      iteration,
      spans: list,
      lanes: Math.max(1, laneEnds.length),
      start: list[0].start,
      end: list.reduce((m, s) => Math.max(m, s.start + s.duration), 0),
      cost: c?.cost,
      currency: c?.currency,
    })
  }
  return rows
}

/** ticks are round steps of the time axis from 0 to end, about count of them. */
export function ticks(end: number, count = 6): number[] {
  if (end <= 0) return [0]
  const raw = end / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw
  const out: number[] = []
  for (let v = 0; v <= end + step / 1000; v += step) out.push(v)
  return out
}

/** formatMs writes a duration or an offset: "850 ms", "1.25 s", "2 m 05 s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`
}
