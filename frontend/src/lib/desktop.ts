// What the page does when it runs inside the desktop window: links go to
// the system's browser, folders are chosen in the system's dialog, the
// window's title names the run in front, and the window is told when it
// is in front (notifications wait for it to be behind). In a browser none
// of this applies and the page behaves as a web page.

import { createStore, type Store } from '../store/store'

/** The methods app.App binds for the desktop (app/desktop*.go). */
export interface DesktopBindings {
  OpenURL(url: string): Promise<void>
  ChooseFolder(title: string, start: string): Promise<string>
  WindowFocused(focused: boolean): Promise<void>
  SetTitle(text: string): Promise<void>
  PlaceWindow(screen: string): Promise<string>
  ShowingPage(page: string): Promise<void>
}

export interface DesktopWindow {
  go?: { app?: { App?: Partial<DesktopBindings> } }
}

/** desktopBindings returns the window's desktop methods; undefined in a browser, or in a window built before them. */
export function desktopBindings(win: DesktopWindow): DesktopBindings | undefined {
  const b = win.go?.app?.App
  return b && typeof b.OpenURL === 'function' ? (b as DesktopBindings) : undefined
}

/** The links handed to the system: web pages, mail and notes in Obsidian. */
const systemSchemes = new Set(['http:', 'https:', 'mailto:', 'obsidian:'])

/**
 * externalLink is the URL the system should open for a link to href on the
 * page at base, or null when the page itself follows it: a route of the UI
 * (#/runs/…), a link to the page's own server, or a scheme the system is
 * not given.
 */
export function externalLink(href: string | null | undefined, base: string): string | null {
  if (!href || href.startsWith('#')) return null
  let url: URL
  try {
    url = new URL(href, base)
  } catch {
    return null
  }
  if (!systemSchemes.has(url.protocol)) return null
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === new URL(base).origin) return null
  return url.href
}

/** The part of an element the link handler reads. */
interface Clicked {
  closest(selector: string): { getAttribute(name: string): string | null } | null
}

/** The part of a click the link handler reads and stops. */
export interface LinkClick {
  target: unknown
  button: number
  defaultPrevented: boolean
  preventDefault(): void
}

/**
 * linkClicked hands a click on a link the system should open to open, and
 * stops the page from following it; it returns whether it did. A click the
 * page already handled, or with another button than the first two, is left.
 */
export function linkClicked(e: LinkClick, base: string, open: (url: string) => void): boolean {
  if (e.defaultPrevented || e.button > 1) return false
  const target = e.target as Partial<Clicked> | null
  const a = typeof target?.closest === 'function' ? target.closest('a[href]') : null
  const url = externalLink(a?.getAttribute('href'), base)
  if (!url) return false
  e.preventDefault()
  open(url)
  return true
}

/** The run in front, as the title says it. */
export interface FrontRun {
  title: string
  task: string
  status: string
  paused: boolean
  waitingApproval: boolean
  waitingAnswer: boolean
}

/** The state of the run in front, as a message key of the title's. */
export type TitleState =
  | 'title.state.approval'
  | 'title.state.answer'
  | 'title.state.paused'
  | 'title.state.running'
  | 'title.state.finished'
  | 'title.state.failed'
  | 'title.state.guard'
  | 'title.state.stopped'
  | 'title.state.limit'

/** titleState is what the title says of a run's state: what it waits for first, else how it stands. */
export function titleState(r: FrontRun): TitleState {
  if (r.waitingApproval) return 'title.state.approval'
  if (r.waitingAnswer) return 'title.state.answer'
  if (r.paused) return 'title.state.paused'
  switch (r.status) {
    case 'finished':
      return 'title.state.finished'
    case 'failed':
      return 'title.state.failed'
    case 'guard':
      return 'title.state.guard'
    case 'stopped':
      return 'title.state.stopped'
    case 'max_iterations':
    case 'budget':
      return 'title.state.limit'
  }
  return 'title.state.running'
}

/** titleLimit is how many characters of a run's title or task the window's title takes. */
export const titleLimit = 60

/** titleText is what the window's title says after "Hermes — ": the run in front and its state ("Summarise the notes · waiting for approval"). */
export function titleText(r: FrontRun, state: string): string {
  const name = (r.title || r.task).replace(/\s+/g, ' ').trim()
  const short = name.length > titleLimit ? `${name.slice(0, titleLimit - 1)}…` : name
  return short ? `${short} · ${state}` : state
}

/** The part of localStorage the recent workspaces are kept in. */
export interface KeyValue {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

const recentKey = 'hermes.recent_workspaces'

/** recentLimit is how many recent workspaces are offered. */
export const recentLimit = 8

/** recentWorkspaces are the workspaces runs were last started in, the latest first. */
export function recentWorkspaces(storage: KeyValue | null): string[] {
  try {
    const v: unknown = JSON.parse(storage?.getItem(recentKey) ?? '[]')
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '').slice(0, recentLimit) : []
  } catch {
    return []
  }
}

/** rememberWorkspace puts dir first among the recent workspaces. */
export function rememberWorkspace(storage: KeyValue | null, dir: string): void {
  const d = dir.trim()
  if (!storage || !d) return
  const list = [d, ...recentWorkspaces(storage).filter((w) => w !== d)].slice(0, recentLimit)
  storage.setItem(recentKey, JSON.stringify(list))
}

/** screenKey names a screen by its size ("1920x1080"): the window keeps a place for each. */
export function screenKey(s: { width: number; height: number }): string {
  return `${Math.round(s.width)}x${Math.round(s.height)}`
}

/** Drop is what was dropped on the window (app.Drop). */
export interface Drop {
  kind: 'folder' | 'note'
  path: string
  note?: string
}

/** asDrop reads a drop event's data; null when it is not one. */
export function asDrop(data: unknown): Drop | null {
  if (!data || typeof data !== 'object') return null
  const d = data as Partial<Drop>
  if ((d.kind !== 'folder' && d.kind !== 'note') || typeof d.path !== 'string' || d.path === '') return null
  return { kind: d.kind, path: d.path, note: typeof d.note === 'string' ? d.note : undefined }
}

/**
 * noteRun is the run whose inspector shows a note dropped on the window:
 * the run in front, else the first listed (the live ones, then the newest;
 * the sample run when there is no other). The note is read from the
 * vault hermes.toml names, whichever run's page shows it.
 */
export function noteRun(front: string, listed: readonly string[]): string {
  return front || listed[0] || ''
}

/** DroppedState is the folder last dropped on the window, for the New run form to take. */
export interface DroppedState {
  workspace: string
  /** Counts the drops, so that the same folder dropped twice is taken twice. */
  seq: number
}

/** dropped holds the folder last dropped on the window until the New run form takes it. */
export const dropped: Store<DroppedState> = createStore<DroppedState>({ workspace: '', seq: 0 })

/**
 * workspaceChoices are the workspaces the New run form offers: those chosen
 * here lately, then those of the runs listed (newest first), each once; the
 * sample run's is none of yours.
 */
export function workspaceChoices(recent: readonly string[], runs: readonly { workspace?: string; sample?: boolean }[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const w of [...recent, ...runs.filter((r) => !r.sample).map((r) => r.workspace ?? '')]) {
    const d = w.trim()
    if (!d || seen.has(d)) continue
    seen.add(d)
    out.push(d)
    if (out.length === recentLimit) break
  }
  return out
}
