import { useMemo, useState } from 'react'
import { splitCallMeta } from '../lib/compare'
import { diffJSON } from '../lib/diff'
import { formatBytes, formatDuration } from '../lib/format'
import { callSandbox } from '../lib/sandbox'
import { hitIn, type CardHit } from '../lib/search'
import { resultShown } from '../lib/iteration'
import { readChange } from '../lib/notechange'
import { noteOfCall, showNote } from '../lib/notes'
import type { CallView } from '../lib/timeline'
import { VaultEditBlock } from './VaultEditBlock'
import { DiffView } from './DiffView'
import { PinButton, type Pins } from './MessageView'
import { JsonText } from './JsonTree'
import { CopyButton } from './CopyButton'
import { Highlight } from './Highlight'
import { useAppState, useRunState, useT } from './appContext'

const previewChars = 600

/** CallBlock is one tool call of a card: its arguments, its fate, and what the model saw of it; hit, a search hit in it, is shown and marked. */
export function CallBlock({ call, onArtifact, pins, resultIndex, hit }: { call: CallView; onArtifact: (call: CallView) => void; pins?: Pins; resultIndex?: number; hit?: CardHit | null }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const [argsOpen, setArgsOpen] = useState(false)
  const [resultOpen, setResultOpen] = useState(false)
  const argsHit = hitIn(hit, 'arguments', call.id) ? hit : null
  const seenHit = hitIn(hit, ['result', 'error'], call.id) ? hit : null
  // What only repeats the lines above is left out, unless a search hit is in it.
  const seen = seenHit ? call.result || call.error : resultShown(call)
  const long = seen.length > previewChars
  // A hit past the preview shows the whole result.
  const clamped = long && !resultOpen && !(seenHit && seenHit.end > previewChars)
  const a = call.approval
  const change = useMemo(() => readChange(a?.change), [a?.change])
  const pinned = resultIndex !== undefined && !!pins?.pinned.includes(resultIndex)
  // Under a plan the model's _meta (the step a call serves) rides in its
  // arguments; the tool never got it, so it is a tag here, not arguments.
  const { rest: args, meta } = useMemo(() => splitCallMeta(call.arguments), [call.arguments])
  const sandbox = useMemo(() => callSandbox(t, call.sandbox), [t, call.sandbox])
  const note = useMemo(() => noteOfCall(call.name, call.arguments), [call.name, call.arguments])
  const runId = useRunState((s) => s.runId)

  return (
    <div className={`call call-${call.status}`} data-testid="call" data-call-id={call.id} data-status={call.status}>
      <div className="call-head">
        <button type="button" className="call-name" aria-expanded={argsOpen} onClick={() => setArgsOpen(!argsOpen)} title={t('call.args_toggle')}>
          {argsOpen ? '▾' : '▸'} <b>{call.name}</b>
          {!argsOpen && <span className="call-args-preview">{args}</span>}
        </button>
        {meta && (
          <span className="meta-tag" title={t('call.meta_hint', { text: meta.text })} data-testid="call-meta">
            {meta.step ? t('call.meta_tag', { step: meta.step }) : '_meta'}
          </span>
        )}
        <span className={`call-status status-${call.status}`} data-testid="call-status">
          {t(`call.status.${call.status}`)}
        </span>
        {call.durationMs > 0 && <span className="muted">{formatDuration(call.durationMs)}</span>}
        {call.attempts > 1 && <span className="tag warn">{t('call.attempts', { n: call.attempts })}</span>}
        {call.repaired && <span className="tag" title={t('call.repaired_hint')}>{t('call.repaired')}</span>}
        {sandbox && (
          <span className={`tag sandbox-tag sandbox-${sandbox.state}`} title={sandbox.hint} data-testid="call-sandbox" data-state={sandbox.state}>
            {sandbox.label}
          </span>
        )}
        {call.arguments && <CopyButton text={args} title={t('copy.arguments')} testId="copy-arguments" />}
      </div>
      {sandbox && sandbox.blocked.length > 0 && (
        <ul className="call-blocked" data-testid="call-blocked" aria-label={sandbox.label}>
          {sandbox.blocked.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
      {argsHit && !argsOpen && (
        <pre className="call-args-hit" data-testid="call-args-hit">
          <Highlight text={call.arguments} hit={argsHit} />
        </pre>
      )}
      {Object.keys(call.provenance).length > 0 && (
        <div className="provenance" data-testid="provenance">
          {Object.entries(call.provenance).map(([arg, from]) => (
            <span key={arg} className={`tag from-${from}`} data-from={from} title={t('call.provenance_hint')}>
              {arg}: {t(`call.from.${from === 'user' || from === 'tool' ? from : 'inferred'}`)}
            </span>
          ))}
        </div>
      )}
      {argsOpen && (
        <div className="call-args" data-testid="call-args">
          <JsonText text={args} open={2} />
        </div>
      )}
      {call.edit && (
        <div className="call-edit">
          <span className="mark-label">✎ {t('call.edited')}</span>
          <DiffView ops={diffJSON(call.edit.old, call.edit.new)} testId="call-diff" />
        </div>
      )}
      {call.invalidReason && (
        <div className="call-error">
          <Highlight text={call.invalidReason} hit={hitIn(hit, 'invalid', call.id) ? hit : null} />
        </div>
      )}
      {a && (
        <div className="call-approval" data-testid="call-approval" data-hit-active={hitIn(hit, 'denial', call.id) ? '' : undefined}>
          {a.decision === '' ? t(a.escaping ? 'call.awaiting_escaping' : 'call.awaiting', { risk: a.risk }) : approvalText(t, a.decision, a.by, a.denyReason, a.pattern)}
        </div>
      )}
      <VaultEditBlock call={call} approved={change} />
      {seen && (
        <div className={`call-result${call.status === 'failed' || call.status === 'denied' ? ' failed' : ''}`}>
          <pre data-testid="call-result" className={clamped ? 'clamped' : ''}>
            {clamped ? seen.slice(0, previewChars) + '…' : <Highlight text={seen} hit={seenHit} />}
          </pre>
          <div className="call-result-tools">
            {long && (
              <button type="button" className="link" onClick={() => setResultOpen(!resultOpen)}>
                {!clamped ? t('call.less') : t('call.more')}
              </button>
            )}
            <CopyButton text={seen} title={t('copy.result')} testId="copy-result" />
            {note && call.status === 'ok' && (
              <button type="button" className="link" data-testid="call-open-note" title={t('note.open_hint', { note })} onClick={() => showNote(runId, note)}>
                {t('note.open')}
              </button>
            )}
            {call.artifact && (
              <button type="button" className="link" data-testid="call-artifact" onClick={() => onArtifact(call)}>
                {t('call.full_output', { size: formatBytes(call.size, lang) })}
              </button>
            )}
            {pinned && <span className="tag pin-tag">{t('pin.pinned')}</span>}
            {!pinned && pins?.live && resultIndex !== undefined && <PinButton pins={pins} index={resultIndex} hint={t('pin.result_hint')} testId="call-pin" />}
          </div>
        </div>
      )}
    </div>
  )
}

export function approvalText(t: ReturnType<typeof useT>, decision: string, by: string, reason: string, pattern: string): string {
  const who = by === 'user' || by === '' ? '' : ` (${t(`approval.by.${by}` as 'approval.by.policy')})`
  switch (decision) {
    case 'allow_once':
      return `✓ ${t('approval.allowed_once')}${who}`
    case 'allow_run':
      return `✓ ${t('approval.allowed_run')}${who}`
    case 'allow_always':
      return `✓ ${t('approval.allowed_always')}${pattern ? ` · ${pattern}` : ''}${who}`
    case 'deny':
      return `✗ ${t('approval.denied')}${reason ? `: ${reason}` : ''}${who}`
    default:
      return decision
  }
}
