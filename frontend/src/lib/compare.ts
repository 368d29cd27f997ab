import type { ChatMessage } from '../api/types'
import { diffContexts, messagesOf, type RequestContext } from './context'
import { pairEdits, type Paired } from './diff'
import type { IterationView, RunView } from './timeline'

// What the compare views show: two iterations' requests and decisions side
// by side, and a fork's iterations aligned with its source's at the fork
// point.

/** CallMeta is what a call's _meta says under the plan strategy: the step it serves, and how. */
export interface CallMeta {
  step: string
  text: string
}

/**
 * splitCallMeta takes _meta out of a call's arguments, as the agent does
 * before the call runs (backend/agent/decision.go): the rest is what the tool
 * got. Arguments that do not parse, or have no _meta, stay as they are.
 */
export function splitCallMeta(args: string): { rest: string; meta: CallMeta | null } {
  if (!args.includes('"_meta"')) return { rest: args, meta: null }
  let obj: unknown
  try {
    obj = JSON.parse(args)
  } catch {
    return { rest: args, meta: null }
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj) || !('_meta' in obj)) return { rest: args, meta: null }
  const { _meta: raw, ...rest } = obj as Record<string, unknown>
  const m = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
  const step = typeof m.step === 'number' || typeof m.step === 'string' ? String(m.step).replace(/^\s*step\s*/i, '') : ''
  const parts = [typeof m.step_status === 'string' ? m.step_status : '', typeof m.serves_goal === 'string' ? m.serves_goal : ''].filter(Boolean)
  return { rest: JSON.stringify(rest), meta: { step, text: parts.join(' · ') || JSON.stringify(raw) } }
}

/** sameMessage says whether b can be a's edit: the same role, for the same call. */
export function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  return a.role === b.role && (a.tool_call_id ?? '') === (b.tool_call_id ?? '') && (a.name ?? '') === (b.name ?? '')
}

/** compareRequests pairs the messages of two requests: the same, added, removed, and edited (a message and its edit). */
export function compareRequests(a: RequestContext, b: RequestContext): Paired<ChatMessage>[] {
  return pairEdits(diffContexts(messagesOf(a), messagesOf(b)), sameMessage)
}

/** decisionText is what an iteration decided, as text to diff: its thought, each call (without _meta), its answer. */
export function decisionText(it: IterationView): string {
  const lines: string[] = []
  const thought = it.decided ? it.thought : it.streamed
  if (thought) lines.push(thought)
  for (const c of it.calls) lines.push(`→ ${c.name}(${splitCallMeta(c.arguments).rest})`)
  if (it.answer) lines.push(`= ${it.answer}`)
  return lines.join('\n')
}

/** decisionKey is what must match for two iterations to count as the same: their calls and answer, else their text. */
export function decisionKey(it: IterationView): string {
  const calls = it.calls.map((c) => `${c.name}(${normalJSON(splitCallMeta(c.arguments).rest)})`)
  if (calls.length === 0 && !it.answer) return `thought:${it.thought}`
  return JSON.stringify([calls, it.answer])
}

function normalJSON(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return text
  }
}

/** AlignedRow is one line of a fork beside its source. */
export interface AlignedRow {
  /** shared: an iteration of the source before the fork point, which the fork took as it was; point: the first after it. */
  kind: 'shared' | 'point' | 'after'
  source: IterationView | null
  fork: IterationView | null
  differs: boolean
}

export interface Alignment {
  /** The source iteration the fork started from (its #1 asks the model again with #N's request). */
  at: number
  rows: AlignedRow[]
  /** Iterations after the fork point that either run has. */
  compared: number
  differ: number
}

/**
 * alignFork lines a fork up with its source: the source's iterations before
 * the fork point are shared; from the fork point on, the fork's #k stands
 * beside the source's #(at + k − 1), marked when their decisions differ (or
 * only one run has it).
 */
export function alignFork(source: RunView, fork: RunView): Alignment {
  const at = fork.forkedFrom?.iteration ?? 1
  const src = new Map(source.iterations.filter((it) => it.n > 0).map((it) => [it.n, it]))
  const own = fork.iterations.filter((it) => it.n > 0)
  const rows: AlignedRow[] = []
  for (let n = 1; n < at; n++) rows.push({ kind: 'shared', source: src.get(n) ?? null, fork: null, differs: false })
  const lastSource = Math.max(0, ...src.keys())
  const count = Math.max(own.length, lastSource - at + 1)
  let differ = 0
  for (let k = 1; k <= count; k++) {
    const s = src.get(at + k - 1) ?? null
    const f = own.find((it) => it.n === k) ?? null
    const differs = !s || !f || decisionKey(s) !== decisionKey(f)
    if (differs) differ++
    rows.push({ kind: k === 1 ? 'point' : 'after', source: s, fork: f, differs })
  }
  return { at, rows, compared: count, differ }
}

/** sourceNumber is the source's number of a fork's iteration k: the fork's #1 is the source's #at. */
export function sourceNumber(at: number, k: number): number {
  return at + k - 1
}
