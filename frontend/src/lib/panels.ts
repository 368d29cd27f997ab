// The run page's panels (the answer, the plan, the budget chart) each
// remember whether the person left them open, per panel and across runs,
// in localStorage; a panel never touched is open.

/** The part of localStorage the panels use. */
export interface PanelStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

const prefix = 'hermes.panel.'

/** panelOpen is whether panel id was left open; true when it never was closed or storage is unavailable. */
export function panelOpen(storage: PanelStorage | null, id: string): boolean {
  try {
    return storage?.getItem(prefix + id) !== 'closed'
  } catch {
    return true
  }
}

/** setPanelOpen remembers panel id open or closed; a storage that refuses (private mode, full) only forgets. */
export function setPanelOpen(storage: PanelStorage | null, id: string, open: boolean): void {
  try {
    storage?.setItem(prefix + id, open ? 'open' : 'closed')
  } catch {
    // Nothing to do: the panel stays as asked for this page.
  }
}
