import { memo, useId, useState } from 'react'
import type { CompletionCheckedData, PlanDiff, PlanStep } from '../api/types'
import { openQuestion, requiredSteps, type PlanState, type QuestionView, type Revision } from '../lib/plan'
import { formatPercent } from '../lib/format'
import type { Lang } from '../i18n/i18n'
import { useAppState, useAppStore, useT } from './appContext'
import { Panel } from './Panel'

/**
 * PlanPanel sits beside the cards of a plan run: the route, the checklist,
 * its revisions, the completion check and an open question. Closed, its
 * header keeps the progress (or the route) in view; an open question shows
 * either way.
 * Memoised: its plan changes only with a plan's events, not with every fold.
 */
export const PlanPanel = memo(function PlanPanel({ plan, live }: { plan: PlanState; live: boolean }) {
  const t = useT()
  const lang = useAppState((s) => s.lang)
  const question = live ? openQuestion(plan) : null
  if (!plan.route && !plan.plan && !question) return null
  return (
    <Panel
      id="plan"
      className="plan-panel"
      testId="plan-panel"
      name={t('plan.heading')}
      title={t('plan.heading')}
      summary={
        plan.plan
          ? t('plan.progress', { passed: plan.plan.steps.filter((s) => s.status === 'passed').length, total: plan.plan.steps.length })
          : plan.route && t(plan.route.route === 'direct' ? 'plan.route_direct' : 'plan.route_loop')
      }
      always={question && <QuestionCard q={question} />}
    >
      {plan.route && (
        <p className="plan-route" data-testid="plan-route" data-route={plan.route.route}>
          <span className={`tag stage stage-intake`}>{t('stage.intake')}</span> <b>{t(plan.route.route === 'direct' ? 'plan.route_direct' : 'plan.route_loop')}</b>{' '}
          <span className="muted">
            {t(plan.route.by === 'model' ? 'plan.route_by_model' : 'plan.route_by_rules')} · {plan.route.reason}
          </span>
        </p>
      )}
      {plan.plan && (
        <>
          <ol className="plan-steps" data-testid="plan-steps" aria-label={t('plan.heading')}>
            {plan.plan.steps.map((s) => (
              <StepRow key={s.id} step={s} current={s.id === plan.plan?.current} />
            ))}
          </ol>
          {plan.plan.dropped.length > 0 && <p className="muted">{t('plan.dropped', { steps: plan.plan.dropped.join('; ') })}</p>}
          {plan.plan.revisions.map((r) => (
            <RevisionBlock key={r.seq} r={r} />
          ))}
        </>
      )}
      {plan.completion && <CompletionLine c={plan.completion} lang={lang} />}
    </Panel>
  )
})

function StepRow({ step: s, current }: { step: PlanStep; current: boolean }) {
  const t = useT()
  const status = s.status ?? 'pending'
  const icon = status === 'passed' ? '✓' : status === 'failed' ? '✗' : current ? '▸' : '○'
  return (
    <li
      className={`plan-step step-${status}${current ? ' current' : ''}`}
      data-testid="plan-step"
      data-status={status}
      data-current={current || undefined}
      aria-current={current ? 'step' : undefined}
    >
      <span className="step-icon" aria-label={t(`plan.step.${status === 'passed' || status === 'failed' ? status : 'pending'}`)}>
        {icon}
      </span>
      <div>
        <b>{s.id}.</b> {s.description} {s.required === false && <span className="tag">{t('plan.optional')}</span>}
        {(s.tools?.length ?? 0) > 0 && <span className="muted step-tools"> · {s.tools?.join(', ')}</span>}
        {s.acceptance && <div className="muted step-acceptance">{t('plan.acceptance', { text: s.acceptance })}</div>}
        {s.reason && <div className={status === 'failed' ? 'bad step-reason' : 'muted step-reason'}>{s.reason}</div>}
      </div>
    </li>
  )
}

function RevisionBlock({ r }: { r: Revision }) {
  const t = useT()
  return (
    <div className="plan-revision" data-testid="plan-revision">
      <div>
        <span className="mark-label">↻ {t('plan.revised', { n: r.iteration })}</span> {r.reason}
      </div>
      <PlanDiffView diff={r.diff} />
    </div>
  )
}

