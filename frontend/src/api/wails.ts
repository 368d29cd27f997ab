import type { Api } from './api'
import { ApiError } from './api'
import type { HermesEvent, RunSummary } from './types'

/** The methods app.App binds into the window (see app/app.go). */
export interface AppBindings {
  ListRuns(): Promise<RunSummary[] | null>
  RunEvents(runId: string): Promise<HermesEvent[] | null>
  Language(): Promise<string>
}

export interface WailsWindow {
  go?: { app?: { App?: AppBindings } }
}

/** wailsBindings returns the bound App when the page runs inside the desktop window. */
export function wailsBindings(win: WailsWindow): AppBindings | undefined {
  return win.go?.app?.App
}

/** createWailsApi calls the Go methods bound by Wails. */
export function createWailsApi(win: WailsWindow): Api {
  const app = (): AppBindings => {
    const b = wailsBindings(win)
    if (!b) throw new ApiError('the desktop bindings are not loaded; restart Hermes')
    return b
  }
  return {
    listRuns: () => call(async () => (await app().ListRuns()) ?? []),
    runEvents: (runId) => call(async () => (await app().RunEvents(runId)) ?? []),
    language: () => call(() => app().Language()),
  }
}

// Wails rejects with the Go error's text, already in the backend's language.
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof ApiError) throw err
    throw new ApiError(err instanceof Error ? err.message : String(err))
  }
}
