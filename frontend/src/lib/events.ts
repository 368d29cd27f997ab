import type {
  ContextBuiltData,
  ContextPinnedData,
  GuardTrippedData,
  HermesEvent,
  LimitNearData,
  MemoryRecalledData,
  ModelDecidedData,
  ModelRetriedData,
  RunFinishedData,
  RunResumedData,
  RunStartedData,
  TaskEditedData,
  ToolFinishedData,
  ToolStartedData,
} from '../api/types'
import { t, type Lang } from '../i18n/i18n'
import { formatBytes, formatDuration, formatPercent, formatTokens, oneLine } from './format'

/** orderEvents returns events in seq order with repeated seqs dropped, as a viewer that joins late must. */
export function orderEvents(events: readonly HermesEvent[]): HermesEvent[] {
  const sorted = [...events].sort((a, b) => a.seq - b.seq)
  return sorted.filter((e, i) => i === 0 || e.seq !== sorted[i - 1].seq)
}

export type EventKind = 'run' | 'iteration' | 'context' | 'model' | 'tool' | 'guard' | 'control' | 'state'

/** kindOf groups event types for colour and filtering. */
export function kindOf(type: string): EventKind {
  if (type === 'guard.tripped' || type === 'limit.near') return 'guard'
  if (type.startsWith('run.') && type !== 'run.paused' && type !== 'run.resumed') return 'run'
  const prefix = type.split('.')[0]
  switch (prefix) {
    case 'iteration':
      return 'iteration'
    case 'context':
      return 'context'
    case 'model':
      return 'model'
    case 'tool':
      return 'tool'
    case 'summary':
    case 'memory':
    case 'checkpoint':
      return 'state'
    default:
      return 'control'
  }
}

const obj = <T>(data: unknown): T => (data && typeof data === 'object' ? (data as T) : ({} as T))

/**
 * editedWhat says what an edit changed: the task, the standing instructions
 * or both. task.edited carries the task before and after even when only the
 * instructions changed, and both instructions are left out when they were
 * and stay empty.
 */
export function editedWhat(d: TaskEditedData): 'task' | 'instructions' | 'both' {
  const task = (d.old_task ?? '') !== (d.new_task ?? '')
  const instructions = (d.old_instructions ?? '') !== (d.new_instructions ?? '')
  return task && instructions ? 'both' : instructions ? 'instructions' : 'task'
}

/** statusLabel names a run status in lang. */
export function statusLabel(status: string, lang: Lang): string {
  switch (status) {
    case 'running':
    case 'finished':
    case 'max_iterations':
    case 'guard':
    case 'budget':
    case 'stopped':
    case 'failed':
      return t(lang, `status.${status}`)
    default:
      return status
  }
}

/** callText renders a tool call as name(arguments), cut to fit one line. */
export function callText(name: string | undefined, args: string | undefined, max = 80): string {
  return oneLine(`${name ?? '?'}(${args ?? ''})`, max)
}

/** summarizeEvent is a readable one-line account of e in lang. */
export function summarizeEvent(e: HermesEvent, lang: Lang, max = 160): string {
  return oneLine(describe(e, lang), max)
}