/** PlanDiffView lists a replan's added, removed, changed and kept steps. */
export function PlanDiffView({ diff }: { diff: PlanDiff }) {
  const t = useT()
  const line = (s: PlanStep) => `${s.id}. ${s.description ?? ''}`
  return (
    <ul className="plan-diff" data-testid="plan-diff">
      {diff.added?.map((s) => (
        <li key={`a${s.id}`} className="diff-add" data-kind="added">
          + {t('plan.diff.added')}: {line(s)}
        </li>
      ))}
      {diff.removed?.map((s) => (
        <li key={`r${s.id}`} className="diff-del" data-kind="removed">
          − {t('plan.diff.removed')}: {line(s)}
        </li>
      ))}
      {diff.changed?.map((c, i) => (
        <li key={`c${c.after?.id ?? i}`} data-kind="changed">
          ~ {t('plan.diff.changed')}: {c.after && line(c.after)}
          <div className="diff-del">− {[c.before?.tools?.join(', '), c.before?.acceptance].filter(Boolean).join(' · ')}</div>
          <div className="diff-add">+ {[c.after?.tools?.join(', '), c.after?.acceptance].filter(Boolean).join(' · ')}</div>
        </li>
      ))}
      {(diff.kept?.length ?? 0) > 0 && (
        <li className="muted" data-kind="kept">
          = {t('plan.diff.kept')}: {diff.kept?.join(', ')}
        </li>
      )}
    </ul>
  )
}

/** CompletionLine says whether an answer may end the run, and what holds it back. */
export function CompletionLine({ c, lang }: { c: CompletionCheckedData; lang: Lang }) {
  const t = useT()
  const steps = requiredSteps(c)
  const parts = [
    steps && t('plan.completion_steps', { passed: steps.passed, required: steps.required }),
    (c.missing?.length ?? 0) > 0 && t('plan.completion_missing', { steps: c.missing?.join(', ') ?? '' }),
    c.unresolved_failure && t('plan.completion_failure', { text: c.unresolved_failure }),
    (c.confidence ?? 0) > 0 && t('plan.confidence', { value: formatPercent(c.confidence ?? 0, lang), threshold: formatPercent(c.threshold ?? 0, lang) }),
  ].filter((p): p is string => !!p)
  return (
    <div className={`plan-completion ${c.passed ? 'ok' : 'warn'}`} data-testid="plan-completion" data-passed={c.passed ? 'true' : 'false'}>
      <span className="mark-label">{t(c.passed ? 'plan.completion_passed' : 'plan.completion_failed')}</span>
      {parts.length > 0 && t('plan.completion_colon')}
      {parts.join(' · ')}
      {c.reason && <span className="muted"> — {c.reason}</span>}
    </div>
  )
}

function QuestionCard({ q }: { q: QuestionView }) {
  const t = useT()
  const { run } = useAppStore()
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  // Named by its question, the card is a form landmark a screen reader can find.
  const titleId = useId()
  const send = async (answer: string) => {
    setSending(true)
    await run.answerQuestion(q.id, answer)
    setSending(false)
  }
  return (
    <form
      className="question-card"
      data-testid="question-card"
      aria-labelledby={titleId}
      onSubmit={(e) => {
        e.preventDefault()
        if (text.trim()) void send(text.trim())
      }}
    >
      <p id={titleId}>
        <span className="mark-label">
          <span aria-hidden="true">?</span> {t('question.heading')}
        </span>{' '}
        {q.asked.question}
      </p>
      <p className="muted">{t('question.context', { tool: q.asked.tool ?? '', argument: q.asked.argument ?? '', value: q.asked.value ?? '', failure: q.asked.failure ?? '' })}</p>
      <div className="question-row">
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder={t('question.placeholder')} aria-label={t('question.placeholder')} data-testid="question-input" autoFocus />
        <button type="submit" className="primary" disabled={sending || !text.trim()} data-testid="question-send">
          {t('question.send')}
        </button>
        <button type="button" disabled={sending} onClick={() => void send('')} data-testid="question-no-one" title={t('question.no_one_hint')}>
          {t('question.no_one')}
        </button>
      </div>
    </form>
  )
}
