// A note of the run's vault shown in the inspector: which note a tool read
// (the call's arguments), the note's front matter apart from its body, its
// wikilinks as written, and the link that opens it in Obsidian.

import type { VaultBacklink } from '../api/types'
import { createStore, type Store } from '../store/store'

/** NoteAsked is the note the inspector is asked to show: by name, as a wikilink in the note at from finds it. */
export interface NoteAsked {
  runId: string
  name: string
  from: string
  /** Counts the asks, so that the same note asked again is shown again. */
  seq: number
}

/** shownNote is the note last asked for; the inspector shows it on a tab of its own. */
export const shownNote: Store<NoteAsked> = createStore<NoteAsked>({ runId: '', name: '', from: '', seq: 0 })

/** showNote asks the inspector to show a note of the run's vault. */
export function showNote(runId: string, name: string, from = ''): void {
  shownNote.set((s) => ({ runId, name, from, seq: s.seq + 1 }))
}

/** vaultWrites are the vault tools that write, whose calls keep their change with the run for Undo. */
export const vaultWrites: ReadonlySet<string> = new Set(['append_note', 'create_note', 'edit_note', 'set_property', 'rename_note', 'daily_note'])

/** The vault tools that read one note, and the argument that names it. */
const noteArgs: Record<string, string> = { read_note: 'note', get_properties: 'path', get_links: 'path', get_backlinks: 'note' }

/** noteOfCall is the note a vault tool's call read, by the name the model gave; "" for a call that read none. */
export function noteOfCall(name: string, args: string): string {
  const key = noteArgs[name]
  if (!key) return ''
  try {
    const v = (JSON.parse(args) as Record<string, unknown>)[key]
    return typeof v === 'string' ? v.trim() : ''
  } catch {
    return ''
  }
}

/** splitFrontMatter parts a note's YAML front matter (between its first two --- lines) from its body. */
export function splitFrontMatter(text: string): { front: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  if (!m) return { front: '', body: text }
  return { front: m[1], body: text.slice(m[0].length) }
}

/** wikilinkParts reads the inside of [[…]]: the note (and #heading) it names, and the text it shows (its alias, else the name). A table's escaped pipe (\|) separates too. */
export function wikilinkParts(inner: string): { target: string; text: string } {
  const bar = /\\?\|/.exec(inner)
  const target = (bar ? inner.slice(0, bar.index) : inner).trim()
  const alias = bar ? inner.slice(bar.index + bar[0].length).trim() : ''
  return { target, text: alias || target }
}

/** hideBlockIds takes the ^ids that mark blocks off the ends of their lines, as Obsidian's reading view does. */
export function hideBlockIds(body: string): string {
  return body.replace(/[ \t]+\^[A-Za-z0-9-]+[ \t]*$/gm, '')
}

/** backlinksByNote groups the links to a note by the note they are in, each with its lines once, in order. */
export function backlinksByNote(links: readonly VaultBacklink[]): { from: string; lines: number[] }[] {
  const by = new Map<string, Set<number>>()
  for (const l of links) by.set(l.from, (by.get(l.from) ?? new Set<number>()).add(l.line))
  return [...by].map(([from, lines]) => ({ from, lines: [...lines].sort((a, b) => a - b) }))
}

/** obsidianOpen is the link that opens the note at path (from the vault's root) of the vault named vault in Obsidian. */
export function obsidianOpen(vault: string, path: string): string {
  return `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent(path.replace(/\.md$/i, ''))}`
}
