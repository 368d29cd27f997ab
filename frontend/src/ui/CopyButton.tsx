import { useEffect, useState } from 'react'
import { useT } from './appContext'

/** copyText puts text on the clipboard; a page the clipboard API refuses falls back to a hidden field. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.appendChild(area)
    area.select()
    try {
      return document.execCommand('copy')
    } catch {
      return false
    } finally {
      area.remove()
    }
  }
}

/** CopyButton copies text (or what text() returns when pressed) and says for a moment that it did. */
export function CopyButton({ text, label, title, testId }: { text: string | (() => string); label?: string; title?: string; testId?: string }) {
  const t = useT()
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const id = setTimeout(() => setState('idle'), 1500)
    return () => clearTimeout(id)
  }, [state])
  return (
    <button
      type="button"
      className="link copy-button"
      title={title ?? label ?? t('copy.copy')}
      data-testid={testId}
      data-state={state}
      onClick={(e) => {
        e.stopPropagation()
        // copyText does not reject: it says whether the text was copied.
        void copyText(typeof text === 'function' ? text() : text).then((ok) => setState(ok ? 'done' : 'failed'))
      }}
    >
      {state === 'done' ? t('copy.copied') : state === 'failed' ? t('copy.failed') : (label ?? t('copy.copy'))}
    </button>
  )
}
