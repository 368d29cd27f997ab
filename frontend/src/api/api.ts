import type { HermesEvent, RunSummary } from './types'
import { createHttpApi } from './http'
import { createWailsApi, wailsBindings, type WailsWindow } from './wails'

/**
 * Api is everything the UI asks of the backend. It has two transports: the
 * Wails bindings inside the desktop window and HTTP against `hermes serve` in
 * a browser; the rest of the UI never knows which one it has.
 */
export interface Api {
  /** Runs found in the home directory's logs, newest first. */
  listRuns(): Promise<RunSummary[]>
  /** The events of one run, in seq order. */
  runEvents(runId: string): Promise<HermesEvent[]>
  /** The backend's language ("en" or "zh-CN"), or "" when it has no say. */
  language(): Promise<string>
}

/**
 * ApiError is a failure the backend explained. messages holds its text per
 * language when the backend sent both (HTTP); text is the one it sent else.
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly messages: Readonly<Record<string, string>>

  constructor(text: string, opts: { status?: number; code?: string; messages?: Record<string, string> } = {}) {
    super(text)
    this.name = 'ApiError'
    this.status = opts.status ?? 0
    this.code = opts.code ?? ''
    this.messages = opts.messages ?? {}
  }

  /** The message in lang when the backend gave one, else the plain text. */
  messageIn(lang: string): string {
    return this.messages[lang] ?? this.message
  }
}

/** createApi picks the transport of the place the UI runs in. */
export function createApi(win: WailsWindow & { location: Location } = window as WailsWindow & Window): Api {
  if (wailsBindings(win)) return createWailsApi(win)
  return createHttpApi(win.location.origin, (input, init) => fetch(input, init))
}