function describe(e: HermesEvent, lang: Lang): string {
  switch (e.type) {
    case 'run.started': {
      const d = obj<RunStartedData>(e.data)
      return t(lang, 'ev.run_started', { model: d.model ?? '?', task: d.task ?? '' })
    }
    case 'iteration.started':
      return t(lang, 'ev.iteration_started', { n: e.iteration })
    case 'context.built': {
      const d = obj<ContextBuiltData>(e.data)
      const vars = {
        tokens: formatTokens(d.tokens ?? 0, lang),
        share: formatPercent(d.budget_share ?? 0, lang),
        messages: d.message_count ?? 0,
      }
      return t(lang, d.compressed ? 'ev.context_compressed' : 'ev.context_built', vars)
    }
    case 'model.delta':
      return t(lang, 'ev.model_delta', { text: obj<{ text?: string }>(e.data).text ?? '' })
    case 'model.reasoning':
      return t(lang, 'ev.model_reasoning', { text: obj<{ text?: string }>(e.data).text ?? '' })
    case 'model.retried': {
      const d = obj<ModelRetriedData>(e.data)
      return t(lang, 'ev.model_retried', {
        attempt: d.attempt ?? 0,
        wait: formatDuration(d.wait_ms ?? 0),
        error: d.error ?? '',
      })
    }
    case 'model.decided': {
      const d = obj<ModelDecidedData>(e.data)
      if (d.tool_calls && d.tool_calls.length > 0) {
        const calls = d.tool_calls.map((c) => callText(c.name, c.arguments, 60)).join(', ')
        return t(lang, 'ev.model_calls', { calls })
      }
      if (d.final_answer) return t(lang, 'ev.model_answer', { answer: d.final_answer })
      return t(lang, 'ev.model_empty')
    }
    case 'tool.started': {
      const d = obj<ToolStartedData>(e.data)
      return t(lang, 'ev.tool_started', { call: callText(d.name, d.arguments) })
    }
    case 'tool.finished': {
      const d = obj<ToolFinishedData>(e.data)
      const duration = formatDuration(d.duration_ms ?? 0)
      if (d.ok) return t(lang, 'ev.tool_ok', { name: d.name ?? '?', size: formatBytes(d.size ?? 0, lang), duration })
      return t(lang, 'ev.tool_failed', { name: d.name ?? '?', duration, error: d.error ?? d.result ?? '' })
    }
    case 'guard.tripped': {
      const d = obj<GuardTrippedData>(e.data)
      return t(lang, 'ev.guard', { guard: d.guard ?? '?', action: d.action ?? '?', message: d.message ?? '' })
    }
    case 'limit.near': {
      const d = obj<LimitNearData>(e.data)
      return t(lang, 'ev.limit_near', { left: d.left ?? 0, max: d.max ?? 0 })
    }
    case 'approval.requested':
      return t(lang, 'ev.approval_requested')
    case 'approval.resolved':
      return t(lang, 'ev.approval_resolved')
    case 'run.paused':
      return t(lang, 'ev.run_paused')
    case 'run.resumed': {
      const d = obj<RunResumedData>(e.data)
      const said = d.from_checkpoint ? t(lang, 'ev.run_resumed_checkpoint', { n: d.iteration ?? 0 }) : t(lang, 'ev.run_resumed')
      if (!d.from_model && !d.from_base_url) return said
      const at = (model?: string, url?: string) => (url ? `${model ?? ''} @ ${url}` : (model ?? ''))
      return `${said} · ${t(lang, 'ev.model_switched', { from: at(d.from_model, d.from_base_url), to: at(d.model, d.base_url) })}`
    }
    case 'instruction.injected':
      return t(lang, 'ev.instruction_injected', { text: obj<{ text?: string }>(e.data).text ?? '' })
    case 'task.edited': {
      const d = obj<TaskEditedData>(e.data)
      const what = editedWhat(d)
      const task = t(lang, 'ev.task_edited', { task: d.new_task ?? '' })
      const instructions = t(lang, 'ev.instructions_edited', { instructions: d.new_instructions || '–' })
      return what === 'task' ? task : what === 'instructions' ? instructions : `${task} · ${instructions}`
    }
    case 'summary.updated':
      return t(lang, 'ev.summary_updated')
    case 'context.pinned': {
      const d = obj<ContextPinnedData>(e.data)
      if (d.fact) return t(lang, 'ev.pinned_fact', { fact: d.fact })
      return t(lang, 'ev.pinned_message', { n: d.message ?? 0, role: d.role ?? '' })
    }
    case 'memory.written':
      return t(lang, 'ev.memory_written')
    case 'memory.recalled':
      return t(lang, 'ev.memory_recalled', { n: obj<MemoryRecalledData>(e.data).entries?.length ?? 0 })
    case 'checkpoint.saved':
      return t(lang, 'ev.checkpoint_saved', { messages: obj<{ messages?: number }>(e.data).messages ?? 0 })
    case 'run.finished': {
      const d = obj<RunFinishedData>(e.data)
      return t(lang, 'ev.run_finished', {
        status: statusLabel(d.status ?? '', lang),
        iterations: d.totals?.iterations ?? 0,
        tokens: formatTokens(d.totals?.total_tokens ?? 0, lang),
      })
    }
    default:
      return t(lang, 'ev.unknown', { type: e.type })
  }
}
