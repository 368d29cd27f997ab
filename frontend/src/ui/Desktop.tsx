import { useEffect, useRef } from 'react'
import { showNote } from '../lib/notes'
import { openQuestion } from '../lib/plan'
import { asDrop, desktopBindings, dropped, linkClicked, noteRun, screenKey, titleState, titleText, type DesktopBindings, type FrontRun, type DesktopWindow } from '../lib/desktop'
import { newRunHref, runHref } from '../lib/route'
import { useAppStore, useRunState, useRunsState, useT } from './appContext'

/** The part of the Wails runtime the desktop uses: events from Go. */
interface EventsWindow extends DesktopWindow {
  runtime?: { EventsOn(name: string, callback: (...data: unknown[]) => void): () => void }
}

/** desktop is the window's desktop methods, or undefined in a browser. */
export function desktop(): DesktopBindings | undefined {
  return desktopBindings(window as unknown as DesktopWindow)
}

/** report calls the window and leaves a failure to the window's log: what the page tells the window is a courtesy. */
function report(p: Promise<unknown>): void {
  p.catch(() => {})
}

/**
 * Desktop ties the page to the desktop window it runs in, and draws nothing:
 * links open in the system's browser, the window knows when it is in front,
 * opens where it was with the page it showed, names the run in front in its
 * title, and shows the run of a clicked notification or takes a dropped
 * folder to the New run form, or a dropped note of the vault to the
 * inspector's Note tab. In a browser it does nothing.
 */
export function Desktop({ runId, page }: { runId: string; page: string }) {
  const t = useT()
  const store = useAppStore()
  // The drop handler is set once; it reads the run in front when a note comes.
  const inFront = useRef(runId)
  inFront.current = runId
  const view = useRunState((s) => (s.runId === runId && s.status === 'ready' ? s.view : null))
  const summaryTitle = useRunsState((s) => s.index.byId[runId]?.title)

  useEffect(() => {
    const d = desktop()
    if (!d) return
    const onClick = (e: MouseEvent) => {
      linkClicked(e, window.location.href, (url) => report(d.OpenURL(url)))
    }
    // A file dropped on the page would replace it: the window takes drops
    // itself (hermes:drop below).
    const refuseDrop = (e: DragEvent) => e.preventDefault()
    const onFocus = () => report(d.WindowFocused(true))
    const onBlur = () => report(d.WindowFocused(false))
    document.addEventListener('click', onClick, true)
    document.addEventListener('auxclick', onClick, true)
    window.addEventListener('focus', onFocus)
    window.addEventListener('blur', onBlur)
    document.addEventListener('dragover', refuseDrop)
    document.addEventListener('drop', refuseDrop)
    report(d.WindowFocused(document.hasFocus()))
    void d
      .PlaceWindow(screenKey(window.screen))
      .then((last) => {
        const h = window.location.hash
        if (last && (h === '' || h === '#' || h === '#/')) window.location.hash = last
      })
      .catch(() => {})
    const rt = (window as unknown as EventsWindow).runtime
    const offs = rt
      ? [
          rt.EventsOn('hermes:open-run', (id) => {
            if (typeof id === 'string' && id) window.location.hash = runHref(id)
          }),
          rt.EventsOn('hermes:drop', (data) => {
            const drop = asDrop(data)
            if (drop?.kind === 'folder') {
              dropped.set((s) => ({ workspace: drop.path, seq: s.seq + 1 }))
              window.location.hash = newRunHref
            } else if (drop?.kind === 'note' && drop.note) {
              // In the inspector's Note tab, read from the vault as a tool reads it.
              const id = noteRun(inFront.current, store.runs.get().index.ids)
              if (!id) return
              showNote(id, drop.note)
              window.location.hash = runHref(id)
            }
          }),
        ]
      : []
    return () => {
      document.removeEventListener('click', onClick, true)
      document.removeEventListener('auxclick', onClick, true)
      window.removeEventListener('focus', onFocus)
      window.removeEventListener('blur', onBlur)
      document.removeEventListener('dragover', refuseDrop)
      document.removeEventListener('drop', refuseDrop)
      for (const off of offs) off()
    }
  }, [store])

  useEffect(() => {
    const d = desktop()
    if (d) report(d.ShowingPage(page))
  }, [page])

  const front: FrontRun | null = view && {
    title: summaryTitle ?? '',
    task: view.task,
    status: view.status,
    paused: view.paused !== null,
    waitingApproval: view.pendingApproval !== null,
    waitingAnswer: openQuestion(view.plan) !== null,
  }
  const text = front ? titleText(front, t(titleState(front))) : ''
  useEffect(() => {
    const d = desktop()
    if (d) report(d.SetTitle(text))
  }, [text])
  return null
}
