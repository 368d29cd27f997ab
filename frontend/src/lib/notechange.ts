// A vault edit's change (the backend's vault.Change, carried by
// approval.requested), read from what the wire gives as unknown into what
// the approval dialog shows: each note, the properties, links and sections
// it changes, and its changed lines as before and after texts for the
// word-level diff.

export interface PropertyChange {
  name: string
  before?: unknown
  after?: unknown
  added: boolean
  removed: boolean
}

export interface LinkChange {
  line: number
  before?: string
  after?: string
}

export interface HunkView {
  line: number
  before: string
  after: string
}

export interface NoteChangeView {
  path: string
  newPath?: string
  created: boolean
  properties: PropertyChange[]
  links: LinkChange[]
  sectionsAdded: string[]
  sectionsRemoved: string[]
  hunks: HunkView[]
}

export interface ChangeView {
  tool: string
  notes: NoteChangeView[]
  folder?: { from: string; to: string }
}

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const strs = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string')
const num = (v: unknown): number => (typeof v === 'number' ? v : 0)

/** readChange reads a change as the wire carries it; null when there is none or it is not one. */
export function readChange(raw: unknown): ChangeView | null {
  const c = obj(raw)
  const notes = arr(c.notes)
    .map(obj)
    .filter((n) => str(n.path) !== '')
    .map(
      (n): NoteChangeView => ({
        path: str(n.path),
        newPath: str(n.new_path) || undefined,
        created: n.created === true,
        properties: arr(n.properties)
          .map(obj)
          .map((p) => ({ name: str(p.name), before: p.before, after: p.after, added: p.added === true, removed: p.removed === true })),
        links: arr(n.links)
          .map(obj)
          .map((l) => ({ line: num(l.line), before: str(l.before) || undefined, after: str(l.after) || undefined })),
        sectionsAdded: strs(n.sections_added),
        sectionsRemoved: strs(n.sections_removed),
        hunks: arr(n.hunks)
          .map(obj)
          .map((h) => ({ line: num(h.line), before: strs(h.before).join('\n'), after: strs(h.after).join('\n') })),
      }),
    )
  if (notes.length === 0) return null
  const f = obj(c.folder)
  return { tool: str(c.tool), notes, folder: str(f.from) !== '' ? { from: str(f.from), to: str(f.to) } : undefined }
}

/** showValue writes a property's value as a person reads it: a list as its items, an empty one as a dash. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—'
  if (Array.isArray(v)) return v.map(showValue).join(', ')
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

/** changedLinks counts the links a change rewrites, and the notes they are in (a rename's reach). */
export function changedLinks(c: ChangeView): { links: number; notes: number } {
  let links = 0
  let notes = 0
  for (const n of c.notes) {
    if (n.links.length > 0) {
      links += n.links.length
      notes++
    }
  }
  return { links, notes }
}
