import { t, type Lang } from '../i18n/i18n'

// Making an Intl formatter costs far more than formatting with one, and a
// live run page formats every figure it shows on each event: keep them.
const numberFormats = new Map<string, Intl.NumberFormat>()
const dateFormats = new Map<string, Intl.DateTimeFormat>()

function numberFormat(lang: Lang, opts?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = lang + JSON.stringify(opts ?? {})
  let f = numberFormats.get(key)
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(lang, opts)))
  return f
}

function dateFormat(lang: Lang, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = lang + JSON.stringify(opts)
  let f = dateFormats.get(key)
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(lang, opts)))
  return f
}

/** formatCount groups digits: 12345 -> "12,345". */
export function formatCount(n: number, lang: Lang): string {
  return numberFormat(lang).format(n)
}

/** formatTokens is exact below 10,000 and compact above ("12K", "1.2万"). */
export function formatTokens(n: number, lang: Lang): string {
  if (Math.abs(n) < 10_000) return formatCount(n, lang)
  return numberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }).format(n)
}

/** formatDuration renders milliseconds: "850 ms", "1.2 s", "2m 05s", "1h 02m". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const totalSec = Math.round(ms / 1000)
  const h = Math.floor(totalSec / 3600)
  const m = Math.floor((totalSec % 3600) / 60)
  const s = totalSec % 60
  const pad = (x: number) => String(x).padStart(2, '0')
  return h > 0 ? `${h}h ${pad(m)}m` : `${m}m ${pad(s)}s`
}

/** formatBytes renders a size in the UI's language: "512 B", "1.5 KB". */
export function formatBytes(n: number, lang: Lang): string {
  if (n < 1024) return t(lang, 'unit.bytes', { n })
  if (n < 1024 * 1024) return t(lang, 'unit.kb', { n: (n / 1024).toFixed(1) })
  return t(lang, 'unit.mb', { n: (n / 1024 / 1024).toFixed(1) })
}

/** formatPercent renders a 0..1 share: 0.42 -> "42%". */
export function formatPercent(share: number, lang: Lang): string {
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share)
}

/** formatDateTime renders an RFC 3339 time as a short local date and time. */
export function formatDateTime(iso: string | undefined, lang: Lang, timeZone?: string): string {
  const d = parseTime(iso)
  if (!d) return '–'
  return dateFormat(lang, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(d)
}

/** formatClock renders the time of day with milliseconds, for events. */
export function formatClock(iso: string | undefined, lang: Lang, timeZone?: string): string {
  const d = parseTime(iso)
  if (!d) return '–'
  return dateFormat(lang, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    hourCycle: 'h23',
    timeZone,
  }).format(d)
}

/** parseTime reads an RFC 3339 time; Go's zero time counts as none. */
export function parseTime(iso: string | undefined): Date | undefined {
  if (!iso || iso.startsWith('0001-01-01')) return undefined
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? undefined : d
}

/** oneLine collapses whitespace and cuts text to max characters (code points) with an ellipsis. */
export function oneLine(text: string | undefined, max: number): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  if (chars.length <= max) return flat
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…'
}

/**
 * firstLine is the first line of Markdown that says something, without its
 * heading, list or quote marks, cut to max characters: a panel's header
 * says an answer by it ("## Orders" then a table: "Orders").
 */
export function firstLine(markdown: string, max: number): string {
  for (const line of markdown.split('\n')) {
    const text = line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)*/, '').trim()
    if (text !== '' && !/^[|:\-\s`~]+$/.test(text)) return oneLine(text, max)
  }
  return ''
}
