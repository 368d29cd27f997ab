import { memo, useState } from 'react'
import type { ChatMessage } from '../api/types'
import type { Paired } from '../lib/diff'
import { oneLine } from '../lib/format'
import { CopyButton } from './CopyButton'
import { TextDiffView } from './DiffView'
import { useT } from './appContext'

// One message of a request as the inspector, the comparison of two runs and
// the compression preview draw it, with its pin.

/** Pins say which messages are pinned, and pin one while the run is live. */
export interface Pins {
  live: boolean
  pinned: readonly number[]
  /** Asked for, not yet pinned: the run pins at its next safe point. */
  asked: readonly number[]
  onPin: (index: number) => void
}

/** PinButton pins message index, or says the pin is on its way. */
export function PinButton({ pins, index, hint, testId }: { pins: Pins; index: number; hint: string; testId: string }) {
  const t = useT()
  if (pins.asked.includes(index)) return <span className="muted pin-button">{t('pin.pinning')}</span>
  return (
    <button type="button" className="link pin-button" title={hint} onClick={() => pins.onPin(index)} data-testid={testId}>
      {t('pin.pin')}
    </button>
  )
}

// Memoised on the message, which keeps its identity from one request to the
// next: a live run's new request draws its new messages, not the hundreds
// before them.
export const MessageView = memo(function MessageView({ m, op, from, index = null, pins, open: startOpen = true }: { m: ChatMessage; op?: Paired<ChatMessage>['op']; from?: ChatMessage; index?: number | null; pins?: Pins; open?: boolean }) {
  const t = useT()
  const [open, setOpen] = useState(startOpen)
  const pinned = index !== null && !!pins?.pinned.includes(index)
  return (
    <li className={`message role-${m.role}${op ? ` diff-${op}` : ''}${pinned ? ' pinned' : ''}`} data-testid="message" data-role={m.role} data-index={index ?? ''} data-op={op}>
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="message-role">
          {op === 'added' ? '+ ' : op === 'removed' ? '− ' : op === 'edited' ? '✎ ' : ''}
          {m.role}
          {m.name ? ` · ${m.name}` : ''}
          {m.tool_call_id ? ` · ${m.tool_call_id}` : ''}
          {index !== null && <span className="muted"> · #{index}</span>}
          {pinned && <span className="tag pin-tag">{t('pin.pinned')}</span>}
          {index !== null && !pinned && pins?.live && <PinButton pins={pins} index={index} hint={t('pin.message_hint')} testId="message-pin" />}
          <CopyButton text={() => messageText(m)} title={t('copy.message')} testId="copy-message" />
          {!open && <span className="muted message-preview">{oneLine(messageText(m), 80)}</span>}
        </summary>
        {op === 'edited' && from ? (
          <TextDiffView a={messageText(from)} b={messageText(m)} testId="message-diff" />
        ) : (
          <>
            {m.content && <pre className="message-content">{m.content}</pre>}
            {m.tool_calls?.map((c) => (
              <pre key={c.id} className="message-call">
                → {c.name}({c.arguments}) <span className="muted">{c.id}</span>
              </pre>
            ))}
          </>
        )}
      </details>
    </li>
  )
})

/** messageText is a message as a person would paste it: its text, then its calls. */
export function messageText(m: ChatMessage): string {
  const calls = (m.tool_calls ?? []).map((c) => `${c.name}(${c.arguments})`)
  return [m.content, ...calls].filter(Boolean).join('\n')
}

/** MessageDiff lists the messages a diff added, removed and edited; an edited one shows the words that changed. */
export function MessageDiff({ ops }: { ops: Paired<ChatMessage>[] }) {
  return (
    <ol className="messages">
      {ops.map((d, i) => (
        <MessageView key={i} m={d.value} op={d.op === 'same' ? undefined : d.op} from={d.op === 'edited' ? d.from : undefined} open={d.op !== 'same'} />
      ))}
    </ol>
  )
}
