import { memo, useEffect, useMemo, useState } from 'react'
import { toApiError } from '../api/api'
import type { VaultEdit } from '../api/types'
import { formatDateTime } from '../lib/format'
import { readChange, type ChangeView as Change } from '../lib/notechange'
import { vaultWrites } from '../lib/notes'
import type { CallView } from '../lib/timeline'
import { ChangeView } from './ChangeView'
import { useAppState, useAppStore, useT } from './appContext'

/**
 * VaultEditBlock is what a vault edit of the card changed, with Undo under
 * it: the change the approval showed, or the one kept with the run (an
 * edit no one was asked about), and whether it was undone, which the run
 * keeps beside the edit's copies. A refused Undo says why (a note changed
 * since) and changes nothing.
 */
export const VaultEditBlock = memo(function VaultEditBlock({ call, approved }: { call: CallView; approved: Change | null }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const { run } = useAppStore()
  const [edit, setEdit] = useState<VaultEdit | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const isEdit = call.status === 'ok' && (approved !== null || vaultWrites.has(call.name))
  useEffect(() => {
    if (!isEdit) return
    let live = true
    // No change kept (a run from before it was, a call that changed
    // nothing): the card has no Undo to offer, and says nothing of it.
    run.vaultEdit(call.id).then(
      (e) => live && setEdit(e),
      () => {},
    )
    return () => {
      live = false
    }
  }, [run, call.id, isEdit])
  const kept = useMemo(() => readChange(edit?.change), [edit?.change])
  const change = approved ?? kept
  if (!isEdit || !change) return null
  const undone = edit?.undone_at ?? ''
  const undo = async () => {
    setBusy(true)
    setError('')
    try {
      setEdit(await run.undoVaultEdit(call.id))
    } catch (err) {
      setError(toApiError(err).messageIn(lang))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details className="call-change" data-testid="call-change" data-undone={undone ? '' : undefined}>
      <summary>
        {t('change.applied')}
        {undone && (
          <span className="tag undone-tag" data-testid="call-undone-tag">
            {t('change.undone')}
          </span>
        )}
      </summary>
      <ChangeView change={change} />
      {edit && !undone && (
        <button type="button" className="undo-edit" data-testid="undo-edit" disabled={busy} title={t('change.undo_hint')} onClick={() => void undo()}>
          ↶ {busy ? t('change.undoing') : t('change.undo')}
        </button>
      )}
      {undone && (
        <p className="undone" data-testid="call-undone">
          {t('change.undone_at', { time: formatDateTime(undone, lang) })}
        </p>
      )}
      {error && (
        <p className="notice notice-error" role="alert" data-testid="undo-error">
          {error}
        </p>
      )}
    </details>
  )
})
