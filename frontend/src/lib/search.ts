import type { CallView, IterationView, Mark, RunView } from './timeline'

// Search inside one run. The timeline is virtualised, so the search reads
// the folded view, not the page: every iteration is searched, rendered or
// not. The text of each card is gathered once per card view (views are
// immutable, so a card that did not change keeps its texts), and only when
// a search is asked for: rendering the timeline never pays for it.

/** Field is where in a card a text sits; the card highlights a hit there. */
export type Field = 'task' | 'instructions' | 'reasoning' | 'thought' | 'answer' | 'arguments' | 'result' | 'error' | 'invalid' | 'denial' | 'guard' | 'note'
export const fields: readonly Field[] = ['task', 'instructions', 'reasoning', 'thought', 'answer', 'arguments', 'result', 'error', 'invalid', 'denial', 'guard', 'note']

/** Flag is a status a text can be filtered by. */
export type Flag = 'failed' | 'repaired' | 'denied' | 'guard'
export const flags: readonly Flag[] = ['failed', 'repaired', 'denied', 'guard']

export interface SearchDoc {
  n: number
  field: Field
  /** The call the text belongs to, or "". */
  callId: string
  /** The mark the text belongs to (its seq), or 0. */
  seq: number
  /** The event type that carried the text. */
  type: string
  /** The tool of the call the text belongs to, or "". */
  tool: string
  flags: Flag[]
  /** The plan stage of the iteration's decision, or "". */
  stage: string
  text: string
}

export interface Filters {
  type: string
  tool: string
  flag: Flag | ''
  stage: string
}

export const noFilters: Filters = { type: '', tool: '', flag: '', stage: '' }

/** Hit is one match: the text it is in and where, start and end in that text. */
export interface Hit {
  n: number
  field: Field
  callId: string
  seq: number
  doc: number
  start: number
  end: number
}

export interface Found {
  hits: Hit[]
  /** More matches than the limit: the hits stop there. */
  more: boolean
}

function callFlags(c: CallView): Flag[] {
  const out: Flag[] = []
  if (c.status === 'failed' || c.status === 'invalid') out.push('failed')
  if (c.status === 'denied') out.push('denied')
  if (c.repaired) out.push('repaired')
  return out
}

// markTexts are the searchable texts of a mark: [field, event type, text, flags].
function markTexts(m: Mark): [Field, string, string, Flag[]][] {
  switch (m.kind) {
    case 'started':
      return [
        ['task', 'run.started', m.data.task ?? '', []],
        ['instructions', 'run.started', m.data.instructions ?? '', []],
      ]
    case 'task_edited':
      return [
        ['task', 'task.edited', m.data.new_task ?? '', []],
        ['instructions', 'task.edited', m.data.new_instructions ?? '', []],
      ]
    case 'guard':
      return [['guard', 'guard.tripped', [m.data.message ?? '', ...(m.data.details ?? [])].filter(Boolean).join('\n'), ['guard']]]
    case 'retried':
      return [['error', 'model.retried', m.data.error ?? '', ['failed']]]
    case 'finished':
      return [['error', 'run.finished', m.data.error ?? '', m.data.error ? ['failed'] : []]]
    case 'injected':
      return [['note', 'instruction.injected', m.text, []]]
    case 'summary':
      return [['note', 'summary.updated', m.data.summary ?? '', []]]
    case 'pinned':
      return [['note', 'context.pinned', m.data.fact ?? '', []]]
    case 'route':
      return [['note', 'route.decided', m.data.reason ?? '', []]]
    case 'plan':
      return [['note', 'plan.created', (m.data.steps ?? []).map((s) => s.description ?? '').join('\n'), []]]
    case 'replan':
      return [['note', 'plan.revised', m.data.reason ?? '', []]]
    case 'evaluated':
      return [['note', 'step.evaluated', m.data.reason ?? '', m.data.passed ? [] : ['failed']]]
    case 'question':
      return [['note', 'question.asked', m.data.question ?? '', []]]
    case 'answered':
      return [['note', 'question.answered', m.data.answer ?? '', []]]
    case 'completion':
      return [['note', 'completion.checked', m.data.reason ?? '', m.data.passed ? [] : ['failed']]]
    case 'recalled':
      return [['note', 'memory.recalled', (m.data.entries ?? []).map((e) => e.text ?? '').join('\n'), []]]
    default:
      return []
  }
}

/** iterationDocs are the searchable texts of one card, in the card's order. */
export function iterationDocs(it: IterationView): SearchDoc[] {
  const stage = it.decision?.stage ?? ''
  const out: SearchDoc[] = []
  const add = (field: Field, type: string, text: string, extra: Partial<SearchDoc> = {}) => {
    if (text) out.push({ n: it.n, field, callId: '', seq: 0, type, tool: '', flags: [], stage, text, ...extra })
  }
  const calls = new Map(it.calls.map((c) => [c.id, c]))
  for (const item of it.items) {
    if (item.kind === 'model') {
      add('reasoning', 'model.reasoning', it.reasoning)
      if (it.decided) {
        add('thought', 'model.decided', it.thought)
        add('answer', 'model.decided', it.answer)
      } else add('thought', 'model.delta', it.streamed)
    } else if (item.kind === 'call') {
      const c = calls.get(item.id)
      if (!c) continue
      const of = { callId: c.id, tool: c.name, flags: callFlags(c) }
      add('arguments', 'model.decided', c.arguments, of)
      add('invalid', 'model.decided', c.invalidReason, of)
      // The card shows the result, or the error when there is no result.
      if (c.result) add('result', 'tool.finished', c.result, of)
      else add('error', 'tool.finished', c.error, of)
      if (c.approval?.denyReason) add('denial', 'approval.resolved', c.approval.denyReason, of)
    } else {
      for (const [field, type, text, fl] of markTexts(item.mark)) add(field, type, text, { seq: item.seq, flags: fl })
    }
  }
  return out
}

