// The run page's panels (the answer or where the run stopped, the plan, the
// budget chart) remember how the person left them, across runs, in
// localStorage. Beside the timeline (from 1600 px) each is open or closed on
// its own, open until closed. Above it, below 1600 px, only their headers
// stand in a strip and one at a time opens over the timeline, none until
// the person opens one: the page remembers which. Each remembers the height
// it was dragged to, in either place.

/** The part of localStorage the panels use. */
export interface PanelStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem?(key: string): void
}

const prefix = 'hermes.panel.'
/** The key of the one panel open over the timeline below 1600 px. */
export const openKey = prefix + 'open'

function read(storage: PanelStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null
  } catch {
    return null
  }
}

// A storage that refuses (private mode, full) only forgets: the page keeps what was asked.
function write(storage: PanelStorage | null, key: string, value: string | null): void {
  try {
    if (value !== null) storage?.setItem(key, value)
    else if (storage?.removeItem) storage.removeItem(key)
    else storage?.setItem(key, '')
  } catch {
    // Nothing to do.
  }
}

/** panelOpen is whether panel id was left open beside the timeline; true when it never was closed or storage is unavailable. */
export function panelOpen(storage: PanelStorage | null, id: string): boolean {
  return read(storage, prefix + id) !== 'closed'
}

/** setPanelOpen remembers panel id open or closed beside the timeline. */
export function setPanelOpen(storage: PanelStorage | null, id: string, open: boolean): void {
  write(storage, prefix + id, open ? 'open' : 'closed')
}

/** openPanel is the id of the panel left open over the timeline, "" when none is. */
export function openPanel(storage: PanelStorage | null): string {
  return read(storage, openKey) ?? ''
}

/** setOpenPanel remembers id as the panel open over the timeline; "" closes it. */
export function setOpenPanel(storage: PanelStorage | null, id: string): void {
  write(storage, openKey, id === '' ? null : id)
}

/** The least height a panel's body can be dragged to, in pixels: a line or two of it. */
export const minPanelHeight = 48

/** panelHeight is the height panel id's body was dragged to, or null when it takes what its content needs. */
export function panelHeight(storage: PanelStorage | null, id: string): number | null {
  const h = Number(read(storage, `${prefix}${id}.height`) || NaN)
  return Number.isFinite(h) && h >= minPanelHeight ? Math.round(h) : null
}

/** setPanelHeight remembers the height panel id's body was dragged to; null lets it take what its content needs again. */
export function setPanelHeight(storage: PanelStorage | null, id: string, height: number | null): void {
  write(storage, `${prefix}${id}.height`, height === null ? null : String(Math.round(Math.max(minPanelHeight, height))))
}

/**
 * draggedHeight is a body's height while its lower edge is dragged: the
 * height it had when the drag began plus how far the pointer went, within
 * the least height and the room there is.
 */
export function draggedHeight(start: number, dy: number, max: number): number {
  return Math.round(Math.min(Math.max(minPanelHeight, max), Math.max(minPanelHeight, start + dy)))
}
