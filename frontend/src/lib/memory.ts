import type { MemoryEntry, MemoryUse, Why } from '../api/types'
import { t, type Lang } from '../i18n/i18n'
import { formatDateTime } from './format'

export const memoryKinds = ['outcome', 'fact', 'preference', 'path'] as const

/**
 * filterMemories keeps the entries whose text, kind or source run contains
 * every word of query (any case), of kind when one is given; order is kept.
 */
export function filterMemories(entries: readonly MemoryEntry[], query: string, kind = ''): MemoryEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  return entries.filter((e) => {
    if (kind && e.kind !== kind) return false
    const hay = `${e.text}\n${e.kind}\n${e.run_id ?? ''}\n${e.source ?? ''}`.toLowerCase()
    return words.every((w) => hay.includes(w))
  })
}

const sources = ['task', 'instruction', 'standing', 'result'] as const

/**
 * memorySource names what in its run a memory came from; an entry older
 * than sources is known only when its kind says it (an outcome or a path
 * comes from the result).
 */
export function memorySource(e: Pick<MemoryEntry, 'kind' | 'source'>, lang: Lang): string {
  const source = e.source || (e.kind === 'outcome' || e.kind === 'path' ? 'result' : '')
  if (!source) return t(lang, 'memory.source.unknown')
  if (!(sources as readonly string[]).includes(source)) return source
  return t(lang, `memory.source.${source as (typeof sources)[number]}`)
}

/**
 * whyRecalled says why a memory was recalled: pinned, a preference, or the
 * task's words it matched and how relevant it is to the task (its score in
 * runs of before relevance was said).
 */
export function whyRecalled(why: Why, lang: Lang): string {
  switch (why.reason) {
    case 'pinned':
      return t(lang, 'memory.why.pinned')
    case 'preference':
      return t(lang, 'memory.why.preference')
    case 'match': {
      const terms = (why.terms ?? []).join(t(lang, 'memory.why.sep'))
      if (why.relevance) return t(lang, 'memory.why.relevant', { terms, percent: Math.round(why.relevance * 100) })
      return t(lang, 'memory.why.match', { terms, score: (why.score ?? 0).toFixed(2) })
    }
  }
  return why.reason ?? ''
}

/**
 * memoryUse says what a run does with long-term memory when it is not what
 * a run does by default (recall, and keep what it verified): off, read only,
 * or only what was written before a time (a fork's source's start); '' for
 * the default, and for runs logged before it was said.
 */
export function memoryUse(m: MemoryUse | undefined, lang: Lang, timeZone?: string): string {
  if (!m || (m.mode === 'on' && !m.as_of)) return ''
  const mode = (['on', 'read', 'off'] as const).find((k) => k === m.mode)
  const text = mode ? t(lang, `memory.use.${mode}`) : m.mode
  return m.as_of ? t(lang, 'memory.use.as_of', { mode: text, time: formatDateTime(m.as_of, lang, timeZone) }) : text
}
