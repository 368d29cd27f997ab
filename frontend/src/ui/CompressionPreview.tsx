import { useEffect } from 'react'
import { formatCount, formatPercent } from '../lib/format'
import { PinButton, type Pins } from './MessageView'
import { useAppState, useAppStore, useRunState, useT } from './appContext'

/**
 * CompressionPreview shows which messages the next compression will fold
 * into the summary, before it happens, so a person can pin one first. It is
 * asked again after each iteration and each pin.
 */
export function CompressionPreview({ pins }: { pins: Pins }) {
  const { run } = useAppStore()
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const preview = useRunState((s) => s.preview)
  const iterations = useRunState((s) => s.view.iterations.length)
  const status = useRunState((s) => s.view.status)
  const pinCount = useRunState((s) => s.view.pinnedMessages.length + s.view.pinnedFacts.length)
  const facts = useRunState((s) => s.view.pinnedFacts)

  useEffect(() => {
    void run.loadPreview()
  }, [run, iterations, status, pinCount])

  const p = preview.value
  return (
    <section className="preview" data-testid="compression-preview">
      <h3>{t('preview.title')}</h3>
      {facts.length > 0 && (
        <div className="pinned-facts" data-testid="pinned-facts">
          <span className="muted">{t('preview.facts')}</span>
          <ul>
            {facts.map((f, i) => (
              <li key={i}>{f}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.status === 'error' && preview.error && (
        <p className="muted" data-testid="preview-unavailable">
          {preview.error.code === 'no_checkpoint' ? t('preview.none') : preview.error.messageIn(lang)}
        </p>
      )}
      {p && (
        <>
          <p data-testid="preview-summary" data-due={p.due ? 'true' : 'false'}>
            {p.threshold > 0
              ? t(p.due ? 'preview.due' : 'preview.not_due', {
                  tokens: formatCount(p.tokens, lang),
                  threshold: formatCount(p.threshold, lang),
                  share: formatPercent(p.window > 0 ? p.threshold / p.window : 0, lang),
                })
              : t('preview.never')}
            {p.folded > 0 && <> {t('preview.folded', { n: p.folded })}</>}
          </p>
          {p.turns.length === 0 ? (
            <p className="muted">{t('preview.nothing')}</p>
          ) : (
            <>
              <p className="muted">{t('preview.turns', { n: p.turns.length })}</p>
              <ol className="preview-turns">
                {p.turns.map((turn) => (
                  <li key={turn.index} className={turn.pinned ? 'pinned' : ''} data-testid="preview-turn" data-index={turn.index}>
                    <span className="muted">#{turn.index}</span> <b>{turn.role}</b>
                    {turn.name ? ` · ${turn.name}` : ''} <span className="muted">{t('preview.tokens', { n: formatCount(turn.tokens, lang) })}</span>
                    {turn.pinned ? (
                      <span className="tag pin-tag">{t('pin.pinned')}</span>
                    ) : (
                      pins.live && <PinButton pins={pins} index={turn.index} hint={t('pin.message_hint')} testId="preview-pin" />
                    )}
                    <div className="preview-text">{turn.text}</div>
                  </li>
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </section>
  )
}
