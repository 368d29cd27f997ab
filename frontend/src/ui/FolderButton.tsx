import { useState } from 'react'
import { toApiError } from '../api/api'
import type { KeyValue } from '../lib/desktop'
import { useAppState, useT } from './appContext'
import { desktop } from './Desktop'

/** localStore is the page's localStorage, or null where it cannot be used. */
export function localStore(): KeyValue | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/**
 * FolderButton is "Choose…" beside a folder's field: the system's folder
 * dialog, in the desktop window only (in a browser the field is typed).
 */
export function FolderButton({ title, start, onChoose, testId }: { title: string; start: string; onChoose: (dir: string) => void; testId: string }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const [error, setError] = useState('')
  const d = desktop()
  if (!d) return null
  const choose = async () => {
    setError('')
    try {
      const dir = await d.ChooseFolder(title, start)
      if (dir) onChoose(dir)
    } catch (err) {
      setError(toApiError(err).messageIn(lang))
    }
  }
  return (
    <>
      <button type="button" className="button" data-testid={testId} title={t('desktop.choose_hint')} onClick={() => void choose()}>
        {t('desktop.choose')}
      </button>
      {error && (
        <span className="field-hint warn" role="alert">
          {error}
        </span>
      )}
    </>
  )
}
