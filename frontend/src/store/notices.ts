import { toApiError, type Api, type ApiError } from '../api/api'
import type { Notice } from '../api/types'
import { applyNotice, dismissKey } from '../lib/notices'
import { createStore, type Store } from './store'

export interface NoticesState {
  /** The notices in force, oldest first. */
  notices: Notice[]
  /** A short-lived message (the config was reloaded), or null. */
  toast: Notice | null
  dismissed: string[]
  installing: boolean
  installError: ApiError | null
}

/** Later calls fn after ms milliseconds; tests pass one they drive by hand. */
export type Later = (fn: () => void, ms: number) => () => void

export const timeoutLater: Later = (fn, ms) => {
  const id = setTimeout(fn, ms)
  return () => clearTimeout(id)
}

/** toastMs is how long the "config reloaded" toast stays. */
export const toastMs = 4000

export interface NoticesStore extends Store<NoticesState> {
  /** start watches the notices and then lists those in force. */
  start(): Promise<void>
  stop(): void
  /** shown are the notices in force that were not dismissed. */
  shown(): Notice[]
  dismiss(n: Notice): void
  /** installUpdate installs the downloaded update and restarts (the window only). */
  installUpdate(): Promise<boolean>
}

export function createNoticesStore(api: Api, later: Later = timeoutLater): NoticesStore {
  const store = createStore<NoticesState>({ notices: [], toast: null, dismissed: [], installing: false, installError: null })
  let unwatch: (() => void) | null = null
  let clearToast: (() => void) | null = null
  // Ids told on the stream before the list came: the list's are older.
  const told = new Set<string>()

  const receive = (n: Notice) => {
    told.add(n.id)
    const patch: Partial<NoticesState> = { notices: applyNotice(store.get().notices, n) }
    if (n.kind === 'config_reloaded') {
      clearToast?.()
      patch.toast = n
      clearToast = later(() => {
        if (store.get().toast === n) store.set({ toast: null })
      }, toastMs)
    } else if (store.get().toast?.id === n.id) {
      patch.toast = null
    }
    store.set(patch)
  }

  return {
    ...store,
    async start() {
      unwatch?.()
      unwatch = api.watchNotices(receive)
      try {
        const listed = await api.notices()
        store.set((s) => ({ notices: [...listed.filter((n) => !told.has(n.id)), ...s.notices] }))
      } catch {
        // Notices are a courtesy: without the list, the stream still tells what comes.
      }
    },
    stop() {
      unwatch?.()
      unwatch = null
      clearToast?.()
    },
    shown() {
      const s = store.get()
      return s.notices.filter((n) => !s.dismissed.includes(dismissKey(n)))
    },
    dismiss(n) {
      store.set((s) => ({ dismissed: [...s.dismissed, dismissKey(n)], toast: s.toast === n ? null : s.toast }))
    },
    async installUpdate() {
      store.set({ installing: true, installError: null })
      try {
        await api.installUpdate()
        return true
      } catch (err) {
        store.set({ installing: false, installError: toApiError(err) })
        return false
      }
    },
  }
}