/**
 * SearchIndex gathers the texts of a run's cards lazily: docs reads a card
 * only when its view is new, so a live run costs one card per event.
 */
export interface SearchIndex {
  docs(view: RunView): SearchDoc[]
}

export function createSearchIndex(): SearchIndex {
  const byCard = new WeakMap<IterationView, SearchDoc[]>()
  return {
    docs(view) {
      const out: SearchDoc[] = []
      for (const it of view.iterations) {
        let d = byCard.get(it)
        if (!d) {
          d = iterationDocs(it)
          byCard.set(it, d)
        }
        for (const x of d) out.push(x)
      }
      // A plan run's answer may come in run.finished alone.
      if (view.answer && !out.some((d) => d.field === 'answer' && d.text === view.answer)) {
        const last = view.iterations.at(-1)
        out.push({ n: last?.n ?? 0, field: 'answer', callId: '', seq: 0, type: 'run.finished', tool: '', flags: [], stage: '', text: view.answer })
      }
      return out
    },
  }
}

/** filtered says whether any filter is set. */
export const filtered = (f: Filters) => !!(f.type || f.tool || f.flag || f.stage)

function passes(d: SearchDoc, f: Filters): boolean {
  return (!f.type || d.type === f.type) && (!f.tool || d.tool === f.tool) && (!f.flag || d.flags.includes(f.flag)) && (!f.stage || d.stage === f.stage)
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * search finds query (as typed, any case) in the docs that pass the
 * filters: one hit per match, in the run's order. With no query, each doc
 * that passes a filter is one hit, so a filter alone lists what it keeps.
 */
export function search(docs: readonly SearchDoc[], query: string, f: Filters = noFilters, limit = 1000): Found {
  const hits: Hit[] = []
  const q = query.trim()
  if (!q && !filtered(f)) return { hits, more: false }
  const re = q ? new RegExp(escape(q), 'giu') : null
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]
    if (!passes(d, f)) continue
    const at = { n: d.n, field: d.field, callId: d.callId, seq: d.seq, doc: i }
    if (!re) {
      if (hits.length >= limit) return { hits, more: true }
      hits.push({ ...at, start: 0, end: 0 })
      continue
    }
    re.lastIndex = 0
    for (let m = re.exec(d.text); m; m = re.exec(d.text)) {
      if (hits.length >= limit) return { hits, more: true }
      hits.push({ ...at, start: m.index, end: m.index + m[0].length })
    }
  }
  return { hits, more: false }
}

export interface Snippet {
  before: string
  match: string
  after: string
}

/** snippet is the hit's match in a line of context, whitespace folded. */
export function snippet(text: string, start: number, end: number, radius = 40): Snippet {
  const fold = (s: string) => s.replace(/\s+/g, ' ')
  const from = Math.max(0, start - radius)
  const to = Math.min(text.length, end + radius + (end === start ? radius : 0))
  return {
    before: (from > 0 ? '…' : '') + fold(text.slice(from, start)).trimStart(),
    match: fold(text.slice(start, end)),
    after: fold(text.slice(end, to)).trimEnd() + (to < text.length ? '…' : ''),
  }
}

export interface Facets {
  types: string[]
  tools: string[]
  stages: string[]
}

/** facets are the values the filters can take in these docs, sorted. */
export function facets(docs: readonly SearchDoc[]): Facets {
  const types = new Set<string>()
  const tools = new Set<string>()
  const stages = new Set<string>()
  for (const d of docs) {
    types.add(d.type)
    if (d.tool) tools.add(d.tool)
    if (d.stage) stages.add(d.stage)
  }
  const sorted = (s: Set<string>) => [...s].sort()
  return { types: sorted(types), tools: sorted(tools), stages: sorted(stages) }
}

/** step moves from hit index at by delta, wrapping around; -1 when there are none. */
export function step(at: number, delta: number, count: number): number {
  if (count === 0) return -1
  if (at < 0) return delta >= 0 ? 0 : count - 1
  return (((at + delta) % count) + count) % count
}

/** CardHit is what a card needs to show a hit: the field, the call or mark, and the range. */
export type CardHit = Pick<Hit, 'field' | 'callId' | 'seq' | 'start' | 'end'>

/** hitIn says whether hit lies in the text of field (of callId / seq when given). */
export function hitIn(hit: CardHit | null | undefined, field: Field | readonly Field[], callId = '', seq = 0): hit is CardHit {
  if (!hit) return false
  const fields: readonly Field[] = typeof field === 'string' ? [field] : field
  return fields.includes(hit.field) && hit.callId === callId && hit.seq === seq
}

/** nearest is the iteration of ns (sorted) closest to n, or null when there are none. */
export function nearest(ns: readonly number[], n: number): number | null {
  let best: number | null = null
  for (const x of ns) if (best === null || Math.abs(x - n) < Math.abs(best - n)) best = x
  return best
}
